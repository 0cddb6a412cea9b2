"""Forgeries a red team wrote against lesson 2 with the grader's source in hand (issue 33), kept as
a catalogue: each rests on a route no static screen reads (names built from strings, module and
instance attributes set, closures read), or on no patch at all (an answer laundered through a run,
a graph of its own, a captured session constructor), and needs no construct the screen zeroes. What stops each
is a verdict on artifacts re-run outside the kernel on hidden values the kernel never saw
(`autograder.course.history`), or an observation of the objects themselves instead of a tally.

Each entry: name -> (exercise, the solution cell it replaces, its source), in the dict of its lesson
(`BY_LESSON`).
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

BY_LESSON = {"02_rebuild_vs_feed": REDTEAM, "07_learning_rate_decay": REDTEAM_07}
