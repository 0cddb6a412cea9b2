"""Forgeries a red team wrote against lesson 2 with the grader's source in hand (issue 33), kept as
a catalogue: each rests on a route no static screen reads (names built from strings, module and
instance attributes set, closures read), or on no patch at all (an answer laundered through a run,
a graph of its own, a captured session constructor), and needs no construct the screen zeroes. What stops each
is a verdict on artifacts re-run outside the kernel on hidden values the kernel never saw
(`autograder.course.history`), or an observation of the objects themselves instead of a tally.

Each entry: name -> (exercise, the solution cell it replaces, its source). `REDTEAM` holds lesson 2's;
`REDTEAM_BY_LESSON` maps each lesson's assignment to its own catalogue of the same shape.
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

# Lesson 3 (graph collections and dynamic trainable).
REDTEAM_L03 = {
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

REDTEAM_BY_LESSON = {"02_rebuild_vs_feed": REDTEAM, "03_collections_and_trainable": REDTEAM_L03}
