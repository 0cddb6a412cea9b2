"""Read what a kernel handed out, as data: parsed, never run, in a process of the grader's.

GraphDefs and MetaGraphDefs arrive base64-encoded (`parsed_graph_def`, at most
MAX_GRAPH_BYTES); `random_sources` walks a GraphDef back from a tensor to the seeded random ops it
is computed from. The worker of `engine.replay` answers two requests here:

A request `{"files": {name: <base64 bytes>}}` (optionally `"count_ops": <base64 GraphDef>`, with
it `"op_inputs": [op types]`, and `"meta_graph": <base64 MetaGraphDef>`) reads
files a probe handed out (`probing.hand_out_files`: checkpoints, their `checkpoint` state file, event
files), written to a private temporary directory that is deleted afterwards; nothing is run. The
answer: `{"state": {"latest", "all"} or None, "checkpoints": {prefix: {"variables": {name: {"dtype",
"value"}}} or {"error": ...}}, "events": {file: [[step, tag, kind, number, histogram sum], ...]}, "op_counts":
{op type: n}, "op_inputs": {op type: [[[input op name, its op type], ...] per op of that type]},
"trainable": [variable names of the trainable collection]}`, or `{"refused": reason}` for more files or bytes than a probe hands out, or a name
that is not a plain file name.

A request `{"collections": [keys], "meta_graph": <base64 MetaGraphDef>}` (`probing.export_collections`)
reads a graph's collections, parsed and never run: the answer is `{"collections": {key: [op names]},
"dtypes": {variable op name: the dtype it holds}, "flags": {variable op name: its trainable flag}}`
(`engine.meta_graph`), or `{"refused": reason}`.
"""
from __future__ import annotations

import base64
import os
import re
import shutil
import tempfile
from typing import Any, Mapping

from autograder.engine import meta_graph
from autograder.inkernel.probing import FILE_NAME, MAX_FILES, MAX_FILES_BYTES

MAX_GRAPH_BYTES = 4 * 2**20


class NotReplayable(ValueError):
    """A graph the grader will not run: an op outside `SAFE_OPS`, a function library, or too big."""



def read_files(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a `files` request (see the module's docstring): the checkpoints, state file and event
    files handed out, read here by TensorFlow's own readers, in a directory of this process's own."""
    try:
        files = _checked_files(request.get("files"))
        extra = {**({"op_counts": _op_counts(request["count_ops"])} if "count_ops" in request else {}),
                 **({"op_inputs": _op_inputs(request.get("count_ops"), request["op_inputs"])}
                    if "op_inputs" in request else {}),
                 **({"trainable": _trainable(request["meta_graph"])} if "meta_graph" in request else {})}
    except NotReplayable as exc:
        return {"refused": str(exc)}
    directory = tempfile.mkdtemp(prefix="replay-files-")
    try:
        for name, data in files.items():
            with open(os.path.join(directory, name), "wb") as handle:
                handle.write(data)
        answer = {"state": _checkpoint_state(directory) if "checkpoint" in files else None,
                  "checkpoints": {name[:-len(".index")]: _checkpoint(os.path.join(directory, name[:-len(".index")]))
                                  for name in sorted(files) if name.endswith(".index")},
                  "events": {name: _events(os.path.join(directory, name)) for name in sorted(files) if "tfevents" in name}}
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return {**answer, **extra}



def _checked_files(files: Any) -> dict[str, bytes]:
    """The handed-out files decoded, or NotReplayable for anything a probe does not hand out."""
    if not isinstance(files, dict) or len(files) > MAX_FILES:
        raise NotReplayable(f"no set of at most {MAX_FILES} files was handed out")
    decoded, total = {}, 0
    for name, encoded in files.items():
        if not isinstance(name, str) or not re.fullmatch(FILE_NAME, name) or not isinstance(encoded, str) \
                or len(encoded) > MAX_FILES_BYTES * 4 // 3 + 4:
            raise NotReplayable("a file handed out has no plain name or is too big")
        try:
            decoded[name] = base64.b64decode(encoded, validate=True)
        except ValueError:
            raise NotReplayable("a file handed out is not base64") from None
        total += len(decoded[name])
    if total > MAX_FILES_BYTES:
        raise NotReplayable(f"the files handed out are over {MAX_FILES_BYTES} bytes")
    return decoded



def _checkpoint_state(directory: str) -> dict[str, Any] | None:
    """The base names the `checkpoint` state file lists: `latest` (None unless that checkpoint's
    index was handed out too, as `tf.train.latest_checkpoint` checks) and `all`, oldest first; None
    when it is no state file. Only names: no path the state file holds is ever opened."""
    from google.protobuf import text_format
    from tensorflow.python.training.checkpoint_state_pb2 import CheckpointState

    state = CheckpointState()
    try:
        with open(os.path.join(directory, "checkpoint"), encoding="utf-8") as handle:
            text_format.Parse(handle.read(), state)
    except (text_format.ParseError, UnicodeDecodeError):
        return None
    if not state.model_checkpoint_path:
        return None
    latest = os.path.basename(state.model_checkpoint_path)
    return {"latest": latest if os.path.isfile(os.path.join(directory, latest + ".index")) else None,
            "all": [os.path.basename(p) for p in state.all_model_checkpoint_paths]}



def _checkpoint(prefix: str) -> dict[str, Any]:
    """Every variable of checkpoint `prefix` (its dtype and value) as {"variables": ...}, or {"error": first line}."""
    import tensorflow as tf

    try:
        reader = tf.train.load_checkpoint(prefix)
        return {"variables": {name: {"dtype": dtype.name, "value": plain(reader.get_tensor(name))}
                              for name, dtype in sorted(reader.get_variable_to_dtype_map().items())
                              if dtype != tf.string}}
    except (tf.errors.OpError, ValueError) as exc:
        return {"error": f"{type(exc).__name__}: {first_line(getattr(exc, 'message', str(exc)))}"}



def _events(path: str) -> list[list]:
    """(step, tag's last part, kind, value or histogram count, histogram sum) of every summary value
    of event file `path`, in order; a torn or garbled record ends the file."""
    import tensorflow as tf

    rows = []
    try:
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                kind = value.WhichOneof("value")
                number = value.simple_value if kind == "simple_value" else (value.histo.num if kind == "histo" else None)
                total = value.histo.sum if kind == "histo" else None
                rows.append([int(event.step), value.tag.split("/")[-1], kind, number, total])
    except (tf.errors.DataLossError, tf.errors.OpError, ValueError):
        pass
    return rows



def read_collections(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a `collections` request (see the module's docstring): the collections and the variables'
    dtypes of the MetaGraphDef handed out (`engine.meta_graph`), or `{"refused": reason}`."""
    keys = request.get("collections")
    try:
        if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
            raise NotReplayable("no list of collection names was asked for")
        return meta_graph.collections(_decoded(request.get("meta_graph"), "MetaGraphDef"), keys)
    except ValueError as exc:  # NotReplayable, or not a MetaGraphDef
        return {"refused": str(exc)}



def _trainable(encoded: Any) -> list[str]:
    """The names of the variables a MetaGraphDef's trainable collection lists (parsed, never imported)."""
    try:
        return sorted(meta_graph.collections(_decoded(encoded, "MetaGraphDef"),
                                             ["trainable_variables"])["collections"]["trainable_variables"])
    except NotReplayable:
        raise
    except ValueError as exc:
        raise NotReplayable(str(exc)) from None



def _decoded(encoded: Any, kind: str) -> bytes:
    """The bytes of a base64 artifact of at most MAX_GRAPH_BYTES, or NotReplayable."""
    if not isinstance(encoded, str) or len(encoded) > MAX_GRAPH_BYTES * 4 // 3 + 4:
        raise NotReplayable(f"no {kind} of a size the grader reads was handed out")
    try:
        return base64.b64decode(encoded, validate=True)
    except ValueError:
        raise NotReplayable(f"what was handed out is not a {kind}") from None



def _op_counts(encoded: Any) -> dict[str, int]:
    """How many ops of each type a GraphDef holds (parsed, never imported or run)."""
    counts: dict[str, int] = {}
    for node in parsed_graph_def(encoded).node:
        counts[node.op] = counts.get(node.op, 0) + 1
    return counts



def _op_inputs(encoded: Any, types: Any) -> dict[str, list]:
    """Per op type of `types`, the data inputs of each op of that type a GraphDef holds, in its order,
    as [[input op name, its op type], ...] (parsed, never imported or run)."""
    if not isinstance(types, list) or not all(isinstance(kind, str) for kind in types):
        raise NotReplayable("op_inputs is no list of op types")
    nodes = parsed_graph_def(encoded).node
    kinds = {node.name: node.op for node in nodes}
    found: dict[str, list] = {kind: [] for kind in types}
    for node in nodes:
        if node.op in found:
            sources = [source.split(":")[0] for source in node.input if not source.startswith("^")]
            found[node.op].append([[source, kinds.get(source)] for source in sources])
    return found



def plain(value: Any) -> Any:
    """A fetched value as JSON: an array as nested lists, an op's run as None."""
    import numpy as np

    return None if value is None else np.asarray(value).tolist()



def first_line(message: str) -> str:
    """The first informative line of a TensorFlow error (its runtime errors open with a banner)."""
    noise = ("Graph execution error", "Detected at node", "File ", "Traceback", "Stack trace", "[[", "Node:")
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    useful = [line for line in lines if not line.startswith(noise)]
    return (useful or lines or [""])[0][:300]



def parsed_graph_def(encoded: Any):
    """The GraphDef `encoded` holds, or NotReplayable when it is none or too big."""
    from tensorflow.core.framework import graph_pb2

    graph_def = graph_pb2.GraphDef()
    try:
        graph_def.ParseFromString(_decoded(encoded, "graph"))
    except NotReplayable:
        raise
    except Exception as exc:  # noqa: BLE001 - protobuf's and base64's errors alike: not a GraphDef
        raise NotReplayable(f"what was handed out is not a GraphDef ({type(exc).__name__})") from None
    return graph_def



def random_sources(graph_def: Any, name: Any) -> list | None:
    """[op name, seed, seed2] of every op with a seed pair that tensor `name` of `graph_def` is computed
    from (its data and control inputs, walked back), in creation order; None when the GraphDef holds
    no such op. Parsed, never imported: the attributes are those the GraphDef itself carries."""
    nodes = {node.name: (i, node) for i, node in enumerate(graph_def.node)}
    start = name.split(":")[0] if isinstance(name, str) else None
    if start not in nodes:
        return None
    seen, stack = set(), [start]
    while stack:
        op = stack.pop()
        if op in seen or op not in nodes:
            continue
        seen.add(op)
        stack.extend(source.lstrip("^").split(":")[0] for source in nodes[op][1].input)
    seeded = sorted((nodes[op] for op in seen if "seed" in nodes[op][1].attr and "seed2" in nodes[op][1].attr),
                    key=lambda pair: pair[0])
    return [[node.name, node.attr["seed"].i, node.attr["seed2"].i] for _, node in seeded]
