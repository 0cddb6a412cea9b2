"""`nbgrader autograde` made to fail only the student at fault, and to give the batch grader's verdict.

Stock nbgrader 0.9.6 lets one student's notebook decide more than that student's grade: an odd
`schema_version` in a cell aborts the whole run (nbgrader stops at `SchemaTooNewError`), a check
cell copied twice fails validation, check cells re-flagged `grade: false` or `solution: true` leave
every test at "needs manual grading", a cell the student marked as graded earns nothing but
errors, a notebook handed in as `my_work.ipynb` is "unknown", a garbage `timestamp.txt` fails the
submission, and whatever HTML a student writes in markdown runs in the feedback page and in
formgrader. The course's config puts these steps in nbgrader's way:

- `RepairGradeCells`, the first sanitize step: each cell's nbgrader metadata is set from the
  gradebook (the release is the truth); a graded cell the release does not have, or a second one
  with the same grade_id, loses its nbgrader metadata (it counts for nothing); a deleted check
  cell is put back as released. The batch grader ignores cell metadata, so both agree.
- `SanitizeHTML`, after grading and before `generate_feedback` renders: markdown, raw cells and
  rich outputs are cleaned by nh3 (Ammonia, a maintained allow-list sanitiser).
- `CourseAutograde`, nbgrader's `Autograde` with the batch grader's reading of a submission: a
  folder without the lesson's notebook but exactly one other is graded as the lesson (logged); a
  `timestamp.txt` that is not a timestamp is ignored with a warning; the notebook and the files
  copied beside it are read by the batch grader's plain-file rule (`submissions.plain_bytes`):
  never through a link, never blocking on a FIFO, nothing over `NOTEBOOK_MB`. `install()` makes
  nbgrader's commands and formgrader use it.
"""
from __future__ import annotations

import datetime
import html
import io
import os
import shutil
import stat
from pathlib import Path
from typing import Any

import nh3
from nbconvert.exporters import NotebookExporter
from nbconvert.exporters.exporter import ResourcesDict
from nbconvert.filters.markdown_mistune import InvalidNotebook, IPythonRenderer, MarkdownWithMath
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde
from nbgrader.converters.base import BaseConverter
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from nbgrader.utils import find_all_files, parse_utc
from traitlets import Type

from autograder.course import lessons
from autograder.engine.untrusted import one_line
from autograder.frontends.nbgrader import released_source
from autograder.judging.submissions import NotPlain, open_plain, plain_bytes, require_plain_path

SCHEMA_VERSION = 3  # nbgrader 0.9.6's cell metadata format
MAX_TIMESTAMP_BYTES = 200


class RepairGradeCells(NbGraderPreprocessor):
    """Each cell's nbgrader metadata as the gradebook has it: see the module docstring."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gradebook:
            try:
                source = gradebook.find_notebook(info["notebook"], info["assignment"])
            except MissingEntry:
                return nb, resources  # nbgrader skips a notebook it does not know, and says so
            released = {c.name: c for c in source.source_cells}
            metadata = {name: self._metadata(source, name) for name in released}
            seen = set()
            for cell in nb.cells:
                ours = cell.metadata.get("nbgrader")
                if ours is None:
                    continue
                grade_id = ours.get("grade_id") if isinstance(ours, dict) else None
                if not isinstance(grade_id, str) or grade_id not in metadata or grade_id in seen:
                    self._ignore(cell, info, grade_id, "a second cell with this grade_id" if grade_id in seen
                                 else "a graded cell the release does not have")
                    continue
                seen.add(grade_id)
                if any(ours.get(k) != v for k, v in metadata[grade_id].items() if k != "schema_version"):
                    self.log.warning("%s/%s: cell %s has nbgrader metadata other than released (%s): restored",
                                     one_line(info["student"]), info["assignment"], grade_id, one_line(dict(ours)))
                cell.metadata["nbgrader"] = {**metadata[grade_id]}
            self._restore_missing(nb, info, source, released, metadata, seen)
        return nb, resources

    @staticmethod
    def _metadata(source: Any, name: str) -> dict[str, Any]:
        graded = {c.name: c.max_score for c in [*source.grade_cells, *source.task_cells]}
        solutions = {c.name for c in source.solution_cells}
        tasks = {c.name for c in source.task_cells}
        cell = next(c for c in source.source_cells if c.name == name)
        meta = {"grade": name in graded and name not in tasks, "grade_id": name, "locked": bool(cell.locked),
                "schema_version": SCHEMA_VERSION, "solution": name in solutions, "task": name in tasks}
        if name in graded:
            meta["points"] = graded[name]
        return meta

    def _ignore(self, cell: NotebookNode, info: dict, grade_id: Any, why: str) -> None:
        self.log.warning("%s/%s: ignoring the nbgrader metadata of %s (grade_id %s): it counts for nothing",
                         one_line(info["student"]), info["assignment"], why, one_line(repr(grade_id)))
        del cell.metadata["nbgrader"]
        cell.metadata.pop("deletable", None)
        cell.metadata.pop("editable", None)

    def _restore_missing(self, nb: NotebookNode, info: dict, source: Any, released: dict, metadata: dict,
                         seen: set) -> None:
        """Put each deleted code grade cell back, as released, after the cell released before it."""
        order = [c.name for c in source.source_cells]
        for grade_cell in source.grade_cells:
            name = grade_cell.name
            if name in seen or released[name].cell_type != "code":
                continue
            self.log.warning("%s/%s: check cell %s was deleted: restored as released",
                             one_line(info["student"]), info["assignment"], name)
            cell = new_code_cell(released_source(released[name].source),
                                 metadata={"nbgrader": {**metadata[name]}, "editable": False, "deletable": False})
            before = {n for n in order[:order.index(name)]}
            at = max((i + 1 for i, c in enumerate(nb.cells)
                      if c.metadata.get("nbgrader", {}).get("grade_id") in before), default=len(nb.cells))
            nb.cells.insert(at, cell)
            seen.add(name)


# ---- HTML that reaches the feedback page and formgrader -----------------------------------------

STYLE_PROPERTIES = {"color", "background", "border-left", "padding", "padding-left", "margin", "margin-top",
                    "font-weight", "list-style"}  # what the course's own reports use
ATTRIBUTES = {**nh3.ALLOWED_ATTRIBUTES, "*": {"style", "title"}}
URL_SCHEMES = nh3.ALLOWED_URL_SCHEMES | {"data"}  # for images only: see `_data_for_images_only`
DROPPED_OUTPUTS = ("application/javascript", "image/svg+xml", "text/markdown")


def _data_for_images_only(tag: str, attribute: str, value: str) -> str | None:
    """nh3's attribute filter: a `data:` URL only as an image's source (a markdown attachment)."""
    if value.strip().lower().startswith("data:") and not (tag == "img" and attribute == "src"
                                                          and value.strip().lower().startswith("data:image/")):
        return None
    return value


def clean_html(html: str) -> str:
    """`html` with only nh3's allowed tags and attributes, and the course's report styles."""
    return nh3.clean(html, attributes=ATTRIBUTES, url_schemes=URL_SCHEMES, attribute_filter=_data_for_images_only,
                     filter_style_properties=STYLE_PROPERTIES)


def markdown_html(cell: NotebookNode) -> str:
    """A markdown cell as HTML, its attachments embedded, math left for MathJax (as nbconvert renders it)."""
    renderer = IPythonRenderer(escape=False, attachments=cell.get("attachments") or {}, exclude_anchor_links=True)
    try:
        return MarkdownWithMath(renderer=renderer).render(cell.source)
    except InvalidNotebook:  # an attachment it names is missing: show the text as text
        return f"<pre>{html.escape(cell.source)}</pre>"


class SanitizeHTML(NbGraderPreprocessor):
    """Clean what a student wrote that a browser would render: markdown cells (rendered to HTML,
    cleaned, and kept as that HTML, which is valid markdown), raw cells, and outputs' HTML;
    scripts, SVG and markdown outputs are dropped (their plain text stays)."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict) -> tuple[NotebookNode, ResourcesDict]:
        nb.metadata.pop("widgets", None)  # saved widget state makes the page load widget scripts
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                cell.source = clean_html(markdown_html(cell))
            elif cell.cell_type == "raw":
                cell.source = clean_html(cell.source)
            for output in cell.get("outputs", []):
                data = output.get("data", {})
                for mimetype in DROPPED_OUTPUTS:
                    data.pop(mimetype, None)
                if "text/html" in data:
                    data["text/html"] = clean_html("".join(data["text/html"]))
        return nb, resources


# ---- reading a submission as the batch grader does ----------------------------------------------

def submitted_root(coursedir: CourseDirectory) -> Path:
    """The folder nbgrader collects submissions into: nothing below it may be a symbolic link."""
    return Path(coursedir.format_path(coursedir.submitted_directory, ".", "."))


class CourseNotebookExporter(NotebookExporter):
    """nbgrader's notebook exporter, reading a notebook by the batch grader's plain-file rule
    (`submissions.plain_bytes`: no link below the submissions folder, no FIFO, socket or device,
    nothing over `NOTEBOOK_MB`, never blocking), and a renamed notebook for the lesson's. The same
    exporter reads the sanitized copy back from autograded/, nbgrader's own, as nbconvert does."""

    def from_filename(self, filename: str, resources: dict | None = None, **kw: Any) -> tuple[NotebookNode, dict]:
        real = getattr(self.parent, "renamed", {}).get(filename, filename)
        root = submitted_root(self.parent.coursedir)
        if not Path(real).is_relative_to(root):  # the autograde pass reads autograded/, which nbgrader wrote
            return super().from_filename(real, resources, **kw)
        try:
            data = plain_bytes(Path(real), root)
        except NotPlain as exc:  # this student fails, with the batch grader's reason; the others go on
            raise ValueError(f"not graded: {exc}") from None
        resources = resources if resources is not None else ResourcesDict()
        if not resources.get("metadata"):
            resources["metadata"] = ResourcesDict()
        modified = datetime.datetime.fromtimestamp(os.lstat(real).st_mtime, tz=datetime.timezone.utc)
        resources["metadata"].update(name=Path(real).stem, path=os.path.dirname(real),
                                     modified_date=modified.strftime("%B %-d, %Y"))  # as nbconvert's from_filename
        return self.from_file(io.StringIO(data.decode("utf-8")), resources=resources, **kw)


class PlainFilesOnly(BaseConverter):
    """nbgrader's copy of a submission's other files (data, notes) into autograded/, by the plain-file
    rule: a file reached through a symbolic link, or a FIFO, socket or device, is not copied (and
    logged), so nothing a link points at reaches autograded/ or, from there, feedback/. A student or
    assignment folder that is a link fails that student (stock nbgrader's `shutil.copy` followed links)."""

    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        source = Path(self._format_source(assignment_id, student_id))
        dest = Path(self._format_dest(assignment_id, student_id))
        require_plain_path(source, submitted_root(self.coursedir))
        for filename in find_all_files(str(source), self.coursedir.ignore + ["*.ipynb"]):
            path = Path(filename)
            target = dest / path.relative_to(source)
            try:
                require_plain_path(path, source)
                with open_plain(path) as f:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.unlink(missing_ok=True)
                    with open(target, "wb") as copy:
                        shutil.copyfileobj(f, copy)
            except NotPlain as exc:
                self.log.warning("%s/%s: not copied: %s", one_line(student_id), assignment_id, one_line(str(exc)))


class CourseAutograde(Autograde, PlainFilesOnly):
    """nbgrader's `Autograde`, reading a submission folder as the batch grader does (module docstring).
    `PlainFilesOnly` sits between `Autograde` and nbgrader's `BaseConverter` in the method order, so
    `Autograde.init_assignment` copies the student's files through it."""

    exporter_class = Type(CourseNotebookExporter, klass=NotebookExporter).tag(config=True)

    def init_notebooks(self) -> None:
        super().init_notebooks()
        self.renamed: dict[str, str] = {}
        for folder, found in self.assignments.items():
            try:
                expected = os.path.join(folder, lessons.load(os.path.basename(folder)).notebook)
            except KeyError:
                continue
            if len(found) == 1 and found[0] != expected and not os.path.lexists(expected):
                self.log.warning("%s: graded %s as %s (handed in under another name)", one_line(folder),
                                 one_line(os.path.basename(found[0])), os.path.basename(expected))
                self.renamed[expected] = found[0]
                self.assignments[folder] = [expected]

    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        path = Path(self._format_source(assignment_id, student_id)) / "timestamp.txt"
        problem = timestamp_problem(path)
        if not problem:
            return super().init_assignment(assignment_id, student_id)
        self.log.warning("ignoring %s: %s; the submission is graded without a time", one_line(path), problem)
        self.coursedir.get_existing_timestamp = lambda dest_path: None  # for this submission only
        try:
            super().init_assignment(assignment_id, student_id)
        finally:
            del self.coursedir.get_existing_timestamp


def timestamp_problem(path: Path) -> str:
    """What keeps `path` from being a timestamp nbgrader can read ("" when it is one, or absent)."""
    try:
        info = os.lstat(path)
    except OSError:
        return ""
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size > MAX_TIMESTAMP_BYTES:
        return f"{info.st_size} bytes, not a timestamp"
    text = path.read_text(encoding="utf-8", errors="replace").strip()
    if not text:
        return ""  # nbgrader warns about an empty one itself
    try:
        parse_utc(text)
    except (ValueError, OverflowError, TypeError, LookupError):
        return f"not a timestamp: {one_line(text[:60])}"
    return ""


def install() -> None:
    """Make `nbgrader autograde` and formgrader's autograde button use `CourseAutograde`. nbgrader
    has no setting for its converter class, so both modules' name for it is rebound here."""
    from nbgrader.apps import api, autogradeapp

    autogradeapp.Autograde = api.Autograde = CourseAutograde
