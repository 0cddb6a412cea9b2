"""Catch a submission that patches what the probes rely on.

Probes run in the student's kernel and trust TensorFlow, NumPy, IPython's display and this
package to report what the student's code really did. A submission that replaces, say,
`tf.Graph.get_operations`, `tf.Operation.type` or `autograder.inkernel.probe.observe` could make a wrong
answer look right. So `snapshot()` runs before any of the submission's code: in the warm zygote
before it forks the kernel (`zygote.preload`), else in the grader's first cell. Probe cells call
`changed()` before observing, and a non-empty answer makes the submission `tampered`.

What is watched: every function, method, property and class in the modules below and in the
classes they define, by identity. This catches monkeypatching. It cannot stop a submission that
reads this module and undoes the check itself (everything in the kernel is the student's to
change); that residual risk is stated in docs/instructor.md.
"""
from __future__ import annotations

import importlib
import inspect
import sys
import types
from typing import Any

WATCHED = (
    "tensorflow", "tensorflow.compat.v1", "tensorflow.compat.v1.train", "tensorflow.compat.v1.summary",
    "tensorflow.python.framework.ops", "tensorflow.python.framework.tensor",
    "tensorflow.python.client.session", "tensorflow.python.ops.variables",
    "tensorflow.python.ops.resource_variable_ops", "tensorflow.python.training.saver",
    "tensorflow.python.eager.polymorphic_function.polymorphic_function",
    "numpy", "json", "base64", "IPython.display", "IPython.core.display_functions",
    "IPython.core.interactiveshell",
)
_snapshot: dict[str, tuple[Any, dict[str, Any]]] = {}


def _watchable(value: Any) -> bool:
    return callable(value) or isinstance(value, (property, classmethod, staticmethod, types.MemberDescriptorType))


def _owners() -> dict[str, Any]:
    """Each watched module, and each class it defines, by dotted name."""
    names = [*WATCHED, *(m for m in list(sys.modules) if m == "autograder" or m.startswith("autograder."))]
    owners: dict[str, Any] = {}
    for name in names:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        owners[name] = module
        for attr, value in list(vars(module).items()):
            if inspect.isclass(value) and getattr(value, "__module__", None) == name:
                owners[f"{name}.{attr}"] = value
    return owners


def _resolved(owner: Any) -> dict[str, Any]:
    """What `owner.name` resolves to, for every name. For a class: the first definition along its
    MRO, then its metaclass's (as `inspect.getattr_static` resolves it), read straight from the
    classes' `__dict__`s without running any descriptor."""
    if not inspect.isclass(owner):
        return dict(vars(owner))
    found: dict[str, Any] = {}
    for klass in reversed((*owner.__mro__, *type(owner).__mro__)):
        found.update(vars(klass))  # the first definition along the chain is written last
    return found


def _attributes(owner: Any) -> dict[str, Any]:
    """`_resolved(owner)`, watchable names only."""
    return {k: v for k, v in _resolved(owner).items() if _watchable(v)}


def snapshot() -> None:
    """Record every watched attribute (once per process: a second call changes nothing)."""
    if _snapshot:
        return
    for name, owner in _owners().items():
        _snapshot[name] = (owner, _attributes(owner))


def changed() -> list[str]:
    """Dotted names of watched attributes that were replaced or deleted since `snapshot()`."""
    found = []
    for name, (owner, attributes) in _snapshot.items():
        now = _resolved(owner)  # a watched name now bound to anything else, watchable or not, has changed
        found += [f"{name}.{attr}" for attr, value in attributes.items() if now.get(attr) is not value]
    return sorted(found)
