"""Mutants of lesson 6: each is a misconception the lesson names."""
from tests.mutants import Mutant

MUTANTS = [
    Mutant("twin_graph_seed_only", "twin_noise", "graph-seed-only", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            tf1.set_random_seed(seed)
            a = tf1.random.uniform(shape)
            b = tf1.random.uniform(shape)
            return a, b
        '''),
    Mutant("twin_seed_after_ops", "twin_noise", "seed-after-ops", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape)
            b = tf1.random.uniform(shape)
            tf1.set_random_seed(seed)
            return a, b
        '''),
    Mutant("twin_one_op_copied", "twin_noise", "not-two-random-ops", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape, seed=seed)
            return a, tf.identity(a)
        '''),
    Mutant("source_new_session_per_draw", "noise_source", "new-session-per-draw", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.graph = tf1.get_default_graph()
                self.noise = tf1.random.uniform(shape, seed=seed)

            def draw(self):
                with tf1.Session(graph=self.graph) as sess:
                    return sess.run(self.noise)

            def replay(self):
                pass
        '''),
    Mutant("source_replay_reseeds", "noise_source", "reseed-does-not-restart", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.seed = seed
                self.graph = tf1.get_default_graph()
                self.noise = tf1.random.uniform(shape, seed=seed)
                self.sess = tf1.Session(graph=self.graph)

            def draw(self):
                return self.sess.run(self.noise)

            def replay(self):
                self.graph.seed = self.seed
        '''),
    Mutant("source_replay_rebuilds_op", "noise_source", "rebuilt-op", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.seed, self.shape = seed, shape
                self.noise = tf1.random.uniform(shape, seed=seed)
                self.sess = tf1.Session()

            def draw(self):
                return self.sess.run(self.noise)

            def replay(self):
                self.noise = tf1.random.uniform(self.shape, seed=self.seed)
        '''),
    Mutant("shuffle_without_seed", "shuffled_epochs", "unseeded-shuffle", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(data)
            dataset = dataset.shuffle(len(data), reshuffle_each_iteration=reshuffle)
            return dataset.repeat(epochs)
        '''),
    Mutant("shuffle_ignores_reshuffle", "shuffled_epochs", "reshuffle-each-iteration", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(data)
            return dataset.shuffle(len(data), seed=seed).repeat(epochs)
        '''),
    Mutant("shuffle_after_repeat", "shuffled_epochs", "repeat-before-shuffle", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(data).repeat(epochs)
            return dataset.shuffle(len(data), seed=seed, reshuffle_each_iteration=reshuffle)
        '''),
    Mutant("reader_pipeline_in_loop", "batch_reader", "pipeline-in-loop", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                self.features, self.batch_size = features, batch_size
                self.sess = tf1.Session()

            def next_batch(self):
                dataset = tf.data.Dataset.from_tensor_slices(self.features).batch(self.batch_size).prefetch(1)
                return self.sess.run(tf1.data.make_one_shot_iterator(dataset).get_next())
        '''),
    Mutant("reader_reinitializes", "batch_reader", "restarted-iterator", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                dataset = tf.data.Dataset.from_tensor_slices(features).batch(batch_size).prefetch(1)
                self.iterator = tf1.data.make_initializable_iterator(dataset)
                self.next = self.iterator.get_next()
                self.sess = tf1.Session()

            def next_batch(self):
                self.sess.run(self.iterator.initializer)
                return self.sess.run(self.next)
        '''),
    Mutant("reader_feeds_from_python", "batch_reader", "fed-from-python", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                self.features, self.batch_size, self.position = features, batch_size, 0
                self.x = tf1.placeholder(tf.float32, [None] + list(features.shape[1:]))
                self.batch = tf.identity(self.x)
                self.sess = tf1.Session()

            def next_batch(self):
                chunk = self.features[self.position:self.position + self.batch_size]
                self.position += self.batch_size
                return self.sess.run(self.batch, {self.x: chunk})
        '''),
    Mutant("noise_from_generator", "step_noise", "stateful-rng", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            generator = tf.random.Generator.from_seed(seed)
            return [generator.uniform(shape).numpy() for step in steps]
        '''),
    Mutant("noise_same_seed_every_step", "step_noise", "same-noise-every-step", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            return [tf.random.stateless_uniform(shape, seed=[seed, 0]).numpy() for step in steps]
        '''),
]
