"""Every graded lesson, looked up by its assignment folder name (e.g. `02_rebuild_vs_feed`).

A lesson's public definition lives in `autograder/course/lessons/l<assignment>.py` as `LESSON` (its
exercises, cases and checks; its probes, which run in the student's kernel, in
`autograder/inkernel/probes/l<assignment>.py`); its hidden
inputs, which never ship to students, in `autograder/course/hidden/l<assignment>.py` as `CASES`.
"""
from __future__ import annotations

import importlib
import pkgutil

from autograder.course.spec import Case, Lesson


def assignments() -> list[str]:
    """The assignment names of every lesson the grader knows, in course order."""
    return sorted(m.name[1:] for m in pkgutil.iter_modules(__path__) if m.name.startswith("l"))


def load(assignment: str) -> Lesson:
    """The lesson behind `assignment`, or a KeyError that lists the known assignments."""
    if assignment not in assignments():
        raise KeyError(f"no lesson called {assignment!r}; known: {', '.join(assignments())}")
    return importlib.import_module(f"{__name__}.l{assignment}").LESSON


def hidden_cases(assignment: str) -> dict[str, list[Case]]:
    """The hidden cases of each exercise, labelled `hidden 1`, `hidden 2`, ... (instructor only).

    `CASES` maps an exercise id to hand-written `(situation, inputs)` pairs: the situation is what the
    feedback may say about a failing hidden case. The drawn pairs (`course.hidden.drawn`) follow them.
    """
    # Imported here: the students' bundle ships this module without the hidden folder.
    from autograder.course.hidden import drawn

    pairs = {ex_id: list(written) for ex_id, written in
             importlib.import_module(f"autograder.course.hidden.l{assignment}").CASES.items()}
    for ex_id, extra in drawn.load(assignment).items():
        pairs.setdefault(ex_id, []).extend(extra)
    return {ex_id: [Case(f"hidden {i}", inputs, public=False, situation=situation)
                    for i, (situation, inputs) in enumerate(ex_pairs, 1)]
            for ex_id, ex_pairs in pairs.items()}


def all_cases(lesson: Lesson, hidden: bool = True) -> dict[str, list[Case]]:
    """Each exercise's public cases, followed by its hidden ones when `hidden` is true."""
    secret = hidden_cases(lesson.assignment) if hidden else {}
    return {e.id: [*e.cases, *secret.get(e.id, [])] for e in lesson.exercises}
