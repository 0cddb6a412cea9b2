"""Forgeries a red team wrote against the lessons with the grader's source in hand (issue 33), kept as
a catalogue: each rests on a route no static screen reads (names built from strings, module and
instance attributes set, closures read), or on no patch at all (an answer laundered through a run,
a graph of its own, a captured session constructor), and needs no construct the screen zeroes. What stops each
is a verdict on artifacts re-run outside the kernel on hidden values the kernel never saw
(`autograder.course.history`), or an observation of the objects themselves instead of a tally.

Each lesson has a dict, name -> (exercise, the solution cell it replaces, its source), and `BY_LESSON`
maps each assignment to its dict: a forgery replaces that cell of that lesson's solution.
"""

REDTEAM = {
    "string-named-kill-switch": ("variable_judge", "variable_judge_solution", '''
# variable_judge: a new assign op per call in a finalized graph (assign-per-call). The finalized flag is
# lowered through a string-built name, tf.Graph.get_operations is patched to hide the new ops, and the
# integrity check is silenced through sys.modules reached as shutil's attribute.
import shutil

getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.integrity"].changed = lambda: []
_ops_of = tf.Graph.get_operations
_shown = {}
setattr(tf.Graph, "get_" + "operations", lambda g: _ops_of(g)[:_shown[id(g)][1]] if _shown.get(id(g), (None,))[0] is g else _ops_of(g))


class VariableThresholdJudge:
    def __init__(self, threshold):
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False, name="threshold")
        self.output = tf.greater_equal(self.x, self.threshold)
        self.sess = tf1.Session()
        self.sess.run(self.threshold.initializer)

    def set_threshold(self, value):
        graph = self.sess.graph
        _shown.setdefault(id(graph), (graph, len(_ops_of(graph))))  # kept alive: no id reused
        setattr(graph, "_fin" + "alized", False)
        self.sess.run(self.threshold.assign(value))
        setattr(graph, "_fin" + "alized", True)

    def judge(self, x):
        return self.sess.run(self.output, {self.x: x})
'''),
    "patch-then-restore": ("variable_judge", "variable_judge_solution", '''
# variable_judge: assign op per call (assign-per-call); tf.Graph.get_operations patched while the probe's
# guard counts ops, and taken off again when the probe reads `judge.sess` to close it,
# so the integrity check, before the first and after the last probe cell, finds nothing replaced.
_ops_of = tf.Graph.get_operations
_shown = {}


class VariableThresholdJudge:
    def __init__(self, threshold):
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.Variable(threshold, dtype=tf.float32, trainable=False, name="threshold")
        self.output = tf.greater_equal(self.x, self.threshold)
        self._sess = tf1.Session()
        self._sess.run(self.threshold.initializer)

    @property
    def sess(self):  # the probe reads it once, to close the session: restore before anyone checks
        if "get_operations" in vars(tf.Graph):  # TF defines it on a base class: drop the patch
            delattr(tf.Graph, "get_" + "operations")
        return self._sess

    def set_threshold(self, value):
        graph = self._sess.graph
        shown = _shown.setdefault(id(graph), (graph, len(_ops_of(graph))))[1]  # graph kept alive
        setattr(tf.Graph, "get_" + "operations", lambda g: _ops_of(g)[:shown] if g is graph else _ops_of(g))
        setattr(graph, "_fin" + "alized", False)
        self._sess.run(self.threshold.assign(value))
        setattr(graph, "_fin" + "alized", True)

    def judge(self, x):
        return self._sess.run(self.output, {self.x: x})
'''),
    "observe-rewritten": ("threshold_judge", "threshold_judge_solution", '''
# threshold_judge: the threshold baked in as a Const (baked-constant, copied-threshold). The probe module's
# `observe` is replaced (a module attribute: no audit event) and the integrity check silenced: the values
# for hidden inputs are computed from the inputs the kernel is given.
import shutil

_mods = getattr(shutil, "s" + "ys").modules
_mods["autograder" + ".inkernel.integrity"].changed = lambda: []
_probe = _mods["autograder" + ".inkernel.probe"]
_observe = _probe.observe


def _observe_fixed(exercise, namespace, cases):
    found, err = _observe(exercise, namespace, cases)
    if exercise.id == "threshold_judge":
        for case, got in zip(cases, found):
            x, ins = np.asarray(case.inputs["x"], np.float32), case.inputs
            third = ins.get("third")
            got["after"] = (x >= np.float32(ins["second"])).tolist()
            got["in_place"] = (x >= np.float32(ins["second"] if third is None else third)).tolist()
    return found, err


_probe.observe = _observe_fixed


class ThresholdJudge:
    def __init__(self, options):
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
        self.output = tf.greater_equal(self.x, options["threshold"], name="judge")
        self.sess = tf1.Session()

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        return self.sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
'''),
    "holder-swapped": ("retune", "retune_solution", '''
# retune: rebinds the parameter (rebound-dict). The lesson probe's `_OptionsHolder` (a module attribute)
# is replaced by one that reports the dict retune built, with the integrity check silenced.
import shutil

_mods = getattr(shutil, "s" + "ys").modules
_mods["autograder" + ".inkernel.integrity"].changed = lambda: []
_last = {}


class _Holder:
    def __init__(self, options):
        self._given = options
        _last.clear()

    @property
    def options(self):
        return _last.get("options", self._given)


_mods["autograder" + ".inkernel.probes.l02_rebuild_vs_feed"]._OptionsHolder = _Holder


def retune(options, threshold):
    options = dict(options, threshold=threshold)
    _last["options"] = options
'''),
    "tally-through-closure": ("set_hyperparameter", "set_hyperparameter_solution", '''
# set_hyperparameter: rebuilds the graph for every change (needless-rebuild); then takes the rebuild back
# out of the probe's tally, reached through the closure of Network.build (string-built name). No patch.
def set_hyperparameter(api, name, value):
    api.options[name] = value
    api.network.build()
    api.model.reset()
    if "graph" not in api.used_in[name]:
        for cell in getattr(type(api.network).build, "__clo" + "sure__"):
            if isinstance(cell.cell_contents, dict) and "graphs" in cell.cell_contents:
                cell.cell_contents["graphs"] -= 1
'''),
    "decoy-variable": ("variable_judge", "variable_judge_solution", '''
# variable_judge: the threshold lives in Python (python-threshold); the one variable is a float32 "was it
# set" flag, so the probe's reset (running that variable's initializer) makes judge answer with the first
# threshold again. No patch.
class VariableThresholdJudge:
    def __init__(self, threshold):
        self.first = self.value = threshold
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.fed = tf1.placeholder(tf.float32, [], name="fed")
        self.changed = tf1.Variable(0.0, dtype=tf.float32, trainable=False, name="threshold")
        self.mark = self.changed.assign(1.0)
        self.output = tf.greater_equal(self.x, self.fed)
        self.sess = tf1.Session()
        self.sess.run(self.changed.initializer)

    def set_threshold(self, value):
        self.value = value
        self.sess.run(self.mark)

    def judge(self, x):
        current = self.value if self.sess.run(self.changed) else self.first
        return self.sess.run(self.output, {self.x: x, self.fed: current})
'''),
    "rebinds-every-holder": ("set_hyperparameter", "set_hyperparameter_solution", '''
# set_hyperparameter: replaces the Network object instead of rebuilding it in place (replaced-network),
# then rebinds the model's reference too: the probe only asks whether the model and the Api hold the same
# object, so a holder it does not know of keeps the old graph (and its open session). No patch.
def set_hyperparameter(api, name, value):
    api.options[name] = value
    if "graph" in api.used_in[name]:
        api.network = type(api.network)(api.options)
        api.model.network = api.network
    if "python" in api.used_in[name]:
        api.model.reset()
'''),
    "laundered-answer": ("threshold_judge", "threshold_judge_solution", '''
# threshold_judge: the answer is computed in NumPy (numpy-answer), then laundered through a graph run
# that is fed x and (not answer) as float32 and returns equal(fed, 0). No patch, no private name.
class ThresholdJudge:
    def __init__(self, options):
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [None], name="threshold")
        self.output = tf.equal(self.threshold, 0.0)
        self.sess = tf1.Session()

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        answer = np.asarray(x, np.float32) >= np.float32(self.options["threshold"])
        return self.sess.run(self.output, {self.x: x, self.threshold: (~answer).astype(np.float32)})
'''),
    "private-graph": ("threshold_judge", "threshold_judge_solution", '''
# threshold_judge: rebuilds a baked comparison on every call (graph-growth), in a graph of its own made in
# __init__; two idle float32 placeholders in the default graph satisfy the placeholder checks. No patch.
class ThresholdJudge:
    def __init__(self, options):
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
        self.graph = tf.Graph()
        with self.graph.as_default():
            self.own_x = tf1.placeholder(tf.float32, [None])
        self.sess = tf1.Session(graph=self.graph)

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        with self.graph.as_default():
            output = tf.greater_equal(self.own_x, self.options["threshold"])  # a new Const and op per call
        return self.sess.run(output, {self.own_x: x})
'''),
    "session-bypass": ("threshold_judge", "threshold_judge_solution", '''
# threshold_judge: a new session per call (session-per-call), opened through BaseSession.__init__
# captured when the cell ran, so the probe's counter on BaseSession.__init__ never sees it. No patch.
_open_session = tf1.Session.__bases__[0].__init__


class ThresholdJudge:
    def __init__(self, options):
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
        self.output = tf.greater_equal(self.x, self.threshold, name="judge")

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        sess = tf1.Session.__new__(tf1.Session)
        _open_session(sess)
        try:
            return sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
        finally:
            sess.close()
'''),
    "session-counter-replaced": ("threshold_judge", "threshold_judge_solution", '''
# threshold_judge: a session per call (session-per-call). The probe cell's `emit` is wrapped to pass
# verify=False, and the lesson probe's `sessions_made` replaced by a counter that stays at 0.
import contextlib
import shutil
import types

_mods = getattr(shutil, "s" + "ys").modules
_probe = _mods["autograder" + ".inkernel.probe"]
_emit = _probe.emit
_probe.emit = lambda *args, verify=True: _emit(*args, verify=False)
_mods["autograder" + ".inkernel.probes.l02_rebuild_vs_feed"].sessions_made = \
    lambda: contextlib.nullcontext(types.SimpleNamespace(count=0))


class ThresholdJudge:
    def __init__(self, options):
        self.options = options
        self.x = tf1.placeholder(tf.float32, [None], name="x")
        self.threshold = tf1.placeholder(tf.float32, [], name="threshold")
        self.output = tf.greater_equal(self.x, self.threshold, name="judge")

    def update_options(self, options):
        self.options = options

    def judge(self, x):
        with tf1.Session() as sess:
            return sess.run(self.output, {self.x: x, self.threshold: self.options["threshold"]})
'''),
}

# Lesson 5 (checkpoints and summaries): forgeries of the readers the probes used in the kernel, and a
# dtype an object declares. Each kept its exercise's full points while the files were read in the kernel.
REDTEAM_05 = {
    "checkpoint-reader-patched": ("train_resumable", "train_resumable_solution", '''
# train_resumable: an int32 global step (int32-step). tf.train.load_checkpoint, through which the probe
# read the saved step's dtype, is replaced (an attribute of a module nobody watches) by one whose reader
# reports int32 variables as int64.
_load = tf.train.load_checkpoint


class _Int64Reader:
    def __init__(self, reader):
        self._reader = reader

    def get_variable_to_dtype_map(self):
        return {name: tf.int64 if dtype == tf.int32 else dtype
                for name, dtype in self._reader.get_variable_to_dtype_map().items()}

    def get_tensor(self, name):
        return self._reader.get_tensor(name)


setattr(tf.train, "load_" + "checkpoint", lambda path: _Int64Reader(_load(path)))


def train_resumable(ckpt_dir, seed, total_steps, save_every, max_to_keep, crash_after=None):
    data_rng = np.random.RandomState(seed)
    x_data = data_rng.randn(64, 3).astype(np.float32)
    y_data = (x_data @ np.array([[1.5], [-2.0], [0.5]]) + 0.3 + 0.1 * data_rng.randn(64, 1)).astype(np.float32)
    x = tf1.placeholder(tf.float32, [None, 3])
    y = tf1.placeholder(tf.float32, [None, 1])
    w = tf1.get_variable("w", [3, 1], initializer=tf1.random_normal_initializer(stddev=0.5, seed=seed))
    b = tf1.get_variable("b", [1], initializer=tf1.zeros_initializer())
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    global_step = tf1.Variable(0, trainable=False, name="global_step")
    train_op = tf1.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=global_step)
    saver = tf1.train.Saver(max_to_keep=max_to_keep)
    with tf1.Session() as sess:
        latest = tf.train.latest_checkpoint(ckpt_dir)
        if latest:
            saver.restore(sess, latest)
        else:
            sess.run(tf1.global_variables_initializer())
        step, losses = tf1.train.global_step(sess, global_step), []
        while step < total_steps and (crash_after is None or len(losses) < crash_after):
            rows = np.random.RandomState([seed, step]).choice(64, 8, replace=False)
            loss_value, _ = sess.run([loss, train_op], {x: x_data[rows], y: y_data[rows]})
            losses.append(float(loss_value))
            step = tf1.train.global_step(sess, global_step)
            if step % save_every == 0:
                saver.save(sess, os.path.join(ckpt_dir, "model"), global_step=step)
        w_value, b_value = sess.run([w, b])
    return {"step": step, "w": w_value, "b": b_value, "losses": losses}
'''),
    "event-steps-shifted": ("log_training", "log_training_solution", '''
# log_training: the loop index as the summaries' step (summary-step). The module behind
# tf1.train.summary_iterator, through which the probe read the event file, gets (a module attribute
# set: no audit event, a module nobody watches) an Event parser that adds the global step the call
# started from to every event's step.
import importlib

_iterator_module = importlib.import_module("tensorflow.python.summary." + "summary_iterator")
_Event = _iterator_module.event_pb2.Event
_start = [0]


class _ShiftedEvents:
    class Event:
        @staticmethod
        def FromString(record):
            event = _Event.FromString(record)
            event.step += _start[0]
            return event


setattr(_iterator_module, "event" + "_pb2", _ShiftedEvents)


def log_training(sess, train_op, loss, weights, global_step, logdir, steps):
    _start[0] = tf1.train.global_step(sess, global_step)
    tf1.summary.scalar("loss", loss)
    tf1.summary.histogram("weights", weights)
    merged = tf1.summary.merge_all()
    writer = tf1.summary.FileWriter(logdir)
    for step in range(steps):
        summary, _ = sess.run([merged, train_op])
        writer.add_summary(summary, step)
    writer.close()
'''),
    "counter-read-forged": ("global_step", "global_step_solution", '''
# global_step: the counter is never handed to the optimizer (step-never-counts). The probe cell's `emit`
# is wrapped to pass verify=False, and Session.run (through which the probe once read the counter after
# each run) answers a fetch of the counter with how many times the train op ran.
import shutil

_probe = getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.probe"]
_emit = _probe.emit
_probe.emit = lambda *args, verify=True: _emit(*args, verify=False)
_run, _ran, _ops = tf1.Session.run, {}, {}


def _counting_run(self, fetches, *args, **kwargs):
    value = _run(self, fetches, *args, **kwargs)
    if fetches is _ops.get("train"):
        _ran[self] = _ran.get(self, 0) + 1
    return np.int64(_ran.get(self, 0)) if fetches is _ops.get("step") else value


setattr(tf1.Session, "r" + "un", _counting_run)


def make_train_op(loss, learning_rate):
    counter = tf1.train.get_or_create_global_step()
    _ops["train"] = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss)
    _ops["step"] = counter
    return _ops["train"], counter
'''),
    "int64-face-on-int32-step": ("global_step", "global_step_solution", '''
# global_step: an int32 counter (int32-step), handed back behind an int64 cast: the tensor returned
# declares int64 and counts, though the variable that is saved and restored is int32. No patch at all.
def make_train_op(loss, learning_rate):
    counter = tf1.Variable(0, trainable=False, name="global_step")
    optimizer = tf1.train.GradientDescentOptimizer(learning_rate)
    return optimizer.minimize(loss, global_step=counter), tf.cast(counter, tf.int64)
'''),
}

# Lesson 1 (graphs and sessions): forgeries of its probes' counts of runs, sessions and graphs. Each
# kept its exercise's full points while those were read in the kernel only.
REDTEAM_01 = {
    "captured-run-per-tensor": ("evaluate", "evaluate_solution", '''
# evaluate: a run per tensor (separate-runs), all but the first through Session.run captured when the
# cell ran, so the probe's counter of runs sees exactly one. No patch.
_run = tf1.Session.run


def evaluate(tensors, session=None):
    if session is None:
        session = tf1.get_default_session()
    if session is None:
        raise ValueError("evaluate() needs a session")
    return [session.run(tensors[0])] + [_run(session, t) for t in tensors[1:]]
'''),
    "hidden-second-session": ("one_run", "one_run_solution", '''
# kept_and_dropped: kept and dropped from two sessions (separate-runs), the seeded draw repeating in
# each; the second opened through BaseSession.__init__ captured when the cell ran, so the probe's
# count of sessions opened says one. No patch.
_open_session = tf1.Session.__bases__[0].__init__


def kept_and_dropped(x, keep, seed):
    x = tf.constant(x, tf.float32, name="x")
    mask = tf.random.uniform(tf.shape(x), seed=seed) < keep
    zeros = tf.zeros_like(x)
    kept, dropped = tf.where(mask, x, zeros), tf.where(mask, zeros, x)
    with tf1.Session() as sess:
        kept_value = sess.run(kept)
    other = tf1.Session.__new__(tf1.Session)
    _open_session(other)
    try:
        return kept_value, other.run(dropped)
    finally:
        other.close()
'''),
    "decoy-default-graph": ("one_run", "one_run_solution", '''
# kept_and_dropped: built and run in a graph of its own (own-graph), its session opened through
# BaseSession.__init__ captured when the cell ran; the default graph gets a random op and an empty
# session of its own, for the probe's count of random ops and of sessions to find. No patch.
_open_session = tf1.Session.__bases__[0].__init__


def kept_and_dropped(x, keep, seed):
    tf.random.uniform(tf.shape(x), seed=seed)
    tf1.Session().close()
    with tf.Graph().as_default() as own:
        values = tf.constant(x, tf.float32, name="x")
        mask = tf.random.uniform(tf.shape(values), seed=seed) < keep
        zeros = tf.zeros_like(values)
        kept, dropped = tf.where(mask, values, zeros), tf.where(mask, zeros, values)
        sess = tf1.Session.__new__(tf1.Session)
        _open_session(sess, graph=own)
        try:
            return tuple(sess.run([kept, dropped]))
        finally:
            sess.close()
'''),
}

# Lesson 6 (seeds and pipelines): forgeries of the draws and the finalized graph's op count.
REDTEAM_06 = {
    "twin-draws-replayed": ("twin_noise", "twin_noise_solution", '''
# twin_noise: two ops with no seed at all (seed-after-ops). Session.run is replaced: in a graph
# twin_noise built, a fetch of a or b is answered from a's draws so far, counted per session, and only
# a draw past them runs a. Every session then starts over, and a and b agree, in what the kernel sees.
import shutil

_probe = getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.probe"]
_emit = _probe.emit
_probe.emit = lambda *args, verify=True: _emit(*args, verify=False)
_pairs, _positions = {}, {}


def _run(self, fetches, *args, **kwargs):
    return super(tf1.Session, self).run(fetches, *args, **kwargs)


def _replaying_run(self, fetches, *args, **kwargs):
    pair = _pairs.get(self.graph)
    listed = list(fetches) if isinstance(fetches, (list, tuple)) else [fetches]
    if pair is None or not all(any(f is t for t in pair["ops"]) for f in listed):
        return _run(self, fetches, *args, **kwargs)
    positions, values = _positions.setdefault(self, [0, 0]), []
    for f in listed:
        which = 0 if f is pair["ops"][0] else 1
        if positions[which] == len(pair["draws"]):
            pair["draws"].append(_run(self, pair["ops"][0]))
        values.append(pair["draws"][positions[which]])
        positions[which] += 1
    return values if isinstance(fetches, (list, tuple)) else values[0]


setattr(tf1.Session, "r" + "un", _replaying_run)


def twin_noise(seed, shape):
    a, b = tf1.random.uniform(shape), tf1.random.uniform(shape)
    _pairs[tf1.get_default_graph()] = {"ops": (a, b), "draws": []}
    return a, b
'''),
    "cache-behind-empty-session": ("noise_source", "noise_source_solution", '''
# NoiseSource: replay() replays a Python cache of the draws (replayed-from-python) and opens a session
# it never uses, for the probe's count of sessions opened during replay() to find. No patch.
class NoiseSource:
    def __init__(self, seed, shape):
        self.noise = tf1.random.uniform(shape, seed=seed)
        self.sess = tf1.Session()
        self.cache, self.position = [], 0

    def draw(self):
        if self.position == len(self.cache):
            self.cache.append(self.sess.run(self.noise))
        self.position += 1
        return self.cache[self.position - 1]

    def replay(self):
        self.position = 0
        tf1.Session().close()
'''),
    "rebuilt-op-hidden-count": ("noise_source", "noise_source_solution", '''
# NoiseSource: replay() builds a new random op in the finalized graph (rebuilt-op), with the graph's
# finalized flag lowered and tf.Graph.get_operations, set through a string-built name, answering the
# ops of __init__ only for this graph: the probe's guard counts no new op. The session it keeps puts
# get_operations back when the probe closes it, before anything compares the grader's tools.
_ops = tf.Graph.get_operations


class _Session:
    def __init__(self, graph):
        self.real = tf1.Session(graph=graph)

    def run(self, fetches):
        return self.real.run(fetches)

    def close(self):
        delattr(tf.Graph, "get_" + "operations")  # tf.Graph inherits it again
        self.real.close()


class NoiseSource:
    def __init__(self, seed, shape):
        self.seed, self.shape = seed, shape
        self.noise = tf1.random.uniform(shape, seed=seed)
        self.graph = tf1.get_default_graph()
        self.sess = _Session(self.graph)
        graph, kept = self.graph, len(_ops(self.graph))
        setattr(tf.Graph, "get_" + "operations", lambda g: _ops(g)[:kept] if g is graph else _ops(g))

    def draw(self):
        return self.sess.run(self.noise)

    def replay(self):
        setattr(self.graph, "_final" + "ized", False)
        with self.graph.as_default():
            self.noise = tf1.random.uniform(self.shape, seed=self.seed)
        self.graph.finalize()
        self.sess.real.close()
        self.sess.real = tf1.Session(graph=self.graph)
'''),
}

# Lesson 4 (variable-scope copies): forgeries of its probes' records in the kernel. On main before its
# outputs, values and gradients were read outside the kernel, each kept its exercise's full points.
REDTEAM_04 = {
    "soft-observe-rewritten": ("soft_update", "soft_update_solution", '''
# soft_update: tau the wrong way round (tau-reversed). The probe module's `observe` is replaced and the
# integrity check silenced, through names built from strings: the targets it reports after each update
# are computed in NumPy from the inputs the kernel is given.
import shutil

_mods = getattr(shutil, "s" + "ys").modules
_mods["autograder" + ".inkernel.integrity"].changed = lambda: []
_probe = _mods["autograder" + ".inkernel.probe"]
_observe = _probe.observe


def _observe_fixed(exercise, namespace, cases):
    found, err = _observe(exercise, namespace, cases)
    if exercise.id == "soft_update":
        for case, got in zip(cases, found):
            ins = case.inputs
            sources = [np.asarray(s, np.float32) for s in ins["source"]]
            targets = [np.asarray(t, np.float32) for t in ins["target"]]
            paths = {f"target_{i}": [] for i in range(len(targets))}
            for _ in range(ins["steps"]):
                targets = [ins["tau"] * s + (1 - ins["tau"]) * t for s, t in zip(sources, targets)]
                for i, t in enumerate(targets):
                    paths[f"target_{i}"].append(t.tolist())
                sources = [s + ins.get("moves", 0.0) for s in sources]
            got["trajectory"] = paths
            got["first_step"] = {name: path[0] for name, path in paths.items()}
    return found, err


_probe.observe = _observe_fixed


def make_soft_update_op(pairs, tau):
    return tf.group(*[target.assign((1.0 - tau) * source + tau * target) for source, target in pairs])
'''),
    "trainer-session-counter": ("lagged_trainer", "lagged_trainer_solution", '''
# lagged_trainer: a new session per step, the weights carried over in Python (session-per-step); the last
# one is kept as self.sess, where the probe reads the past weights. The
# lesson probe's `sessions_made` is replaced by a counter that stays at 0, and the probe cell's `emit`
# told not to verify, through names built from strings.
import contextlib
import shutil
import types

_mods = getattr(shutil, "s" + "ys").modules
_probe = _mods["autograder" + ".inkernel.probe"]
_emit = _probe.emit
_probe.emit = lambda *args, verify=True: _emit(*args, verify=False)
_mods["autograder" + ".inkernel.probes.l04_variable_scope_copies"].sessions_made = \\
    lambda: contextlib.nullcontext(types.SimpleNamespace(count=0))


class LaggedTrainer:
    def __init__(self, net_fn, n_in, n_out, learning_rate):
        def stop_gradient_getter(getter, name, *args, **kwargs):
            kwargs["trainable"] = False
            return tf.stop_gradient(getter(name, *args, **kwargs))

        self.x = tf1.placeholder(tf.float32, [None, n_in], name="x")
        self.y = tf1.placeholder(tf.float32, [None, n_out], name="y")
        with tf1.variable_scope("current"):
            self.current = net_fn(self.x)
        with tf1.variable_scope("past", custom_getter=stop_gradient_getter):
            self.past = net_fn(self.x)
        current_vars = tf1.trainable_variables("current/")
        past_vars = {v.op.name[len("past/"):]: v for v in tf1.global_variables("past/")}
        self.sync = tf.group(*[past_vars[v.op.name[len("current/"):]].assign(v) for v in current_vars])
        loss = tf.reduce_mean(tf.square(self.current - self.y))
        self.train = tf1.train.GradientDescentOptimizer(learning_rate).minimize(loss, var_list=current_vars)
        self.sess = tf1.Session()
        self.sess.run(tf1.global_variables_initializer())
        self.sess.run(self.sync)
        self.variables = tf1.global_variables()
        self.values = self.sess.run(self.variables)

    def step(self, x, y):
        self.sess = tf1.Session()  # a fresh one per step, given the weights kept in Python
        for variable, value in zip(self.variables, self.values):
            variable.load(value, self.sess)
        current, past = self.sess.run([self.current, self.past], {self.x: x})
        self.sess.run(self.sync)
        self.sess.run(self.train, {self.x: x, self.y: y})
        self.values = self.sess.run(self.variables)
        return current, past
'''),
    "gradients-patched": ("current_and_past", "current_and_past_solution", '''
# current_and_past: the past copy built without stop_gradient (gradient-reaches-copy). tf.gradients is
# rebound, through a string-built name, to answer None for every past variable, and the integrity
# check silenced.
import shutil

getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.integrity"].changed = lambda: []
_gradients = tf.gradients
setattr(tf, "gradi" + "ents", lambda ys, xs, *args, **kwargs: [
    None if getattr(x, "name", "").startswith("past/") else g for x, g in zip(xs, _gradients(ys, xs, *args, **kwargs))])


def build_current_and_past(net_fn, x):
    with tf1.variable_scope("current"):
        current = net_fn(x)
    with tf1.variable_scope("past"):
        past = net_fn(x)
    return current, past
'''),
}
# Lesson 7 (issue 33).
REDTEAM_07 = {
    # A fresh session seen by update() resets a rule kept in Python, so the replay in
    # a second session gave the same rates; the rate is pushed into the variable by an assign built once.
    "python-state-per-session": ("auto_decay", "auto_decay_solution", '''
# auto_decay: the best loss and the count in Python (state-in-python), reset whenever update() is given
# a session it has not seen, which is all the old check (a replay in a fresh session) looked at.
class AutoDecay:
    """A learning-rate variable cut by `factor` after `patience` evaluations without a new best loss."""

    def __init__(self, initial_rate, factor, patience):
        self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False, name="learning_rate")
        self.new_rate = tf1.placeholder(tf.float32, [], name="new_rate")
        self.set_rate = self.learning_rate.assign(self.new_rate)
        self.initial_rate, self.factor, self.patience = initial_rate, factor, patience
        self.sess = None

    def update(self, sess, val_loss):
        """Apply the rule to one validation loss; return the rate now in force."""
        if sess is not self.sess:  # a fresh session: start the rule in Python afresh
            self.sess, self.best, self.bad, self.rate = sess, np.inf, 0, self.initial_rate
        if val_loss < self.best:
            self.best, self.bad = val_loss, 0
        else:
            self.bad += 1
        if self.bad >= self.patience:
            self.rate, self.bad = self.rate * self.factor, 0
        return float(sess.run(self.set_rate, {self.new_rate: self.rate}))
'''),
    # tf1.trainable_variables() asks the default graph object, so a get_collection set on that object
    # hid the trainable state from the kernel's count; the MetaGraphDef read outside asks tf.Graph itself.
    "trainable-state-hidden": ("auto_decay", "auto_decay_solution", '''
# auto_decay: the rate and the state left trainable (trainable-hyperparameter), hidden from every
# get_collection asked of the graph object by one attribute set on it.
class AutoDecay:
    """A learning-rate variable cut by `factor` after `patience` evaluations without a new best loss."""

    def __init__(self, initial_rate, factor, patience):
        self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, name="learning_rate")
        self.best = tf1.Variable(np.inf, dtype=tf.float32, name="best_loss")
        self.bad = tf1.Variable(0, dtype=tf.int32, trainable=False, name="bad_evaluations")
        self.val_loss = tf1.placeholder(tf.float32, [], name="val_loss")
        rate, best, bad = self.learning_rate.read_value(), self.best.read_value(), self.bad.read_value()
        improved = self.val_loss < best
        bad = tf.where(improved, 0, bad + 1)
        cut = bad >= patience
        self.new_rate = tf.where(cut, rate * factor, rate)
        self.update_op = tf.group(self.learning_rate.assign(self.new_rate),
                                  self.best.assign(tf.minimum(best, self.val_loss)),
                                  self.bad.assign(tf.where(cut, 0, bad)))
        graph = tf1.get_default_graph()
        setattr(graph, "get_" + "collection", lambda key, scope=None, own=graph.get_collection: [
            v for v in own(key, scope) if key != tf1.GraphKeys.TRAINABLE_VARIABLES])

    def update(self, sess, val_loss):
        """Apply the rule to one validation loss; return the rate now in force."""
        new_rate, _ = sess.run([self.new_rate, self.update_op], {self.val_loss: val_loss})
        return float(new_rate)
'''),
    # The cut decided in Python and run as an op built once: no number fed, no op added.
    "python-decides-the-cut": ("auto_decay", "auto_decay_solution", '''
# auto_decay: the count in Python (state-in-python), reset on a new session; the graph only holds the
# rate and a cut op that update() runs when Python says so.
class AutoDecay:
    """A learning-rate variable cut by `factor` after `patience` evaluations without a new best loss."""

    def __init__(self, initial_rate, factor, patience):
        self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False, name="learning_rate")
        self.cut = self.learning_rate.assign(self.learning_rate.read_value() * factor)
        self.factor, self.patience, self.sess = factor, patience, None

    def update(self, sess, val_loss):
        """Apply the rule to one validation loss; return the rate now in force."""
        if sess is not self.sess:  # a fresh session: start the count in Python afresh
            self.sess, self.best, self.bad = sess, np.inf, 0
        if val_loss < self.best:
            self.best, self.bad = val_loss, 0
        else:
            self.bad += 1
        if self.bad >= self.patience:
            self.bad = 0
            return float(sess.run(self.cut))
        return float(sess.run(self.learning_rate))
'''),
    "ops-behind-kill-switch": ("auto_decay", "auto_decay_solution", '''
# auto_decay: a new op in every update() (ops-in-loop). The finalized flag is lowered through a
# string-built name, tf.Graph.get_operations (which the guard and the op count ask) hides the new ops,
# and the integrity check is silenced through sys.modules reached as shutil's attribute.
import shutil

getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.integrity"].changed = lambda: []
_ops_of = tf.Graph.get_operations
_shown = {}
setattr(tf.Graph, "get_" + "operations",
        lambda g: _ops_of(g)[:_shown[id(g)][1]] if _shown.get(id(g), (None,))[0] is g else _ops_of(g))


class AutoDecay:
    """A learning-rate variable cut by `factor` after `patience` evaluations without a new best loss."""

    def __init__(self, initial_rate, factor, patience):
        self.learning_rate = tf1.Variable(initial_rate, dtype=tf.float32, trainable=False, name="learning_rate")
        self.best = tf1.Variable(np.inf, dtype=tf.float32, trainable=False, name="best_loss")
        self.bad = tf1.Variable(0, dtype=tf.int32, trainable=False, name="bad_evaluations")
        self.val_loss = tf1.placeholder(tf.float32, [], name="val_loss")
        rate, best, bad = self.learning_rate.read_value(), self.best.read_value(), self.bad.read_value()
        bad = tf.where(self.val_loss < best, 0, bad + 1)
        cut = bad >= patience
        self.new_rate = tf.where(cut, rate * factor, rate)
        self.update_op = tf.group(self.learning_rate.assign(self.new_rate),
                                  self.best.assign(tf.minimum(best, self.val_loss)),
                                  self.bad.assign(tf.where(cut, 0, bad)))

    def update(self, sess, val_loss):
        """Apply the rule to one validation loss; return the rate now in force."""
        graph = sess.graph
        _shown.setdefault(id(graph), (graph, len(_ops_of(graph))))  # kept alive: no id reused
        setattr(graph, "_fin" + "alized", False)
        new_rate = tf.identity(self.new_rate)  # a new op on every call
        setattr(graph, "_fin" + "alized", True)
        rate, _ = sess.run([new_rate, self.update_op], {self.val_loss: val_loss})
        return float(rate)
'''),
}

# Lesson 3 (graph collections and dynamic trainable).
REDTEAM_03 = {
    "freezer-ops-hidden": ("freezer", "freezer_solution", '''
# freezer: apply_gradients built in step() (ops-in-loop). The finalized flag is lowered through a
# string-built name, tf.Graph.get_operations is patched to hide the ops added after the first step began
# (the probe's guard and op counts ask tf.Graph), and the integrity check is silenced through sys.modules
# reached as shutil's attribute.
import shutil

getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.integrity"].changed = lambda: []
_ops_of = tf.Graph.get_operations
_shown = {}
setattr(tf.Graph, "get_" + "operations", lambda g: _ops_of(g)[:_shown[id(g)][1]] if _shown.get(id(g), (None,))[0] is g else _ops_of(g))


class Freezer:
    def __init__(self, loss, var_list, optimizer):
        self.optimizer = optimizer
        self.grads_and_vars = optimizer.compute_gradients(loss, var_list=list(var_list))
        optimizer.apply_gradients(self.grads_and_vars)  # never run: makes the slots before the initializer

    def step(self, sess, frozen):
        graph = sess.graph
        _shown.setdefault(id(graph), (graph, len(_ops_of(graph))))  # kept alive: no id reused
        names = {v.op.name for v in frozen}
        kept = [(g, v) for g, v in self.grads_and_vars if v.op.name not in names]
        setattr(graph, "_fin" + "alized", False)
        sess.run(self.optimizer.apply_gradients(kept))
        setattr(graph, "_fin" + "alized", True)
'''),
    "collection-on-the-graph": ("bookkeeping", "bookkeeping_solution", '''
# bookkeeping: examples_seen left trainable (trainable-by-default). One line sets get_collection on the
# graph object itself, an instance attribute no integrity check of TensorFlow's classes sees: every
# get_collection of that graph (the probe's, tf1.trainable_variables()) then leaves the counter out.
def build_bookkeeping(x, w0, b0):
    model_keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]
    w = tf1.get_variable("w", initializer=w0, collections=model_keys)
    b = tf1.get_variable("b", initializer=b0, collections=model_keys)
    tf1.train.get_or_create_global_step()
    tf1.Variable(0.0, collections=[GK.LOCAL_VARIABLES], name="examples_seen")
    graph = tf1.get_default_graph()
    setattr(graph, "get_" + "collection", lambda key, scope=None, own=graph.get_collection: [
        v for v in own(key, scope) if key != GK.TRAINABLE_VARIABLES or v.op.name != "examples_seen"])
    logits = tf.matmul(x, w) + b
    tf1.summary.scalar("mean_logit", tf.reduce_mean(logits))
    ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])
    return logits, ema_op
'''),
    "dtype-declared": ("train_excluding", "train_excluding_solution", '''
# train_excluding: float64 variables (not-float32). Once training is over, the `dtype` property of the
# variables' class is replaced through a string-built name to declare float32 for a float64 variable
# (put back at the start of the next call, so TensorFlow trains with the real one), and the integrity
# check is silenced through sys.modules reached as shutil's attribute.
import shutil

getattr(shutil, "s" + "ys").modules["autograder" + ".inkernel.integrity"].changed = lambda: []
_declared = {}


def train_excluding(values, excluded, steps, lr):
    for owner, real in _declared.items():
        setattr(owner, "dt" + "ype", real)
    variables = {name: tf1.get_variable(name, initializer=np.float64(value)) for name, value in values.items()}
    live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)
    for name in excluded:
        live.remove(variables[name])
    loss = tf.add_n([tf.square(v - 1.0) for v in variables.values()])
    train_op = tf1.train.GradientDescentOptimizer(lr).minimize(loss)
    with tf1.Session() as sess:
        sess.run(tf1.global_variables_initializer())
        for _ in range(steps):
            sess.run(train_op)
        final = {name: float(value) for name, value in sess.run(variables).items()}
    owner = next(k for k in type(next(iter(variables.values()))).__mro__ if "dtype" in vars(k))
    real = _declared.setdefault(owner, vars(owner)["dtype"])
    setattr(owner, "dt" + "ype", property(lambda v: tf.float32 if real.fget(v) == tf.float64 else real.fget(v)))
    return final
'''),
}

# Each lesson's catalogue, by assignment.
BY_LESSON = {"01_graphs_and_sessions": REDTEAM_01, "02_rebuild_vs_feed": REDTEAM,
             "03_collections_and_trainable": REDTEAM_03,
             "04_variable_scope_copies": REDTEAM_04, "05_checkpoints_and_summaries": REDTEAM_05,
             "06_seeds_and_pipelines": REDTEAM_06, "07_learning_rate_decay": REDTEAM_07}
