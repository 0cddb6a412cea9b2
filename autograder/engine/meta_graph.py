"""Read a graph's collections from the MetaGraphDef a kernel handed out, outside the kernel.

A graph's collections (TRAINABLE_VARIABLES, LOCAL_VARIABLES, SUMMARIES, "losses"...) live only in the
kernel's `tf.Graph` object. A probe exports them (`probing.export_collections`) into a MetaGraphDef
beside the graph's GraphDef, and the grader's worker reads them here: the protocol buffer is parsed,
never imported or run. A name is kept only where the GraphDef handed out with it holds that node, a
variable's only where the node is a variable op, so a collection cannot list what the graph lacks.
"""
from __future__ import annotations

from typing import Any, Sequence

VARIABLE_OPS = ("VarHandleOp", "VariableV2", "Variable")


def collections(data: bytes, keys: Sequence[str]) -> dict[str, Any]:
    """`{"collections": {key: [op names, in the collection's order]}, "dtypes": {variable op name:
    the dtype it holds}, "flags": {variable op name: the `trainable` flag its VariableDef records, for
    the variables the collections `keys` list}}` of the serialized MetaGraphDef `data`; ValueError
    when it is none."""
    from tensorflow.core.protobuf import meta_graph_pb2
    from tensorflow.python.framework import dtypes

    meta_graph = meta_graph_pb2.MetaGraphDef()
    try:
        meta_graph.ParseFromString(data)
    except Exception as exc:  # noqa: BLE001 - protobuf's DecodeError and friends: not a MetaGraphDef
        raise ValueError(f"what was handed out is not a MetaGraphDef ({type(exc).__name__})") from None
    nodes = {node.name: node for node in meta_graph.graph_def.node}
    variables = {name: dtypes.as_dtype(node.attr["dtype"].type).name
                 for name, node in nodes.items() if node.op in VARIABLE_OPS}
    listed, flags = {}, {}
    for key in keys:
        collection = meta_graph.collection_def[key] if key in meta_graph.collection_def else None
        if collection is None:
            listed[key] = []
        elif collection.HasField("bytes_list"):
            found = [(name, flag) for name, flag in _variables(collection) if name in variables]
            listed[key] = [name for name, _ in found]
            flags.update(found)
        else:
            listed[key] = [_op_name(name) for name in collection.node_list.value if _op_name(name) in nodes]
    return {"collections": listed, "dtypes": variables, "flags": flags}


def _variables(collection: Any) -> list[tuple[str, bool]]:
    """(op name, trainable flag) of each VariableDef a CollectionDef lists; what is no VariableDef is skipped."""
    from google.protobuf.message import DecodeError
    from tensorflow.core.framework import variable_pb2

    found = []
    for item in collection.bytes_list.value:
        try:
            variable = variable_pb2.VariableDef.FromString(item)
        except DecodeError:
            continue
        found.append((_op_name(variable.variable_name), variable.trainable))
    return found


def _op_name(tensor_name: str) -> str:
    """"layer/w:0" -> "layer/w"; an op's name is kept."""
    return tensor_name.rsplit(":", 1)[0] if ":" in tensor_name else tensor_name
