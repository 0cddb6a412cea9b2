"""Helpers the lessons' probes share: they run in the student's kernel, around the student's objects."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np


def close_session(obj: Any) -> None:
    """Close the session an exercise's object opened (as `sess` or `session`), if it has one."""
    session = getattr(obj, "sess", None) or getattr(obj, "session", None)
    if session is not None and hasattr(session, "close"):
        session.close()


class FinalizedGraphGuard:
    """`with guard:` ends its block quietly when the code in it tries to add an op to a finalized
    graph, and remembers it in `tripped`; any other error goes on up.

    It also counts the default graph's ops when the block starts and ends (through `tf.Graph`'s own
    method, not the object's): a graph that grew was modified, even if the code lowered the graph's
    finalized flag to do it, which the graph's error alone would never show."""

    def __init__(self) -> None:
        self.tripped = False

    def __enter__(self) -> "FinalizedGraphGuard":
        self._graph = _default_graph()
        self._ops = op_count(self._graph)
        return self

    def __exit__(self, kind, error, traceback) -> bool:
        grew = op_count(self._graph) != self._ops
        if kind is not None and issubclass(kind, RuntimeError) and "finalized" in str(error):
            self.tripped = True
            return True
        self.tripped = grew
        return False


def _default_graph() -> Any:
    from tensorflow.python.framework import ops

    return ops.get_default_graph()


def op_count(graph: Any) -> int:
    """How many ops `graph` holds, asked of `tf.Graph` itself: an attribute set on the object is ignored."""
    from tensorflow.python.framework import ops

    return len(ops.Graph.get_operations(graph))


class CallCounter:
    """`with CallCounter(owner, "name") as calls:` counts the calls of `owner.name` made inside the
    block (`calls.count`), then puts the original back. Probes use it to see state made per call:
    `CallCounter(tf_session.BaseSession, "__init__")` counts sessions, `CallCounter(tf, "function")`
    counts `tf.function` objects made while the block runs, `CallCounter(tf1.train.Saver, "__init__")`
    counts Savers."""

    def __init__(self, owner: Any, name: str) -> None:
        self.owner, self.name, self.count = owner, name, 0
        self._original = owner.__dict__[name] if isinstance(owner, type) else getattr(owner, name)

    def __enter__(self) -> "CallCounter":
        setattr(self.owner, self.name, self._wrap(self._original))
        return self

    def _wrap(self, original: Any) -> Any:
        """What stands in for `original` inside the block: here, a call that counts and passes on."""
        def counted(*args, **kwargs):
            self.count += 1
            return original(*args, **kwargs)

        return counted

    def __exit__(self, *exc_info) -> bool:
        setattr(self.owner, self.name, self._original)
        return False


def sessions_made() -> CallCounter:
    """A CallCounter of TF1 sessions (Session, InteractiveSession, MonitoredSession's inner one),
    counted where TensorFlow's C API makes one (`TF_NewSessionRef`, which every session's __init__
    calls), so that an `__init__` captured before the block counts too."""
    from tensorflow.python.client import pywrap_tf_session

    return CallCounter(pywrap_tf_session, "TF_NewSessionRef")


def dtype_name(value: Any) -> str:
    """The dtype of a tensor or variable (a TensorFlow type's own), of anything NumPy converts (what
    `np.asarray` finds, never what the object's `.dtype` declares), as a short name (`float32`); for a
    plain Python value, its type's name (`float`, `int`, `list`)."""
    import tensorflow as tf

    if isinstance(value, (tf.Tensor, tf.Variable, tf.Operation)) or type(value) in (int, float, bool, str, list,
                                                                                     tuple, dict, type(None)):
        dtype = getattr(value, "dtype", None)
        return dtype.base_dtype.name if dtype is not None else type(value).__name__
    try:
        return np.asarray(value).dtype.name
    except Exception:  # noqa: BLE001 - whatever NumPy cannot convert has no dtype to report
        return type(value).__name__


def export_graph(graph: Any, upstream_of: Sequence[Any] = ()) -> str:
    """The GraphDef of `graph`, serialized and base64-encoded: an artifact the grader re-runs outside
    the kernel (`engine.replay`) on inputs the kernel never sees. With `upstream_of` (ops), only those
    ops and every op they wait for: a graph whose other ops (summaries, functions) the grader's
    worker would refuse can still hand out the part that computes them."""
    import base64

    from tensorflow.core.framework import graph_pb2
    from tensorflow.python.framework import ops

    # asked of tf.Graph itself: an attribute set on the graph object is ignored
    graph_def = ops.Graph.as_graph_def(graph)
    if upstream_of:
        kept = {op.name for start in upstream_of for op in _upstream(start)}
        graph_def = graph_pb2.GraphDef(versions=graph_def.versions, node=[n for n in graph_def.node if n.name in kept])
    return base64.b64encode(graph_def.SerializeToString()).decode()


def export_collections(graph: Any, keys: Sequence[str]) -> str:
    """A MetaGraphDef of `graph` holding its GraphDef and the collections `keys`, serialized and
    base64-encoded: the grader reads the collections outside the kernel (`engine.meta_graph`). Both
    are asked of tf.Graph itself, so an attribute set on the graph object (a `get_collection` that
    leaves a variable out) is ignored."""
    import base64

    from tensorflow.core.protobuf import meta_graph_pb2
    from tensorflow.python.framework import meta_graph, ops

    exported = meta_graph_pb2.MetaGraphDef(graph_def=ops.Graph.as_graph_def(graph))
    for key in keys:
        items = ops.Graph.get_collection(graph, key)
        if items:  # add_collection_def would read an empty override through the graph object's method
            meta_graph.add_collection_def(exported, key, graph=graph, override_contents=items)
    return base64.b64encode(exported.SerializeToString()).decode()


# The files of a directory a probe hands out (checkpoints, their state file, event files), which the
# grader reads in its own worker (`engine.replay`): it refuses more files, more bytes, or other names.
MAX_FILES = 32
MAX_FILES_BYTES = 256 * 2**10
FILE_NAME = r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}"


def hand_out_files(directory: str) -> dict[str, str]:
    """The files directly in `directory` that the grader reads (not a Saver's `.meta` graphs),
    base64-encoded by name: artifacts read outside the kernel, never here. Files past the caps are
    left out (the grader then misses them); a missing directory hands out nothing."""
    import base64
    import os

    if not os.path.isdir(directory):
        return {}
    names = sorted(n for n in os.listdir(directory)
                   if not n.endswith(".meta") and os.path.isfile(os.path.join(directory, n)))
    files, total = {}, 0
    for name in names[:MAX_FILES]:
        with open(os.path.join(directory, name), "rb") as handle:
            data = handle.read(MAX_FILES_BYTES + 1)
        total += len(data)
        if total > MAX_FILES_BYTES:
            break
        files[name] = base64.b64encode(data).decode()
    return files


class FreshDirectory:
    """`with FreshDirectory() as where:` runs the block in a new empty working directory, then lists
    the files the block left there (`where.left`, relative paths, sorted), goes back to the
    directory it came from and deletes the new one. `where.path` is the directory."""

    def __enter__(self) -> "FreshDirectory":
        import os
        import tempfile

        self._previous = os.getcwd()
        self.path = tempfile.mkdtemp(prefix="probe-")
        self.left: list[str] = []
        os.chdir(self.path)
        return self

    def __exit__(self, *exc_info) -> bool:
        import os
        import shutil

        self.left = sorted(os.path.relpath(os.path.join(root, name), self.path)
                           for root, _, names in os.walk(self.path) for name in names)
        os.chdir(self._previous)
        shutil.rmtree(self.path, ignore_errors=True)
        return False


class InstancesMade(CallCounter):
    """`with InstancesMade(cls) as made:` counts the objects of `cls` (or of a subclass that does not
    override `__init__`) made inside the block, and keeps them in `made.instances`. Probes use it to
    reach the session an exercise opened, whatever attribute the student kept it under:
    `sessions_opened()` is `InstancesMade` of TF1's BaseSession."""

    def __init__(self, cls: type) -> None:
        super().__init__(cls, "__init__")
        self.instances: list[Any] = []

    def _wrap(self, original: Any) -> Any:
        def counted(obj, *args, **kwargs):
            self.count += 1
            self.instances.append(obj)
            return original(obj, *args, **kwargs)

        return counted


def sessions_opened() -> InstancesMade:
    """An InstancesMade of TF1 sessions: `made.instances` are the sessions opened in the block."""
    from tensorflow.python.client import session

    return InstancesMade(session.BaseSession)


class SessionRuns(CallCounter):
    """`with SessionRuns() as runs:` counts the runs of any session made inside the block: each
    `Session.run` call (`t.eval()` and `op.run()` go through it too) and each call of a callable that
    `Session.make_callable` returned, which runs the graph without `run`."""

    def __init__(self) -> None:
        from tensorflow.python.client import session

        super().__init__(session.BaseSession, "run")
        self._make_callable = session.BaseSession.__dict__["make_callable"]
        self._in_callable = 0  # a callable TensorFlow could not make fast calls `run` itself: one run

    def _wrap(self, original: Any) -> Any:
        def run(sess, fetches, feed_dict=None, *args, **kwargs):
            result = original(sess, fetches, feed_dict, *args, **kwargs)
            if not self._in_callable:
                self._ran(sess, fetches, list((feed_dict or {}).items()), result)
            return result

        return run

    def _ran(self, sess: Any, fetches: Any, feeds: list, result: Any) -> None:
        """One run of `sess` was made: `fetches` fed `feeds` (key, value pairs), returning `result`."""
        self.count += 1

    def __enter__(self) -> "SessionRuns":
        super().__enter__()
        original = self._make_callable

        def make_callable(sess, fetches, feed_list=None, *args, **kwargs):
            made = original(sess, fetches, feed_list, *args, **kwargs)

            def call(*fed, **call_kwargs):
                self._in_callable += 1
                try:
                    result = made(*fed, **call_kwargs)
                finally:
                    self._in_callable -= 1
                self._ran(sess, fetches, list(zip(feed_list or (), fed)), result)
                return result

            return call

        self.owner.make_callable = make_callable
        return self

    def __exit__(self, *exc_info) -> bool:
        self.owner.make_callable = self._make_callable
        return super().__exit__(*exc_info)


def session_runs() -> SessionRuns:
    """A counter of the runs sessions make: `Session.run` calls and calls of `make_callable`'s callables."""
    return SessionRuns()


@dataclass
class Run:
    """One recorded run: the graph it ran, what it was fed and what it returned, by tensor name."""

    graph: Any
    ops: int  # how many ops the graph held when it ran
    fed: list[tuple[str, Any]]  # (name, array)
    returned: list[tuple[str, Any]]  # (name of the fetch, array)
    session: int = 0  # which session of the block made it: 0 for the first one to run, and so on


class RunsRecorded(SessionRuns):
    """`with RunsRecorded() as runs:` counts the runs made inside the block, like `session_runs()`,
    and keeps what each was fed and what it returned, so a probe can ask whether an answer came out
    of the graph (`runs.returned(answer, fed=x)`), not only whether some run was made, and hand out
    the run that made it (`runs.source(answer, fed=x)`) for the grader to re-run outside the kernel."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[Run] = []
        self._sessions: list[Any] = []  # kept alive, so that no id is reused
        self.call_runs: list[list[int]] = []  # per `answered` call: its runs' numbers, [start, end)
        self.answered_by: list[list[int] | None] = []  # per `answered` call: where its answer came from

    def answered(self, call: Any, fed: Any = None) -> Any:
        """`call()`'s answer, as an array; notes the runs the call made (`call_runs`) and which of
        them returned the answer (`answered_by`: `located`, fed `fed` when given)."""
        start = len(self.calls)
        answer = np.asarray(call())
        self.call_runs.append([start, len(self.calls)])
        self.answered_by.append(self.located(answer, fed=fed, since=start))
        return answer

    def _ran(self, sess: Any, fetches: Any, feeds: list, result: Any) -> None:
        super()._ran(sess, fetches, feeds, result)
        graph = getattr(sess, "graph", None)
        returned = _arrays(result)
        names = [_fetch_name(leaf) for leaf in _leaves(fetches)]
        if not any(s is sess for s in self._sessions):
            self._sessions.append(sess)
        self.calls.append(Run(graph, len(graph.get_operations()) if graph is not None else 0,
                              [(_name(key), np.asarray(value)) for key, value in feeds],
                              list(zip(names, returned)) if len(names) == len(returned) else
                              [("", value) for value in returned],
                              next(i for i, s in enumerate(self._sessions) if s is sess)))

    def history(self) -> dict:
        """Every run of the block, as an artifact for the grader to re-run outside the kernel
        (`autograder.course.history`): the GraphDef of each graph run, and per run its session, graph,
        fetches and feeds, in the order they were made."""
        graphs: list[Any] = []
        runs = []
        for run in self.calls:
            if not any(g is run.graph for g in graphs):
                graphs.append(run.graph)
            runs.append({"session": run.session, "graph": next(i for i, g in enumerate(graphs) if g is run.graph),
                         "fetches": [name for name, _ in run.returned],
                         "feeds": [[name, value.tolist()] for name, value in run.fed]})
        return {"graphs": [export_graph(g) for g in graphs], "runs": runs}

    def source(self, answer: Any, fed: Any, since: int = 0) -> tuple[Run, str] | None:
        """The last run of the block (from its run number `since` on) fed `fed` (as one of its feeds;
        any run when `fed` is None) that returned `answer`, with the name of the fetch that returned
        it, where nothing else that run was fed holds the answer's values (an answer computed outside
        and fed back in to be fetched again did not come out of the graph); None when there is none."""
        answer = np.asarray(answer)
        fed = None if fed is None else np.asarray(fed)
        for run in reversed(self.calls[since:]):
            feeds = [value for _, value in run.fed]
            fetch = next((name for name, value in run.returned if _same(value, answer)), None)
            if fetch is not None and (fed is None or any(_same(f, fed) for f in feeds)) and \
                    not any(_holds(f, answer) for f in feeds if fed is None or not _same(f, fed)):
                return run, fetch
        return None

    def located(self, answer: Any, fed: Any, since: int = 0) -> list[int] | None:
        """Where `source` found `answer`: [run number, fetch number] in `history()`, or None."""
        found = self.source(answer, fed, since)
        if found is None:
            return None
        run, fetch = found
        return [next(i for i, r in enumerate(self.calls) if r is run), [name for name, _ in run.returned].index(fetch)]

    def returned(self, answer: Any, fed: Any) -> bool:
        """Whether one run of the block was fed `fed` and returned `answer` (`source`)."""
        return self.source(answer, fed) is not None


def _leaves(fetches: Any) -> list:
    """The fetches of a `Session.run` call in the order it returns their values."""
    if isinstance(fetches, dict):
        fetches = list(fetches.values())
    if isinstance(fetches, (list, tuple)):
        return [leaf for item in fetches for leaf in _leaves(item)]
    return [fetches]


def _fetch_name(fetch: Any) -> str:
    """The name of what a fetch runs: a variable's read, as `Session.run` fetches it."""
    as_element = getattr(fetch, "_as_graph_element", None)
    element = as_element() if callable(as_element) else None
    return _name(fetch if element is None else element)


def _name(key: Any) -> str:
    """A tensor's, op's or string key's name."""
    name = getattr(key, "name", key)
    return name if isinstance(name, str) else repr(key)


def _arrays(value: Any) -> list:
    """Every array in what `Session.run` returned (a value, or lists, tuples and dicts of them)."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [a for item in value for a in _arrays(item)]
    return [np.asarray(value)]


def _same(a: Any, b: Any) -> bool:
    return a.shape == b.shape and bool(np.all(a == b))


def _holds(fed: Any, answer: Any) -> bool:
    """Whether an array fed to a run holds `answer`'s values, in any dtype and any shape of its size.
    A one-element answer is held only by a fed bool: any number fed (a threshold, say) would read as
    True or False. (Replayed on other inputs outside the kernel, a laundered answer shows anyway.)"""
    if answer.size == 1 and fed.dtype != bool:
        return False
    try:
        return fed.size == answer.size and bool(np.all(fed.reshape(answer.shape).astype(answer.dtype) == answer))
    except (ValueError, TypeError):
        return False


def _upstream(op: Any) -> set:
    """`op` and every op it waits for, through data and control inputs."""
    seen, todo = set(), [op]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(t.op for t in current.inputs)
            todo.extend(current.control_inputs)
    return seen


_STATE = ("VarHandleOp", "VariableV2", "Variable")


def _variable_uses(ops: set) -> tuple[dict, dict]:
    """The ops among `ops` that write a variable and those that read one, each keyed by the op
    holding the variable (its VarHandleOp, or the VariableV2 of a reference variable)."""
    writes: dict = {}
    reads: dict = {}
    for op in ops:
        for i, tensor in enumerate(op.inputs):
            if tensor.op.type not in _STATE:
                continue
            writing = i == 0 and (op.type.startswith(("Assign", "ResourceApply", "Apply", "ResourceScatter",
                                                       "Scatter")))
            (writes if writing else reads).setdefault(tensor.op, set()).add(op)
    return writes, reads


def _fetched_ops(fetches: Any) -> list:
    """The ops one `Session.run(fetches)` asks for (a variable stands for its read, as run() does)."""
    import tensorflow as tf

    elements = []
    for fetch in tf.nest.flatten(fetches):
        as_element = getattr(fetch, "_as_graph_element", None)  # a variable fetches its read, as run() does
        element = as_element() if callable(as_element) else None
        element = fetch if element is None else element
        op = getattr(element, "op", element)
        if hasattr(op, "inputs") and hasattr(op, "control_inputs"):
            elements.append(op)
    return elements


def unordered_fetches(fetches: Any) -> bool:
    """Whether one `Session.run` fetches an op that writes a variable together with a fetch that
    reads it, with nothing ordering the two: which the runtime runs first is then its choice."""
    elements = _fetched_ops(fetches)
    closures = [_upstream(op) for op in elements]
    uses = [_variable_uses(closure) for closure in closures]
    for i, (writes, _) in enumerate(uses):
        for j, (_, reads) in enumerate(uses):
            if i == j:
                continue
            for variable, writers in writes.items():
                for reader in reads.get(variable, ()):
                    if not any(writer in _upstream(reader) for writer in writers) and not any(
                            reader in _upstream(writer) for writer in writers):
                        return True
    return False


def unordered_reads(fetches: Any) -> bool:
    """Whether, among the ops one `Session.run` computes, an op that is not itself fetched reads a
    variable that an op of the same run writes, with nothing ordering the read and the write: a
    variable read twice (once for the new value, once elsewhere) where one read feeds its assign and
    the other does not. (A fetched read racing a write is `unordered_fetches`'s case.)"""
    elements = _fetched_ops(fetches)
    fetched = set(elements)
    computed = set().union(*(_upstream(op) for op in elements)) if elements else set()
    writes, reads = _variable_uses(computed)
    for variable, writers in writes.items():
        for reader in reads.get(variable, ()):
            if reader in fetched:
                continue
            if not any(writer in _upstream(reader) for writer in writers) and not any(
                    reader in _upstream(writer) for writer in writers):
                return True
    return False


class RacingRuns(CallCounter):
    """`with RacingRuns() as racing:` counts in `racing.count` the `Session.run` calls made in the block
    whose fetches race (`unordered_fetches`); with `watch_reads=True`, in `racing.reads` too those
    whose computation holds a read racing a write (`unordered_reads`)."""

    def __init__(self, watch_reads: bool = False) -> None:
        from tensorflow.python.client import session

        super().__init__(session.BaseSession, "run")
        self.watch_reads, self.reads = watch_reads, 0

    def __enter__(self) -> "RacingRuns":
        original = self._original

        def run(session, fetches, *args, **kwargs):
            if unordered_fetches(fetches):
                self.count += 1
            if self.watch_reads and unordered_reads(fetches):
                self.reads += 1
            return original(session, fetches, *args, **kwargs)

        setattr(self.owner, self.name, run)
        return self


def graph_variables(graph: Any) -> list:
    """The variables of `graph` (global and local collections), each once, in creation order."""
    import tensorflow as tf

    keys = tf.compat.v1.GraphKeys
    return list(dict.fromkeys(graph.get_collection(keys.GLOBAL_VARIABLES) + graph.get_collection(keys.LOCAL_VARIABLES)))


def after_reset(sessions: list, variables: list, then: Any) -> Any:
    """Set an exercise's one variable back to its initial value, by running its initializer in the one
    session the exercise opened, and return `then()`: state kept in the variable starts over, state
    kept in Python does not. None when there is not exactly one session and one variable; the error's
    type name when resetting or `then` raises (a closed session, say)."""
    if len(sessions) != 1 or len(variables) != 1:
        return None
    try:
        sessions[0].run(variables[0].initializer)
        return then()
    except Exception as exc:  # noqa: BLE001 - an error is an observation too
        return type(exc).__name__
