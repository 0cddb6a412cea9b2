"""What the grader reads as a submission, with no kernel: names, links, layouts, hashes, CSV cells."""
import csv

import nbformat
import pytest

from autograder.course import lessons
from autograder.engine.limits import Limits
from autograder.frontends.batch import unchanged_result
from autograder.judging.grading import Grading, ReadNotebook, notebook_hash
from autograder.judging.results import read_results, write_class_csv, write_result
from autograder.judging.submissions import discover
from tests.conftest import make_socket

ASSIGNMENT = "02_rebuild_vs_feed"
LESSON = lessons.load(ASSIGNMENT)
NOTEBOOK = LESSON.notebook
VALID = nbformat.writes(nbformat.v4.new_notebook())


def folder(root, student="alice"):
    path = root / student / ASSIGNMENT
    path.mkdir(parents=True)
    return path


def read(submission):
    """Run the ReadNotebook step alone; return (status, reason, notebook file name graded)."""
    g = Grading(submission, LESSON, reference={}, limits=Limits())
    ReadNotebook().run(g)
    return g.status, g.reason, submission.path.name


def only(root):
    [submission] = discover([root])
    return submission


def test_a_notebook_under_another_name_is_graded_as_the_lesson_and_says_so(tmp_path):
    (folder(tmp_path) / "rebuild_vs_feed-Copy1.ipynb").write_text(VALID)
    status, reason, name = read(only(tmp_path))
    assert (status, name) == ("graded", "rebuild_vs_feed-Copy1.ipynb")
    assert reason == f"graded rebuild_vs_feed-Copy1.ipynb as {NOTEBOOK} (handed in under another name)"


def test_the_expected_name_wins_over_other_notebooks_and_the_reason_names_them(tmp_path):
    """A student who handed in final_version.ipynb beside the untouched lesson notebook got 0 with no
    word of the other file."""
    path = folder(tmp_path)
    (path / NOTEBOOK).write_text(VALID)
    (path / "final_version.ipynb").write_text(VALID)
    assert read(only(tmp_path)) == ("graded", f"also found final_version.ipynb: not graded, {NOTEBOOK} is", NOTEBOOK)


@pytest.mark.parametrize("files,found", [
    ((), "found an empty folder"),
    (("notes.txt",), "found only notes.txt"),
    (("a.ipynb", "b.ipynb"), "found only a.ipynb, b.ipynb"),
])
def test_a_missing_notebook_names_what_was_found(tmp_path, files, found):
    path = folder(tmp_path)
    for name in files:
        (path / name).write_text(VALID)
    status, reason, _ = read(only(tmp_path))
    assert status == "invalid" and reason == f"no notebook named {NOTEBOOK} in {ASSIGNMENT}/: {found}"


def test_a_notebook_linked_to_the_solution_is_invalid(tmp_path):
    solution = tmp_path / "elsewhere" / NOTEBOOK
    solution.parent.mkdir()
    solution.write_text(VALID)
    (folder(tmp_path / "submitted") / NOTEBOOK).symlink_to(solution)
    status, reason, _ = read(only(tmp_path / "submitted"))
    assert status == "invalid" and "is a symbolic link" in reason and str(solution) in reason


def test_a_student_folder_linked_to_another_students_is_invalid(tmp_path):
    root = tmp_path / "submitted"
    (folder(root, "alice") / NOTEBOOK).write_text(VALID)
    (root / "mallory").symlink_to(root / "alice")
    by_student = {s.student: read(s) for s in discover([root])}
    assert by_student["alice"][0] == "graded"
    status, reason, _ = by_student["mallory"]
    assert status == "invalid" and reason.startswith("not graded: mallory is a symbolic link")


def test_a_single_notebook_given_as_a_link_is_invalid(tmp_path):
    (folder(tmp_path, "real") / NOTEBOOK).write_text(VALID)
    link = folder(tmp_path, "carol") / NOTEBOOK
    link.symlink_to(tmp_path / "real" / ASSIGNMENT / NOTEBOOK)
    status, reason, _ = read(only(link))
    assert status == "invalid" and "symbolic link" in reason


def test_one_students_folder_and_one_assignment_folder_are_understood(tmp_path):
    (folder(tmp_path, "carol") / NOTEBOOK).write_text(VALID)
    for given in (tmp_path / "carol", tmp_path / "carol" / ASSIGNMENT):
        s = only(given)
        assert (s.student, s.assignment, s.path.name) == ("carol", ASSIGNMENT, NOTEBOOK)


def test_a_rerun_skips_only_unchanged_notebooks(tmp_path):
    root, out = tmp_path / "submitted", tmp_path / "out"
    (folder(root) / NOTEBOOK).write_text(VALID)
    submission = only(root)
    record = {"student": "alice", "assignment": ASSIGNMENT, "notebook": NOTEBOOK, "score": 0, "max_score": 12,
              "status": "graded", "reason": "", "exercises": [],
              "notebook_sha256": notebook_hash(VALID.encode())}
    write_result(out, record)
    assert unchanged_result(out, submission) is not None
    submission.path.write_text(VALID + "\n")  # the student fixed something and handed in again
    assert unchanged_result(out, submission) is None
    write_result(out, {k: v for k, v in record.items() if k != "notebook_sha256"})
    assert unchanged_result(out, submission) is None, "a result without a hash cannot prove it is current"


def test_csv_cells_never_start_a_formula(tmp_path):
    evil = '=HYPERLINK("evil.example","click")'
    for student in (evil, "+1", "-2", "@SUM(A1)", "bob"):
        write_result(tmp_path, {"student": student, "assignment": ASSIGNMENT, "score": 3, "max_score": 12,
                                "status": "invalid", "reason": "=cmd|' /C calc'!A0", "exercises": []})
    write_class_csv(tmp_path, read_results(tmp_path))
    rows = list(csv.DictReader((tmp_path / "grades.csv").open()))
    assert sorted(r["student"] for r in rows) == sorted(["'" + evil, "'+1", "'-2", "'@SUM(A1)", "bob"])
    assert all(r["reason"].startswith("'=") and r["score"] == "3" for r in rows)


def test_an_unreadable_submission_is_judged_without_a_kernel(tmp_path):
    """A linked notebook gets its `invalid` result from the grader itself: no runner (threads or a
    Dask cluster, whose tasks read the file) is ever handed it."""
    import contextlib

    from autograder.frontends.batch import grade_all
    from tests.conftest import LIMITS

    solution = tmp_path / "solution.ipynb"
    solution.write_text(VALID)
    (folder(tmp_path / "submitted", "mallory") / NOTEBOOK).symlink_to(solution)

    @contextlib.contextmanager
    def runner(batch):
        def submit(s):
            raise AssertionError(f"{s.student} was sent to a kernel")
        yield submit

    [record] = grade_all(discover([tmp_path / "submitted"]), tmp_path / "out", limits=LIMITS, runner=runner)
    assert record["status"] == "invalid" and "symbolic link" in record["reason"] and record["score"] == 0


def _fifo(path):
    import os
    os.mkfifo(path)


def _null_device(path):
    import os
    import stat
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # /dev/null's numbers
    except PermissionError:
        pytest.skip("making a device needs root")


@pytest.mark.parametrize("make,kind", [(_fifo, "a named pipe (FIFO)"), (make_socket, "a socket"),
                                       (_null_device, "a character device")])
def test_a_special_file_as_notebook_is_invalid_and_says_what_it_is(tmp_path, make, kind):
    """Read without blocking (a FIFO nobody writes to), and named for what it is: never "no notebook
    named X: found only X", which a socket got when opening it failed."""
    make(folder(tmp_path) / NOTEBOOK)
    status, reason, _ = read(only(tmp_path))
    assert status == "invalid" and reason == f"not graded: {NOTEBOOK} is {kind}, not a regular file: " \
                                             "hand in the notebook itself, as a plain file"


def test_dot_dot_in_a_path_never_names_a_student_nor_writes_outside_out(tmp_path):
    """`grade submitted/alice/A/../A/nb.ipynb` named a student `..`, whose results went one folder
    above --out, with no row in grades.csv."""
    (folder(tmp_path / "submitted") / NOTEBOOK).write_text(VALID)
    given = tmp_path / "submitted" / "alice" / ASSIGNMENT / ".." / ASSIGNMENT / NOTEBOOK
    [s] = discover([given])
    assert (s.student, s.assignment) == ("alice", ASSIGNMENT)
    from autograder.judging.results import result_path
    out = tmp_path / "out"
    for student in ("..", "."):
        assert out in result_path(out, student, ASSIGNMENT).resolve().parents


@pytest.mark.parametrize("names", [("Alice", "alice"), ("\ufb01ona", "fiona"), ("stra\u00dfe", "STRASSE")])
def test_ids_that_merge_under_case_folding_or_nfkc_are_named_together(tmp_path, capsys, names):
    for student in names:
        (folder(tmp_path, student) / NOTEBOOK).write_text(VALID)
    assert sorted(s.student for s in discover([tmp_path])) == sorted(names), "both are still graded"
    err = capsys.readouterr().err
    assert f"students {sorted(names)[0]!r} and {sorted(names)[1]!r} are one id" in err, err


def test_every_skipped_folder_gets_a_line(tmp_path, capsys):
    (folder(tmp_path) / NOTEBOOK).write_text(VALID)
    (tmp_path / "..." / ASSIGNMENT).mkdir(parents=True)
    (tmp_path / "alice" / ".hidden").mkdir()
    assert [s.student for s in discover([tmp_path])] == ["alice"]
    err = capsys.readouterr().err
    assert f"skipping {tmp_path / '...'}: a hidden folder (its name starts with a dot)" in err, err
    assert f"skipping {tmp_path / 'alice' / '.hidden'}: a hidden folder" in err, err
