"""Valid alternative answers for lesson 6: each keeps its exercise's full marks."""
from tests.alternatives import Alternative

ALTERNATIVES = [
    Alternative("twin_graph_and_op_seed", "twin_noise", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            tf1.set_random_seed(seed)
            first = tf1.random.uniform(shape, seed=seed)
            second = tf1.random.uniform(shape, seed=seed)
            return first, second
        '''),
    Alternative("twin_v2_ops_in_a_loop", "twin_noise", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            ops = [tf.random.uniform(shape, seed=seed + 1000, name=f"twin_{i}") for i in range(2)]
            return tuple(ops)
        '''),
    Alternative("source_graph_of_the_op", "noise_source", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.values = tf1.random.uniform(shape, seed=seed)
                self.session = tf1.Session(graph=self.values.graph)

            def draw(self):
                return self.values.eval(session=self.session)

            def replay(self):
                old = self.session
                self.session = tf1.Session(graph=self.values.graph)
                old.close()
        '''),
    Alternative("source_session_made_lazily", "noise_source", "noise_source_solution", '''
        class NoiseSource:
            def __init__(self, seed, shape):
                self.graph = tf1.get_default_graph()
                self.op = tf1.random.uniform(shape=shape, seed=seed)
                self.sess = None
                self.replay()

            def draw(self):
                return self.sess.run(self.op)

            def replay(self):
                if self.sess is not None:
                    self.sess.close()
                self.sess = tf1.Session(graph=self.graph)
        '''),
    Alternative("shuffle_constant_keywords", "shuffled_epochs", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            ds = tf.data.Dataset.from_tensor_slices(tf.constant(data))
            ds = ds.shuffle(buffer_size=len(data), seed=seed, reshuffle_each_iteration=reshuffle)
            ds = ds.repeat(count=epochs)
            return ds
        '''),
    Alternative("shuffle_indices_then_gather", "shuffled_epochs", "shuffled_epochs_solution", '''
        def shuffled_epochs(data, seed, reshuffle, epochs):
            values = tf.constant(data)
            indices = tf.data.Dataset.range(len(data))
            indices = indices.shuffle(len(data), seed=seed, reshuffle_each_iteration=reshuffle).repeat(epochs)
            return indices.map(lambda i: tf.gather(values, i))
        '''),
    Alternative("reader_initializable_iterator", "batch_reader", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                data = tf.data.Dataset.from_tensor_slices(features)
                data = data.batch(batch_size).prefetch(2)
                iterator = tf1.data.make_initializable_iterator(data)
                self.batch = iterator.get_next()
                self.sess = tf1.Session()
                self.sess.run(iterator.initializer)

            def next_batch(self):
                return self.sess.run(self.batch)
        '''),
    Alternative("reader_autotune_session_attribute", "batch_reader", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                self.graph = tf1.get_default_graph()
                pipeline = (tf.data.Dataset.from_tensor_slices(features)
                            .batch(batch_size, drop_remainder=False)
                            .prefetch(tf.data.AUTOTUNE))
                self.get_next = tf1.data.make_one_shot_iterator(pipeline).get_next()
                self.session = tf1.Session(graph=self.graph)

            def next_batch(self):
                batch = self.session.run(self.get_next)
                return batch
        '''),
    Alternative("noise_loop_with_int64_seed", "step_noise", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            out = []
            for step in steps:
                pair = tf.constant([seed, step], dtype=tf.int64)
                out.append(tf.random.stateless_uniform(shape=shape, seed=pair, minval=0.0, maxval=1.0).numpy())
            return out
        '''),
    Alternative("noise_through_one_tf_function", "step_noise", "step_noise_solution", '''
        @tf.function
        def _noise_for(shape, seed_pair):
            return tf.random.stateless_uniform(shape, seed=seed_pair)


        def step_noise(seed, steps, shape):
            return [np.array(_noise_for(tf.constant(shape, tf.int32), tf.constant([seed, s]))) for s in steps]
        '''),
]
