"""Mutants of lesson 6: each is a misconception the lesson names."""
from tests.mutants import Mutant, edited_solution

edited = edited_solution(__name__)

MUTANTS = [
    edited("twin_graph_seed_only", "twin_noise", "graph-seed-only",
           ('    a = tf1.random.uniform(shape, seed=seed,', '    tf1.set_random_seed(seed)\n    a = tf1.random.uniform(shape,'),
           ('(shape, seed=seed, name="b")', '(shape, name="b")')),
    edited("twin_seed_after_ops", "twin_noise", "seed-after-ops",
           ('(shape, seed=seed, name="a")', '(shape, name="a")'),
           ('(shape, seed=seed, name="b")', '(shape, name="b")\n    tf1.set_random_seed(seed)')),
    Mutant("twin_one_op_copied", "twin_noise", "not-two-random-ops", "twin_noise_solution", '''
        def twin_noise(seed, shape):
            a = tf1.random.uniform(shape, seed=seed)
            return a, tf.identity(a)
        '''),
    edited("source_new_session_per_draw", "noise_source", "new-session-per-draw",
           ("        self.sess = tf1.Session(graph=self.graph)\n\n    def draw", "\n    def draw"),
           ("return self.sess.run(self.noise)", "with tf1.Session(graph=self.graph) as sess:\n            return sess.run(self.noise)"),
           ("self.sess.close()\n        self.sess = tf1.Session(graph=self.graph)", "pass")),
    edited("source_replay_reseeds", "noise_source", "reseed-does-not-restart",
           ("self.graph = tf1.get_default_graph()", "self.seed = seed\n        self.graph = tf1.get_default_graph()"),
           ("self.sess.close()\n        self.sess = tf1.Session(graph=self.graph)", "self.graph.seed = self.seed")),
    edited("source_replay_rebuilds_op", "noise_source", "rebuilt-op",
           ("self.graph = tf1.get_default_graph()", "self.seed, self.shape = seed, shape"),
           ("self.sess.close()\n        self.sess = tf1.Session(graph=self.graph)", "self.noise = tf1.random.uniform(self.shape, seed=self.seed)"),
           ("tf1.Session(graph=self.graph)", "tf1.Session()")),
    edited("shuffle_without_seed", "shuffled_epochs", "unseeded-shuffle", ("seed=seed, ", "")),
    edited("shuffle_ignores_reshuffle", "shuffled_epochs", "reshuffle-each-iteration",
           (", reshuffle_each_iteration=reshuffle", "")),
    edited("shuffle_after_repeat", "shuffled_epochs", "repeat-before-shuffle",
           ("from_tensor_slices(data)", "from_tensor_slices(data).repeat(epochs)"),
           ("return dataset.repeat(epochs)", None), ("dataset = dataset.shuffle(", "return dataset.shuffle(")),
    Mutant("reader_pipeline_in_loop", "batch_reader", "pipeline-in-loop", "batch_reader_solution", '''
        class BatchReader:
            def __init__(self, features, batch_size):
                self.features, self.batch_size = features, batch_size
                self.sess = tf1.Session()

            def next_batch(self):
                dataset = tf.data.Dataset.from_tensor_slices(self.features).batch(self.batch_size).prefetch(1)
                return self.sess.run(tf1.data.make_one_shot_iterator(dataset).get_next())
        '''),
    edited("reader_shuffles", "batch_reader", "shuffled",
           ("from_tensor_slices(features)", "from_tensor_slices(features).shuffle(len(features), seed=0)")),
    edited("reader_reinitializes", "batch_reader", "restarted-iterator",
           ("self.next = tf1.data.make_one_shot_iterator(dataset).get_next()",
            "self.iterator = tf1.data.make_initializable_iterator(dataset)\n        self.next = self.iterator.get_next()"),
           ("return self.sess.run(self.next)", "self.sess.run(self.iterator.initializer)\n        return self.sess.run(self.next)")),
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
    edited("noise_same_seed_every_step", "step_noise", "same-noise-every-step", ("seed=[seed, step]", "seed=[seed, 0]")),
]

# Hostile answers written for issue 12. Graded by the grader as it was before, most kept full marks;
# the others lost their points under another misconception than their own.
MUTANTS += [
    edited("twin_float64", "twin_noise", "wrong-dtype",
           ('seed=seed, name="a"', 'seed=seed, dtype=tf.float64, name="a"'),
           ('seed=seed, name="b"', 'seed=seed, dtype=tf.float64, name="b"')),
    edited("twin_seed_ignored", "twin_noise", "seed-ignored",
           ('seed=seed, name="a"', 'seed=1, name="a"'), ('seed=seed, name="b"', 'seed=1, name="b"')),
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
    edited("source_float64_draws", "noise_source", "wrong-dtype",
           ("return self.sess.run(self.noise)", "return self.sess.run(self.noise).astype(np.float64)")),
    edited("shuffle_repeats_forever", "shuffled_epochs", "repeats-forever", ("repeat(epochs)", "repeat()")),
    edited("shuffle_fixed_buffer", "shuffled_epochs", "small-buffer", ("shuffle(len(data)", "shuffle(8")),
    edited("shuffle_floats", "shuffled_epochs", "wrong-dtype",
           ("from_tensor_slices(data)", "from_tensor_slices(np.asarray(data, np.float32))")),
    edited("reader_drops_remainder", "batch_reader", "dropped-last-batch",
           (".batch(batch_size)", ".batch(batch_size, drop_remainder=True)")),
    edited("reader_casts_float32", "batch_reader", "wrong-dtype",
           ("from_tensor_slices(features)", "from_tensor_slices(tf.constant(features, tf.float32))")),
    edited("reader_no_prefetch", "batch_reader", "no-prefetch", (".prefetch(1)", "")),
    edited("noise_float64", "step_noise", "wrong-dtype", (".numpy()", ".numpy().astype(np.float64)")),
    Mutant("noise_from_one_generator_per_call", "step_noise", "stateful-rng", "step_noise_solution", '''
        def step_noise(seed, steps, shape):
            generator = tf.random.Generator.from_seed(seed)
            noise = {}
            for step in sorted(steps):
                noise[step] = generator.uniform(shape).numpy()
            return [noise[step] for step in steps]
        '''),
]

# Issue 25: answers that fit the public case and break in a situation the notebook's text covers.
MUTANTS += [
    edited("twin_stateless_pair", "twin_noise", "not-two-random-ops",
           ('a = tf1.random.uniform(shape, seed=seed, name="a")', 'a = tf.random.stateless_uniform(shape, seed=[seed, 0], name="a")'),
           ('b = tf1.random.uniform(shape, seed=seed, name="b")', 'b = tf.random.stateless_uniform(shape, seed=[seed, 0], name="b")')),
    edited("source_replay_on_default_graph", "noise_source", "raised",
           ("self.sess.close()\n        self.sess = tf1.Session(graph=self.graph)",
            "self.sess.close()\n        self.sess = tf1.Session()")),
    edited("shuffle_buffer_of_distinct_values", "shuffled_epochs", "small-buffer", ("shuffle(len(data)", "shuffle(len(set(data))")),
    edited("reader_repeats_endlessly", "batch_reader", "wrapped-around",
           ("from_tensor_slices(features).batch(", "from_tensor_slices(features).repeat().batch(")),
    edited("noise_seeded_by_position", "step_noise", "stateful-rng",
           ("seed=[seed, step]).numpy() for step in steps]", "seed=[seed, i]).numpy() for i, step in enumerate(steps)]")),
]

# Issue 34: near misses. A buffer capped at 1000 ("any length" goes past it); an epoch count short by
# one, which ends in OutOfRangeError where the check "ends after exactly `epochs` epochs" exists.
MUTANTS += [
    edited("shuffle_capped_buffer", "shuffled_epochs", "small-buffer",
           ("shuffle(len(data)", "shuffle(min(len(data), 1000)")),
    edited("shuffle_one_epoch_short", "shuffled_epochs", "repeats-forever", ("repeat(epochs)", "repeat(epochs - 1)")),
]

# Review of lesson 06: a reader that casts its features (to TensorFlow's float32, or to float64) kept 3/3 on
# float-valued public features and lost wrong-dtype in the hidden cases; the public case's features are
# int32 now, so the check cell says so first. And a fixed order made by caching the first shuffled pass
# instead of reshuffle_each_iteration=False: the exercise asks for shuffle's own order (its text says so),
# and TensorFlow draws that cached first order differently, which the public no-reshuffle case shows.
MUTANTS += [
    edited("reader_astype_float32", "batch_reader", "wrong-dtype",
           ("from_tensor_slices(features)", "from_tensor_slices(features.astype(np.float32))")),
    edited("reader_astype_float64", "batch_reader", "wrong-dtype",
           ("from_tensor_slices(features)", "from_tensor_slices(features.astype(np.float64))")),
    edited("shuffle_cached_first_pass", "shuffled_epochs", "shuffle-order",
           (", reshuffle_each_iteration=reshuffle", ""),
           ("return dataset.repeat(epochs)",
            "return dataset.repeat(epochs) if reshuffle else dataset.take(len(data)).cache().repeat(epochs)")),
]

# Issue 33: two different op seeds were named graph-seed-only, a verdict on the kernel's values; the seed
# pairs are now read from the GraphDef handed out (with a graph-level seed set too, the op seeds stay written).
MUTANTS += [
    edited("twin_different_op_seeds", "twin_noise", "different-op-seeds",
           ('(shape, seed=seed, name="b")', '(shape, seed=seed + 1, name="b")')),
    edited("twin_graph_seed_and_different_op_seeds", "twin_noise", "different-op-seeds",
           ('    a = tf1.random.uniform(shape, seed=seed,', '    tf1.set_random_seed(seed)\n    a = tf1.random.uniform(shape, seed=seed,'),
           ('(shape, seed=seed, name="b")', '(shape, seed=seed + 7, name="b")')),
]

PUBLIC = {"twin_different_op_seeds", "reader_astype_float32", "reader_astype_float64", "reader_casts_float32", "shuffle_cached_first_pass",
          "shuffle_fixed_buffer", "shuffle_buffer_of_distinct_values", "shuffle_capped_buffer",
          "source_replay_on_default_graph"}
