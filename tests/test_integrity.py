"""The class report's integrity view: similar submissions found whatever the disguise, never from the
course's own code; flagged code quoted; and a catalogue of what a hostile class could hand in to
hide a copy, break the report or inject into the page."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import nbformat
import pytest

from autograder import COURSE_ROOT
from autograder.frontends.integrity import flagged, flagged_section
from autograder.frontends.report import report_html
from autograder.frontends.report_settings import Report
from autograder.frontends.similarity import NOTEBOOK, class_similarity, course_code, similar_pairs, written_code
from tests.synthetic_class import (
    ASSIGNMENTS,
    COPIED,
    FLAGS,
    OWN_WORK,
    synthetic_notebooks,
    synthetic_records,
    write_synthetic_class,
)

FIRST = ASSIGNMENTS[0]


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("class")
    records = write_synthetic_class(root / "results", submissions=root / "submitted")
    return root, records


def test_the_copied_pair_is_listed_and_nothing_else(synthetic):
    root, records = synthetic
    found = {s.assignment: s for s in class_similarity(records, root / "submitted")}
    assert [(p.a.student, p.b.student) for p in found[FIRST].pairs] == [COPIED]
    assert found[ASSIGNMENTS[1]].pairs == []
    pair = found[FIRST].pairs[0]
    notebook = pair.matches[NOTEBOOK]
    assert min(notebook.shares) > 0.85 and notebook.matched > 100  # names and docstrings changed, comments added
    assert "self.my_" in pair.b.code and "self.my_" not in pair.a.code
    # Only the students who wrote code of their own count: the release and the solution's answers are nobody's.
    assert found[FIRST].compared == len({*COPIED, *OWN_WORK, *FLAGS})


def test_the_release_and_the_solution_are_nobodys_code():
    course = course_code(FIRST)
    handed = synthetic_notebooks(FIRST, ["lena", "malik", "nora"])  # solution, solution, release
    written = [written_code(s, nb, course) for s, nb in handed.items()]
    assert [w.code for w in written] == ["", "", ""]


def test_the_course_code_run_through_a_formatter_is_still_nobodys():
    course = course_code(FIRST)
    (answered,) = synthetic_notebooks(FIRST, ["nora"]).values()  # the release with the solution's answers
    formatted = nbformat.from_dict(answered)
    for cell in formatted.cells:  # as a formatter would: other quotes, spaces after commas and around =
        cell.source = re.sub(r",(\S)", r", \1", re.sub(r"(\w)=(\w)", r"\1 = \2", cell.source.replace('"', "'")))
    assert formatted.cells != answered.cells
    assert written_code("nora", formatted, course).code == ""


def test_two_students_renaming_the_same_names_in_the_course_code_share_nothing():
    """Renamed course lines are theirs, but their fingerprints are the course's (names do not count);
    only the seams between them, where course lines were left out, were new: those are nobody's."""
    course = course_code(FIRST)
    (release,) = synthetic_notebooks(FIRST, ["nora"]).values()
    renamed = nbformat.from_dict(release)
    for cell in renamed.cells:
        cell.source = re.sub(r"\b(x|threshold|options|graph)\b", r"my_\1", cell.source)
    written = [written_code(student, renamed, course) for student in ("lena", "omar")]
    assert len(written[0].code) > 1000
    assert similar_pairs(FIRST, written, course, Report()) == []


def test_a_copy_padded_with_code_of_ones_own_is_still_found():
    course = course_code(FIRST)
    handed = synthetic_notebooks(FIRST, ["ada", "bao"])
    padded = nbformat.from_dict(handed["bao"])
    padded.cells.append(nbformat.v4.new_code_cell("\n".join(
        f"pad_{i} = sum(range({i})) * {i} - len(str({i * 7}))" + (f"\nif pad_{i} > {i}:\n    print(pad_{i})" * (i % 3))
        for i in range(300))))
    (pair,) = similar_pairs(FIRST, [written_code("ada", handed["ada"], course), written_code("bao", padded, course)],
                            course, Report())
    assert pair.matches[NOTEBOOK].shares[0] > 0.85 and pair.matches[NOTEBOOK].shares[1] < 0.3


def test_a_copy_with_a_dead_line_after_each_line_keeps_every_fingerprint():
    course = course_code(FIRST)
    handed = synthetic_notebooks(FIRST, ["ada", "bao"])
    padded = nbformat.from_dict(handed["bao"])
    for cell in padded.cells:
        if cell.metadata.get("nbgrader", {}).get("solution"):  # `_ = 0` after every line that ends a statement
            cell.source = "\n".join(line + ("" if line.rstrip().endswith((",", "(")) or not line.strip()
                                            else "\n" + re.match(r"\s*", line).group() + "_ = 0")
                                    for line in cell.source.splitlines())
    (pair,) = similar_pairs(FIRST, [written_code("ada", handed["ada"], course), written_code("bao", padded, course)],
                            course, Report())
    assert min(pair.matches[NOTEBOOK].shares) > 0.85  # the dead lines were dropped before fingerprinting


def test_a_pair_shows_both_sides_matching_lines_escaped(synthetic):
    root, records = synthetic
    page = report_html(records, submissions=root / "submitted")
    section = page[page.index("id='similar'"):page.index("id='flagged'")]
    assert section.count('<article class="pair"') == 1
    assert '<div class="side" data-student="ada">' in section and '<div class="side" data-student="bao">' in section
    assert '<mark class="c0">' in section and "threshold_judge_solution" in section
    assert "self.opts[&quot;threshold&quot;]" in section  # the students' code, escaped


def test_without_the_submissions_the_report_says_how_to_compare():
    page = report_html(synthetic_records())
    assert "class='no-submissions'" in page and "--submissions" in page


def test_flagged_code_is_quoted_with_its_reason_and_tampered_with_its_own(synthetic):
    _, records = synthetic
    rows = flagged(records)
    assert [(r["student"], r["status"]) for r in rows] == [("farid", "tampered"), ("kemal", "graded")]
    kemal = rows[1]
    assert (kemal["cell"], kemal["line"], kemal["code"]) == ("retune_solution", "3", FLAGS["kemal"][0]["code"])
    assert "sys._getframe" in kemal["reason"]


# ---- a hostile class ----------------------------------------------------------------------------

def _record(student: str, notebook: str = "rebuild_vs_feed.ipynb", **extra):
    return {"student": student, "assignment": FIRST, "notebook": notebook, "notebook_sha256": "",
            "status": "graded", "reason": "", **extra}


def test_odd_submissions_are_noted_never_the_end_of_the_report(tmp_path, synthetic):
    root, _ = synthetic
    folder = tmp_path / "submitted"
    ada = (root / "submitted" / "ada" / FIRST / "rebuild_vs_feed.ipynb").read_bytes()
    for student in ("ada", "bao", "linker", "garbage", "tourist"):
        (folder / student / FIRST).mkdir(parents=True)
    (folder / "ada" / FIRST / "rebuild_vs_feed.ipynb").write_bytes(ada)
    (folder / "bao" / FIRST / "rebuild_vs_feed.ipynb").write_bytes(ada)
    # A link to another student's notebook is not that student's work read twice: it is not read.
    os.symlink(folder / "ada" / FIRST / "rebuild_vs_feed.ipynb", folder / "linker" / FIRST / "rebuild_vs_feed.ipynb")
    (folder / "garbage" / FIRST / "rebuild_vs_feed.ipynb").write_text("{not json")
    huge = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1\n" * 60_000)])
    (folder / "huge" / FIRST).mkdir(parents=True)
    nbformat.write(huge, folder / "huge" / FIRST / "rebuild_vs_feed.ipynb")
    records = [_record("ada", notebook_sha256="0" * 64), _record("bao"), _record("linker"), _record("garbage"),
               _record("tourist", notebook="../../ada/" + FIRST + "/rebuild_vs_feed.ipynb"),
               _record("ghost"), _record("invalid-one", status="invalid"), _record("huge")]
    (result,) = class_similarity(records, folder)
    assert [(p.a.student, p.b.student) for p in result.pairs] == [("ada", "bao")]
    notes = "\n".join(result.notes)
    assert "ada: the notebook changed since it was graded" in notes
    for student in ("linker", "garbage", "tourist", "ghost"):
        assert f"{student}: not compared" in notes
    assert "invalid-one" not in notes  # no notebook was graded: the failures section says why
    assert "huge: only the first 200000 characters of code compared" in notes


def test_what_students_wrote_or_named_is_escaped_in_both_sections(tmp_path):
    evil = "<img src=x onerror=alert(1)>"  # no slash: it names a student's folder too
    course = course_code(FIRST)
    handed = synthetic_notebooks(FIRST, ["ada"])
    nb = nbformat.from_dict(handed["ada"])
    nb.cells.append(nbformat.v4.new_code_cell(f"# {evil}\ns = '{evil}'"))
    for student in (evil, "bao"):
        (tmp_path / student / FIRST).mkdir(parents=True)
        nbformat.write(nb, tmp_path / student / FIRST / "rebuild_vs_feed.ipynb")
    records = [_record(evil, flags=[{"cell": evil, "line": evil, "code": evil, "reason": evil}, evil]),
               _record("bao", status="tampered", reason=evil)]
    assert written_code(evil, nb, course).code
    page = report_html([{**r, "score": 0, "max_score": 12, "exercises": []} for r in records], submissions=tmp_path)
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert page.count('<article class="pair"') == 1
    assert flagged_section(records).count('<tr class="flag"') == 3  # two findings of one, the other tampered


def figures(found) -> str:
    """Every number and span the similarity pass found, as text."""
    return repr([(s.assignment, s.compared, [(p.a.student, p.b.student, p.score, sorted(p.matches.items()))
                                             for p in s.pairs]) for s in found])


def test_the_figures_do_not_depend_on_the_process(synthetic):
    """Fingerprints are Python's salted hash(): every k-gram is kept, so no run picks others."""
    root, records = synthetic
    script = ("import sys; from pathlib import Path; from autograder.judging.results import read_results; "
              "from autograder.frontends.similarity import class_similarity; from tests.test_integrity import figures; "
              "print(figures(class_similarity(read_results(Path(sys.argv[1])), Path(sys.argv[2]))))")
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"  # not this process's
    run = subprocess.run([sys.executable, "-c", script, str(root / "results"), str(root / "submitted")],
                         capture_output=True, text=True, timeout=600, cwd=COURSE_ROOT,
                         env={**os.environ, "PYTHONHASHSEED": seed})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == figures(class_similarity(records, root / "submitted"))
    assert "'ada', 'bao'" in run.stdout
