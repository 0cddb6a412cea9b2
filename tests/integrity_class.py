"""A class with known copies, for the integrity view's precision and recall (tests/test_report.py,
bench/similarity_baseline.py).

Fifteen students hand in lessons 01 and 03. Honest students build each answer from their own
choices (per statement, a few ways to write it, each taken by several students), in their own
style (`tf1.` or `tf.compat.v1.`, returning an expression or a named result) with a scratch cell of
their own; two of them (`IDIOMS`) converge on the same short answers. In each lesson six students
copy another's notebook, one of each kind (`KINDS`): exact, renamed identifiers, exercises
reordered with new comments and docstrings, loops turned into comprehensions, one exercise copied,
and a dead short line padded before every statement. In lesson 01 `LEAKER` hands in the solution
with its locals renamed. Result records go with the notebooks: copies fail where their original
fails, with the same observations; honest students fail common mistakes the common way.
"""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import nbformat

from autograder import COURSE_ROOT
from autograder.course import lessons
from autograder.judging.grading import notebook_hash

LESSONS = ("01_graphs_and_sessions", "03_collections_and_trainable")
STUDENTS = tuple(f"s{i:02d}" for i in range(1, 16))
KINDS = ("exact", "renamed", "reordered", "comprehensions", "one exercise", "padded")
COPIES = {  # lesson -> (original, copier) per kind
    LESSONS[0]: dict(zip(KINDS, [("s01", "s07"), ("s02", "s08"), ("s03", "s09"), ("s04", "s10"), ("s05", "s11"),
                                 ("s06", "s12")])),
    LESSONS[1]: dict(zip(KINDS, [("s02", "s14"), ("s03", "s15"), ("s05", "s09"), ("s06", "s13"), ("s10", "s01"),
                                 ("s11", "s04")])),
}
LEAKER = "s13"  # lesson 01: the solution, locals renamed
IDIOMS = ("s14", "s15")  # honest, the same short answers in lesson 01
ONE_EXERCISE = {LESSONS[0]: "kept_and_dropped", LESSONS[1]: "train_excluding"}

# Per exercise symbol: its lines, each a fixed line or a list of ways to write it (a student picks one).
FUNCTIONS = {
    "count_ops_by_type": [[
        "counts = {}\nfor op in graph.get_operations():\n    counts[op.type] = counts.get(op.type, 0) + 1\nreturn counts",
        "types = [op.type for op in graph.get_operations()]\nreturn {t: types.count(t) for t in set(types)}",
        "return dict(collections.Counter(o.type for o in graph.get_operations()))",
        "result = collections.defaultdict(int)\nfor op in graph.get_operations():\n    result[op.type] += 1\nreturn dict(result)"]],
    "input_op_names": [[
        "op = graph.get_operation_by_name(name)\nnames = []\nfor t in op.inputs:\n    names.append(t.op.name)\nreturn names",
        "return [t.op.name for t in graph.get_operation_by_name(name).inputs]",
        "node = graph.get_operation_by_name(name)\nreturn [inp.name.split(':')[0] for inp in node.inputs]",
        "op = graph.get_operation_by_name(name)\nreturn list(map(lambda t: t.op.name, op.inputs))"]],
    "evaluate": [
        ["sess = session or tf1.get_default_session()",
         "sess = session if session is not None else tf1.get_default_session()",
         "if session is None:\n    session = tf1.get_default_session()\nsess = session"],
        ["if sess is None:\n    raise ValueError('no session')", "if not sess:\n    raise ValueError('need a default session')",
         "if sess is None:\n    raise ValueError('evaluate() needs a session')"],
        ["return sess.run(list(tensors))", "values = sess.run([t for t in tensors])\nreturn list(values)",
         "return list(sess.run(tensors))"]],
    "kept_and_dropped": [
        ["x = tf.constant(x, tf.float32)", "x = tf.convert_to_tensor(x, dtype=tf.float32)", "x = tf.cast(x, tf.float32)"],
        ["mask = tf.random.uniform(tf.shape(x), seed=seed) < keep",
         "u = tf.random.uniform(tf.shape(x), seed=seed)\nmask = tf.less(u, keep)"],
        ["zeros = tf.zeros_like(x)", "zeros = tf.zeros(tf.shape(x))", "zeros = 0.0 * x"],
        ["kept = tf.where(mask, x, zeros)\ndropped = tf.where(mask, zeros, x)",
         "m = tf.cast(mask, tf.float32)\nkept = x * m\ndropped = x * (1.0 - m)",
         "kept = tf.where(mask, x, zeros)\ndropped = x - kept"],
        ["with tf1.Session() as sess:\n    k, d = sess.run([kept, dropped])\nreturn k, d",
         "sess = tf1.Session()\nresult = sess.run((kept, dropped))\nsess.close()\nreturn result[0], result[1]",
         "with tf1.Session() as s:\n    return tuple(s.run([kept, dropped]))"]],
    "RunningTotal": [
        "def __init__(self):",
        ["    self.total = tf1.Variable(0.0, dtype=tf.float32)",
         "    self.total = tf1.get_variable('total', initializer=0.0, dtype=tf.float32)",
         "    self.total = tf1.Variable(tf.zeros([], tf.float32), trainable=False)"],
        ["    self.value = tf1.placeholder(tf.float32, [])", "    self.value = tf1.placeholder(tf.float32, shape=())",
         "    self.value = tf1.placeholder(dtype=tf.float32)"],
        ["    self.add_op = self.total.assign_add(self.value)", "    self.add_op = tf1.assign_add(self.total, self.value)",
         "    self.add_op = self.total.assign(self.total + self.value)"],
        ["    self.sess = tf1.Session()\n    self.sess.run(self.total.initializer)",
         "    self.sess = tf1.Session()\n    self.sess.run(tf1.global_variables_initializer())",
         "    self.sess = tf1.Session()\n    self.sess.run(tf1.variables_initializer([self.total]))"],
        "def add(self, value):",
        ["    return float(self.sess.run(self.add_op, {self.value: value}))",
         "    out = self.sess.run(self.add_op, feed_dict={self.value: value})\n    return float(out)",
         "    return float(self.sess.run(self.add_op, feed_dict={self.value: value}))"]],
    "build_bookkeeping": [
        ["keys = [GK.GLOBAL_VARIABLES, GK.MODEL_VARIABLES]",
         "keys = [tf1.GraphKeys.GLOBAL_VARIABLES, tf1.GraphKeys.MODEL_VARIABLES]"],
        ["w = tf1.get_variable('w', initializer=w0, collections=keys)\nb = tf1.get_variable('b', initializer=b0, collections=keys)",
         "w, b = (tf1.get_variable(n, initializer=v, collections=keys) for n, v in (('w', w0), ('b', b0)))",
         "w = tf1.get_variable(name='w', initializer=w0, collections=keys, trainable=True)\n"
         "b = tf1.get_variable(name='b', initializer=b0, collections=keys, trainable=True)"],
        ["tf1.train.get_or_create_global_step()", "tf1.train.create_global_step()"],
        ["tf1.get_local_variable('examples_seen', initializer=0.0)",
         "tf1.get_variable('examples_seen', initializer=0.0, trainable=False, collections=[GK.LOCAL_VARIABLES])",
         "tf1.Variable(0.0, name='examples_seen', trainable=False, collections=[GK.LOCAL_VARIABLES])"],
        ["logits = tf.matmul(x, w) + b", "logits = tf.add(tf.matmul(x, w), b)", "logits = x @ w + b"],
        ["tf1.summary.scalar('mean_logit', tf.reduce_mean(logits))",
         "mean = tf.reduce_mean(logits)\ntf1.summary.scalar('mean_logit', mean)"],
        ["ema = tf1.train.ExponentialMovingAverage(0.99)\nreturn logits, ema.apply([w, b])",
         "ema_op = tf1.train.ExponentialMovingAverage(decay=0.99).apply([w, b])\nreturn logits, ema_op",
         "averager = tf1.train.ExponentialMovingAverage(decay=0.99)\nupdate = averager.apply(var_list=[w, b])\n"
         "return logits, update"]],
    "train_excluding": [
        ["variables = {}\nfor name, value in values.items():\n    variables[name] = tf1.get_variable(name, initializer=np.float32(value))",
         "variables = {n: tf1.get_variable(n, initializer=np.float32(v)) for n, v in values.items()}",
         "variables = {n: tf1.Variable(np.float32(v), name=n) for n, v in values.items()}"],
        ["live = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)\nfor name in excluded:\n    live.remove(variables[name])",
         "coll = tf1.get_collection_ref(tf1.GraphKeys.TRAINABLE_VARIABLES)\n"
         "coll[:] = [v for v in coll if v not in [variables[n] for n in excluded]]",
         "trainables = tf1.get_collection_ref(GK.TRAINABLE_VARIABLES)\nfor v in [variables[n] for n in excluded]:\n"
         "    trainables.remove(v)"],
        ["loss = tf.add_n([tf.square(v - 1.0) for v in variables.values()])",
         "loss = sum((v - 1.0) ** 2 for v in variables.values())",
         "terms = []\nfor v in variables.values():\n    terms.append(tf.square(v - 1.0))\nloss = tf.add_n(terms)"],
        ["train_op = tf1.train.GradientDescentOptimizer(lr).minimize(loss)",
         "opt = tf1.train.GradientDescentOptimizer(learning_rate=lr)\ntrain_op = opt.minimize(loss)"],
        ["with tf1.Session() as sess:\n    sess.run(tf1.global_variables_initializer())\n    for _ in range(steps):\n"
         "        sess.run(train_op)\n    return {n: float(v) for n, v in sess.run(variables).items()}",
         "sess = tf1.Session()\nsess.run(tf1.global_variables_initializer())\nfor step in range(steps):\n"
         "    sess.run(train_op)\nout = {}\nfor n in variables:\n    out[n] = float(sess.run(variables[n]))\nreturn out"]],
    "dense_with_decay": [
        ["with tf1.variable_scope(name):\n    w = tf1.get_variable('w', initializer=w0)\n    b = tf1.get_variable('b', initializer=b0)",
         "scope = tf1.variable_scope(name)\nwith scope:\n    w = tf1.get_variable(name='w', initializer=w0)\n"
         "    b = tf1.get_variable(name='b', initializer=b0)"],
        ["tf1.add_to_collection('losses', decay * tf.nn.l2_loss(w))",
         "penalty = tf.multiply(decay, tf.nn.l2_loss(w))\ntf1.add_to_collection(tf1.GraphKeys.LOSSES, penalty)",
         "tf1.add_to_collection('losses', tf.nn.l2_loss(w) * decay)"],
        ["return tf.matmul(x, w) + b", "y = tf.matmul(x, w)\nreturn y + b", "return tf.nn.bias_add(tf.matmul(x, w), b)"]],
    "Freezer": [
        "def __init__(self, loss, var_list, optimizer):",
        ["    self.var_list = list(var_list)", "    self.var_list = [v for v in var_list]"],
        ["    grads = optimizer.compute_gradients(loss, var_list=self.var_list)",
         "    grads = list(zip(tf.gradients(loss, self.var_list), self.var_list))"],
        ["    self.ops = {}\n    for k in range(len(self.var_list)):\n"
         "        for frozen in itertools.combinations(self.var_list, k):\n"
         "            key = frozenset(v.op.name for v in frozen)\n"
         "            self.ops[key] = optimizer.apply_gradients([(g, v) for g, v in grads if v.op.name not in key])",
         "    self.ops = {}\n    names = [v.op.name for v in self.var_list]\n    for mask in range(2 ** len(names) - 1):\n"
         "        key = frozenset(n for i, n in enumerate(names) if mask >> i & 1)\n"
         "        pairs = [(g, v) for g, v in grads if v.op.name not in key]\n"
         "        self.ops[key] = optimizer.apply_gradients(pairs)"],
        "def step(self, sess, frozen):",
        ["    sess.run(self.ops[frozenset(v.op.name for v in frozen)])",
         "    key = frozenset(v.op.name for v in frozen)\n    sess.run(self.ops[key])"]],
    "train_layers": [
        ["optimizer = tf.keras.optimizers.Adam(lr)\noptimizer.build(model.trainable_variables)",
         "optimizer = tf.keras.optimizers.Adam(learning_rate=lr)\noptimizer.build(model.trainable_variables)"],
        ["losses = []\nfor frozen in frozen_per_step:\n    for layer in model.layers:\n"
         "        layer.trainable = layer.name not in frozen\n    variables = model.trainable_variables\n"
         "    with tf.GradientTape() as tape:\n        loss = tf.reduce_mean(tf.square(model(x) - y))\n"
         "    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))\n"
         "    losses.append(float(loss))\nreturn losses",
         "history = []\nfor step, frozen in enumerate(frozen_per_step):\n    for layer in model.layers:\n"
         "        layer.trainable = not (layer.name in frozen)\n    with tf.GradientTape() as tape:\n"
         "        pred = model(x)\n        loss = tf.reduce_mean((pred - y) ** 2)\n"
         "    grads = tape.gradient(loss, model.trainable_variables)\n"
         "    optimizer.apply_gradients(zip(grads, model.trainable_variables))\n"
         "    history.append(float(loss.numpy()))\nreturn history"]],
}
CLASSES = ("RunningTotal", "Freezer")
LOOPS = {  # the loops of FUNCTIONS, as the comprehensions a copier rewrites them into
    "names = []\nfor t in op.inputs:\n    names.append(t.op.name)\nreturn names":
        "names = [t.op.name for t in op.inputs]\nreturn names",
    "terms = []\nfor v in variables.values():\n    terms.append(tf.square(v - 1.0))\nloss = tf.add_n(terms)":
        "terms = [tf.square(v - 1.0) for v in variables.values()]\nloss = tf.add_n(terms)",
    "variables = {}\nfor name, value in values.items():\n    variables[name] = tf1.get_variable(name, initializer=np.float32(value))":
        "variables = {name: tf1.get_variable(name, initializer=np.float32(value)) for name, value in values.items()}",
}
LOOPED = {  # which way (index) of which line holds a loop, for the originals of the comprehension copies
    "input_op_names": {0: 0}, "train_excluding": {0: 0, 2: 2}}
PADS = ("_ = 0", "pass", "print('.')", "pad = 1")


def _indent(text: str, by: str) -> str:
    return "\n".join(by + line if line.strip() else line for line in text.split("\n"))


def _answer(symbol: str, header: str, rng: random.Random, style: dict[str, Any], forced: dict[int, int]) -> tuple[str, list[int]]:
    """A student's definition of `symbol` under `header` (the release's), and the ways picked."""
    picks, body = [], []
    for i, line in enumerate(FUNCTIONS[symbol]):
        if isinstance(line, str):
            body.append(line)
            continue
        pick = forced.get(i, rng.randrange(len(line)))
        picks.append(pick)
        body.append(line[pick])
    text = "\n".join(body)
    if style["named_result"]:  # `return f(x)` as `result = f(x)` then `return result`
        text = re.sub(r"^(\s*)return (?!result\b)(.+)$", r"\1result = \2\n\1return result", text, flags=re.M)
    if style["long_v1"]:
        text = text.replace("tf1.", "tf.compat.v1.")
    return header + "\n" + _indent(text, "    "), picks


def _definitions(lesson: str) -> dict[str, tuple[str, str]]:
    """symbol -> (grade_id of its answer cell, its head: the signature and docstring of a function,
    the first line of a class), from the release."""
    found = {}
    symbols = {e.symbol for e in lessons.load(lesson).exercises}
    for cell in _release(lesson).cells:
        if not cell.metadata.get("nbgrader", {}).get("solution"):
            continue
        first = cell.source.split("\n", 1)[0]
        for symbol in symbols:
            if first.startswith((f"def {symbol}(", f"class {symbol}")):
                head = cell.source.split("    # YOUR CODE HERE")[0].rstrip() if symbol not in CLASSES else first
                found[symbol] = (cell.metadata["nbgrader"]["grade_id"], head)
    return found


def _release(lesson: str) -> nbformat.NotebookNode:
    return nbformat.read(COURSE_ROOT / "notebooks" / lesson / lessons.load(lesson).notebook, 4)


def _scratch(rng: random.Random) -> str:
    """A student's own try-out cell: their numbers, their names (which do not count)."""
    a, b, c = rng.randint(2, 90), rng.randint(2, 90), round(rng.uniform(0.1, 0.9), 2)
    return (f"with tf.Graph().as_default() as g{a}:\n    x = tf.constant([{a}.0, {b}.0, {a + b}.0])\n"
            f"    y = tf.reduce_sum(x * {c}) + {b}\n    z = tf.maximum(y, {a % 7})\n"
            f"    with tf1.Session() as s:\n        values = s.run([y, z])\nassert len(values) == 2")


def _honest(lesson: str, student: str, seed: int) -> dict[str, str]:
    """grade_id -> source of an honest student's answers, plus their scratch cell."""
    rng = random.Random(f"{seed}-{lesson}-{student}")
    style = {"named_result": rng.random() < 0.5, "long_v1": rng.random() < 0.35}
    idiom = student in IDIOMS and lesson == LESSONS[0]
    looped = {orig for kind, (orig, _) in COPIES[lesson].items() if kind == "comprehensions"}
    cells = {}
    for symbol, (grade_id, header) in _definitions(lesson).items():
        forced = LOOPED.get(symbol, {}) if student in looped else {}
        if idiom and symbol in ("count_ops_by_type", "input_op_names"):
            forced, style = {0: 1}, {"named_result": False, "long_v1": False}
        cells[grade_id], _ = _answer(symbol, header, rng, style, forced)
    cells["scratch"] = _scratch(rng)
    return cells


def _solution(lesson: str) -> dict[str, str]:
    solution = nbformat.read(COURSE_ROOT / "solutions" / lesson / lessons.load(lesson).notebook, 4)
    return {c.metadata["nbgrader"]["grade_id"]: "\n".join(
        line for line in c.source.split("\n") if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
        for c in solution.cells if c.metadata.get("nbgrader", {}).get("solution")}


RENAMES = {"op": "operation", "names": "result_names", "t": "tensor_", "counts": "tally", "types": "kinds",
           "sess": "session_", "mask": "keep_mask", "zeros": "nothing", "kept": "kept_part", "dropped": "gone",
           "u": "noise", "m": "float_mask", "k": "kv", "d": "dv", "result": "answer", "keys": "collections_",
           "logits": "scores", "ema": "averages", "ema_op": "average_op", "variables": "var_map", "live": "trainable_now",
           "loss": "objective", "train_op": "step_op", "grads": "gradients_", "node": "the_op", "values": "values",
           "w": "weights", "b": "bias", "model_keys": "kinds_of_keys", "tensor": "tensor_", "kept_value": "k_val",
           "dropped_value": "d_val", "frozen": "frozen_now", "losses": "loss_history", "terms": "parts"}


def _renamed(source: str, skip: tuple[str, ...] = ()) -> str:
    """`source` with its local names changed (not attributes, not keyword arguments, not `skip`)."""
    names = [n for n in RENAMES if n not in skip and RENAMES[n] != n]
    return re.sub(r"(?<![.\w])(%s)\b(?!=[^=])" % "|".join(names), lambda m: RENAMES[m.group(1)], source) if names else source


def _padded(source: str) -> str:
    """A dead short line before every statement, at its indentation."""
    out, lines, in_string = [], source.split("\n"), False
    for i, line in enumerate(lines):
        opens = i and lines[i - 1].rstrip().endswith(("(", ",", "\\", "["))
        if line.strip() and not opens and not in_string and not line.strip().startswith(("else", "elif", "except", "finally")):
            out.append(re.match(r"\s*", line).group() + PADS[i % len(PADS)])
        in_string ^= line.count('"""') % 2 == 1
        out.append(line)
    return "\n".join(out)


def _disguise(kind: str, lesson: str, original: dict[str, str], own: dict[str, str]) -> dict[str, str]:
    """A copier's cells, made from the original's as `kind` says."""
    if kind == "exact":
        return dict(original)
    if kind == "renamed":
        return {g: _renamed(s) for g, s in original.items()}
    if kind == "comprehensions":
        copied = dict(original)
        for loop, comprehension in LOOPS.items():
            copied = {g: s.replace(_indent(loop, "    "), _indent(comprehension, "    ")) for g, s in copied.items()}
        return copied
    if kind == "one exercise":
        grade_id = _definitions(lesson)[ONE_EXERCISE[lesson]][0]
        return {**own, grade_id: original[grade_id]}
    if kind == "padded":
        return {g: _padded(s) for g, s in original.items()}
    # reordered: each answer in another exercise's cell, docstrings and comments of one's own
    ids = [g for g in original if g != "scratch"]
    moved = {new: original[old] for new, old in zip(ids, ids[::-1])}
    moved = {g: "# my own work, reordered\n" + re.sub(r'"""[\s\S]*?"""', '"""Written from scratch, tested."""', s, count=1)
             for g, s in moved.items()}
    return {**moved, "scratch": "# trying it out\n" + original["scratch"]}


def class_cells(seed: int = 5) -> dict[str, dict[str, dict[str, str]]]:
    """lesson -> student -> grade_id -> the source they hand in (`scratch` is a cell of their own)."""
    handed = {}
    for lesson in LESSONS:
        honest = {s: _honest(lesson, s, seed) for s in STUDENTS}
        mine = dict(honest)
        for kind, (original, copier) in COPIES[lesson].items():
            mine[copier] = _disguise(kind, lesson, honest[original], honest[copier])
        if lesson == LESSONS[0]:
            mine[LEAKER] = {**{g: _renamed(s) for g, s in _solution(lesson).items()}, "scratch": honest[LEAKER]["scratch"]}
        handed[lesson] = mine
    return handed


def true_pairs() -> set[tuple[str, str, str]]:
    """(lesson, a, b), names sorted: the copies; and (lesson, LEAKER, "the solution")."""
    pairs = {(lesson, *sorted(pair)) for lesson, kinds in COPIES.items() for pair in kinds.values()}
    return pairs | {(LESSONS[0], LEAKER, "the solution")}


def _notebook(lesson: str, cells: dict[str, str]) -> nbformat.NotebookNode:
    nb = _release(lesson)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in cells:
            cell.source = cells[grade_id]
    nb.cells.append(nbformat.v4.new_code_cell(cells["scratch"], id="scratch"))
    return nb


def _records(lesson: str, handed: dict[str, dict[str, str]], seed: int) -> dict[str, dict[str, Any]]:
    """Result records as the grader writes them: honest students fail the commonest mistakes the
    common way, or a way of their own; copiers fail where their original fails, the same way."""
    lesson_ = lessons.load(lesson)
    records = {}
    for student in STUDENTS:
        rng = random.Random(f"{seed}-records-{lesson}-{student}")
        exercises, observed = [], {}
        for e in lesson_.exercises:
            passed = student == LEAKER and lesson == LESSONS[0] or rng.random() < 0.6
            wrong = None if passed else rng.choices(range(len(e.checks)), [3] + [1] * (len(e.checks) - 1))[0]
            common = rng.random() < 0.7
            outcomes = [{"id": c.id, "title": c.title, "message": "", "passed": wrong is None or i < wrong,
                         "judged": wrong is None or i <= wrong, "case": "" if wrong != i else "hidden 1",
                         "situation": ""} for i, c in enumerate(e.checks)]
            exercises.append({"id": e.id, "points": e.points if passed else 0, "max_points": e.points,
                              "passed": passed, "outcomes": outcomes})
            observed[e.id] = ["right"] if passed else [f"{e.id}-{wrong}" + ("" if common else f"-{student}")]
        records[student] = {"student": student, "assignment": lesson, "notebook": lesson_.notebook,
                            "status": "graded", "reason": "", "score": sum(x["points"] for x in exercises),
                            "max_score": lesson_.max_score, "exercises": exercises, "observed": observed}
    for kind, (original, copier) in COPIES[lesson].items():
        copied = [e.id for e in lesson_.exercises if kind != "one exercise" or e.symbol == ONE_EXERCISE[lesson]]
        mine, theirs = records[copier], records[original]
        mine["exercises"] = [next(x for x in theirs["exercises"] if x["id"] == e["id"]) if e["id"] in copied else e
                             for e in mine["exercises"]]
        mine["observed"] = {**mine["observed"], **{e: theirs["observed"][e] for e in copied}}
        mine["score"] = sum(x["points"] for x in mine["exercises"])
    return records


def write_integrity_class(submissions: Path, seed: int = 5) -> list[dict[str, Any]]:
    """Write every notebook under `submissions/<student>/<lesson>/` and return the result records."""
    records = []
    for lesson, handed in class_cells(seed).items():
        mine = _records(lesson, handed, seed)
        for student, cells in handed.items():
            folder = submissions / student / lesson
            folder.mkdir(parents=True, exist_ok=True)
            data = nbformat.writes(_notebook(lesson, cells)).encode()
            (folder / lessons.load(lesson).notebook).write_bytes(data)
            records.append({**mine[student], "notebook_sha256": notebook_hash(data)})
    return records


def scores(listed: set[tuple[str, str, str]]) -> tuple[float, float, set, set]:
    """Precision, recall, the copies missed and the false flags of `listed` (lesson, a, b) triples."""
    truth = true_pairs()
    found = listed & truth
    return (len(found) / len(listed) if listed else 1.0, len(found) / len(truth), truth - listed, listed - truth)
