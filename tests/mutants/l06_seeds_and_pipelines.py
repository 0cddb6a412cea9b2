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

# Hostile answers written for issue 12. Graded by the grader as it was before, most kept full marks;
# the others lost their points under another misconception than their own.
MUTANTS += [
    Mutant("twin_float64", "twin_noise", "wrong-dtype", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape, seed=seed, dtype=tf.float64)
            b = tf1.random.uniform(shape, seed=seed, dtype=tf.float64)
            return a, b
        '''),
    Mutant("twin_seed_ignored", "twin_noise", "seed-ignored", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape, seed=1)
            b = tf1.random.uniform(shape, seed=1)
            return a, b
        '''),
    Mutant("twin_spare_op_and_copy", "twin_noise", "not-two-random-ops", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape, seed=seed)
            tf1.random.uniform(shape, seed=seed)
            return a, tf.identity(a)
        '''),
    Mutant("source_replays_python_cache", "noise_source", "replayed-from-python", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.noise = tf1.random.uniform(shape, seed=seed)
                self.sess = tf1.Session()
                self.history, self.position = [], 0

            def draw(self):
                if self.position < len(self.history):
                    value = self.history[self.position]
                else:
                    value = self.sess.run(self.noise)
                    self.history.append(value)
                self.position += 1
                return value

            def replay(self):
                self.position = 0
        '''),
    Mutant("source_two_sessions_swapped", "noise_source", "reseed-does-not-restart", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.noise = tf1.random.uniform(shape, seed=seed)
                self.sessions = [tf1.Session(), tf1.Session()]

            def draw(self):
                return self.sessions[0].run(self.noise)

            def replay(self):
                self.sessions.reverse()
        '''),
    Mutant("source_float64_draws", "noise_source", "wrong-dtype", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.graph = tf1.get_default_graph()
                self.noise = tf1.random.uniform(shape, seed=seed)
                self.sess = tf1.Session(graph=self.graph)

            def draw(self):
                return self.sess.run(self.noise).astype(np.float64)

            def replay(self):
                self.sess.close()
                self.sess = tf1.Session(graph=self.graph)
        '''),
    Mutant("shuffle_repeats_forever", "shuffled_epochs", "repeats-forever", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(data)
            return dataset.shuffle(len(data), seed=seed, reshuffle_each_iteration=reshuffle).repeat()
        '''),
    Mutant("shuffle_fixed_buffer", "shuffled_epochs", "small-buffer", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(data)
            return dataset.shuffle(8, seed=seed, reshuffle_each_iteration=reshuffle).repeat(epochs)
        '''),
    Mutant("shuffle_floats", "shuffled_epochs", "wrong-dtype", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            dataset = tf.data.Dataset.from_tensor_slices(np.asarray(data, np.float32))
            return dataset.shuffle(len(data), seed=seed, reshuffle_each_iteration=reshuffle).repeat(epochs)
        '''),
    Mutant("reader_drops_remainder", "batch_reader", "dropped-last-batch", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                dataset = tf.data.Dataset.from_tensor_slices(features).batch(batch_size, drop_remainder=True)
                self.next = tf1.data.make_one_shot_iterator(dataset.prefetch(1)).get_next()
                self.sess = tf1.Session()

            def next_batch(self):
                return self.sess.run(self.next)
        '''),
    Mutant("reader_casts_float32", "batch_reader", "wrong-dtype", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                dataset = tf.data.Dataset.from_tensor_slices(tf.constant(features, tf.float32))
                self.next = tf1.data.make_one_shot_iterator(dataset.batch(batch_size).prefetch(1)).get_next()
                self.sess = tf1.Session()

            def next_batch(self):
                return self.sess.run(self.next)
        '''),
    Mutant("reader_no_prefetch", "batch_reader", "no-prefetch", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                dataset = tf.data.Dataset.from_tensor_slices(features).batch(batch_size)
                self.next = tf1.data.make_one_shot_iterator(dataset).get_next()
                self.sess = tf1.Session()

            def next_batch(self):
                return self.sess.run(self.next)
        '''),
    Mutant("noise_float64", "step_noise", "wrong-dtype", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            return [tf.random.stateless_uniform(shape, seed=[seed, step]).numpy().astype(np.float64) for step in steps]
        '''),
    Mutant("noise_from_one_generator_per_call", "step_noise", "stateful-rng", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            generator = tf.random.Generator.from_seed(seed)
            noise = {}
            for step in sorted(steps):
                noise[step] = generator.uniform(shape).numpy()
            return [noise[step] for step in steps]
        '''),
]
