"""Each lesson module lists what every exercise's docstring promises (`REQUIREMENTS`: sentence -> the
check id, or ids, that read it). A sentence with no check, or a check no sentence asks for, shows here."""
import importlib

import pytest

from autograder.course import lessons


@pytest.mark.parametrize("assignment", lessons.assignments())
def test_every_docstring_sentence_has_a_check_that_exists(assignment):
    lesson = lessons.load(assignment)
    requirements = importlib.import_module(f"autograder.course.lessons.l{assignment}").REQUIREMENTS
    assert set(requirements) == {e.id for e in lesson.exercises}, "an exercise without its requirements"
    for exercise in lesson.exercises:
        checks = {c.id for c in exercise.checks}
        named = set()
        for sentence, ids in requirements[exercise.id].items():
            ids = (ids,) if isinstance(ids, str) else ids
            assert sentence.strip() and ids, (exercise.id, sentence)
            assert set(ids) <= checks, f"{exercise.id}: {sentence!r} names no such check: {set(ids) - checks}"
            named.update(ids)
        assert checks <= named, f"{exercise.id}: checks that no sentence asks for: {checks - named}"
