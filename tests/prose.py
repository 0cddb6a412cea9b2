"""The lessons' prose, sentence by sentence: which sentences state a fact, and what backs each one.

A lesson's text must not drift from what TensorFlow does (issue 35). Every *material* sentence of a
solution notebook's markdown is backed in one of four ways, and tests/test_prose.py lists those that
are not.

**Units.** Each markdown cell is cut into units: headings are dropped, fenced code blocks and HTML
comments other than the opinion marker are removed, each list item and each table row is a unit of
its own, and the rest is split into sentences at `.`, `!` or `?` followed by a space and a capital,
a backtick, a quote, a parenthesis or a star (so `tf.compat.v1`, `e.g.` and `2.21` do not split).

**Material** (`is_material`): a unit that is not a question (it ends in `?`) and not an instruction
(its first word, past list marks and emphasis, is an imperative such as Write, Run, Return, Look:
see `INSTRUCTIONS`), and that names something a run could contradict:
* a code span in backticks (an API, an op, a value, a file), or
* a number (a digit) once references are removed: "lesson 6", "section 4", "Exercise 2",
  "(2 points)", "cell [5]", and the version names TF1, TF2, v1, v2, or
* a verb of behaviour from `VERBS` (returns, raises, creates, runs, prints, costs, grows...).

**Backed** (`backing`), first match wins:
* `claim`: a code cell next to the markdown cell holds a `claim(` call: the code cell right
  after it (the one the text introduces) or the code cell right before it (the one whose output
  the text reads);
* `citation`: the unit cites where it holds, in parentheses, as `(TensorFlow: `path`)` with a
  path of the installed TensorFlow package (`tensorflow/python/training/saver.py`), or
  `(docs: `tf.name`)` with a public TensorFlow name whose docstring says it; several citations
  may share the parenthesis, separated by `;` (tests/test_prose.py checks that each path exists
  and each name resolves in TensorFlow 2.21);
* `opinion`: the unit is marked as the course's view, visibly: it contains "in this course's view";
* `exercise`: the unit is part of an exercise statement (from a `### Exercise` heading to the end
  of its markdown cell): it specifies what the student's code must do, and the exercise's check
  cell grades the solution against it (tests/test_grading.py gives the solution full marks).

A heuristic, deliberately wide: it counts some sentences that state no checkable fact, which then
need a claim, a citation or a rewording; it misses a fact stated with no backticks, number or
listed verb ("Graphs are faster"), which a reviewer still reads for.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import nbformat

INSTRUCTIONS = {
    "write", "run", "return", "implement", "use", "try", "read", "compare", "look", "see", "fill",
    "replace", "build", "make", "call", "change", "add", "remove", "keep", "pass", "open", "check",
    "predict", "edit", "define", "compute", "count", "skip", "go", "let", "recall", "watch", "find",
    "start", "give", "store", "raise", "leave", "put", "take", "imagine", "suppose", "evaluate",
    "sync", "train", "set", "mind",
}
# Verbs of behaviour ("`eval()` raises", "ops that no fetch needs never run"). An instruction that
# starts with one is left out by `INSTRUCTIONS`.
VERBS = re.compile(r"\b(returns?|raises?|creates?|runs?|ran|builds?|built|adds?|added|prints?|printed|shows?|"
                   r"shown|draws?|drawn|costs?|grows?|fails?|refuses?|holds?|keeps?|computes?|executes?|"
                   r"executed|measured|measures|evaluates|rounds|saves|saved|restores|restored|"
                   r"writes|written|reads|deletes|deleted|accepts|ignores|warns|traces|traced|"
                   r"retraces|converts|rescales|faster|slower)\b", re.I)
REFERENCES = re.compile(r"\b(lessons?|sections?|exercises?|parts?|steps?|cells?|seeds?|items?|"
                        r"figures?|reviews?|issues?)\s+\[?\d+\]?(\s*(and|or|,|–|-|to)\s*\[?\d+\]?)*|"
                        r"\(\d+ points?\)|\[\d+\]|\bTF\s?[12]\b|\bv[12]\b|\bTensorFlow [12]\b|"
                        r"^\s*\d+\.\s", re.I)
# What the lesson says about itself: how to work, what it covers, where its sections are.
ABOUT_THE_COURSE = re.compile(r"^(\*\*How to work here\.\*\*|(This|The|Its) (second half of the )?lesson\b|"
                              r"Optional sections\b|The optional sections?\b|Each exercise\b|The check\b)")
CITATION = re.compile(r"\((?:[^()]*?;\s*)?(?:TensorFlow|docs|Python):\s*`[^`]+`")
CITED = re.compile(r"\b(TensorFlow|docs|Python):\s*`([^`]+)`")
OPINION = re.compile(r"in this course's view", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"“(*])")
ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "cf.")


@dataclasses.dataclass(frozen=True)
class Unit:
    """One sentence (or list item, or table row) of a lesson's markdown, and what backs it."""

    cell: int
    text: str
    material: bool
    backing: str | None   # "claim", "citation", "opinion", "exercise", or None: unbacked


def units_of(markdown: str) -> list[tuple[str, bool]]:
    """(text, in an exercise statement) for each sentence, list item or table row of a markdown cell."""
    markdown = re.sub(r"```.*?```", "", markdown, flags=re.S)
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    blocks: list[tuple[str, bool]] = []
    paragraph: list[str] = []
    in_exercise = in_objectives = False

    def flush():
        if paragraph and not in_objectives:
            blocks.append((" ".join(paragraph), in_exercise))
        paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            flush()
            in_exercise = bool(re.match(r"#+\s*(Optional:\s*)?Exercise\b", stripped))
        elif not stripped:
            flush()
            in_objectives = False
        elif re.fullmatch(r"\*\*You will be able to:?\*\*:?", stripped) or stripped.startswith("**How to work here"):
            flush()
            in_objectives = True
            if stripped.startswith("**How to work here"):
                paragraph.append(stripped)
        elif stripped.startswith("|"):
            flush()
            if not re.fullmatch(r"[|\s:-]+", stripped):
                blocks.append((stripped, in_exercise))
        elif re.match(r"([*+-]|\d+\.)\s", stripped):
            flush()
            paragraph.append(stripped)
        else:
            paragraph.append(stripped)
    flush()
    return [(sentence, exercise) for block, exercise in blocks for sentence in split_sentences(block)]


def split_sentences(text: str) -> list[str]:
    """The sentences of one paragraph (abbreviations such as "e.g." do not end one)."""
    guarded = text
    for short in ABBREVIATIONS:
        guarded = guarded.replace(short + " ", short.replace(".", "\0") + " ")
    return [s.replace("\0", ".").strip() for s in SENTENCE_END.split(guarded) if s.strip()]


def is_material(sentence: str) -> bool:
    """Whether the sentence states something a run of TensorFlow or NumPy could contradict."""
    plain = sentence.strip()
    if plain.endswith("?") or plain.endswith("?)"):
        return False
    words = re.sub(r"^([*+\-|]|\d+\.|\*\*|\*|_)+\s*", "", plain).lstrip("*_ (").split()
    if words and words[0].strip(",:*").lower() in INSTRUCTIONS:
        return False
    if ABOUT_THE_COURSE.match(plain):
        return False
    if "`" in plain:
        return True
    if re.search(r"\d", REFERENCES.sub(" ", plain)):
        return True
    return bool(VERBS.search(plain))


def backing(sentence: str, exercise: bool, claimed: bool) -> str | None:
    """What backs a material sentence (see the module's docstring), or None."""
    if claimed:
        return "claim"
    if CITATION.search(sentence):
        return "citation"
    if OPINION.search(sentence):
        return "opinion"
    if exercise:
        return "exercise"
    return None


def lesson_units(path: Path) -> list[Unit]:
    """Every unit of the notebook's markdown cells, with whether it is material and what backs it."""
    cells = nbformat.read(path, as_version=4).cells

    def holds_claim(index: int) -> bool:
        return 0 <= index < len(cells) and cells[index].cell_type == "code" and "claim(" in cells[index].source

    units = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "markdown":
            continue
        after = next((k for k in range(index + 1, len(cells)) if cells[k].cell_type == "code"), -1)
        claimed = holds_claim(after) or holds_claim(index - 1)
        for text, exercise in units_of(cell.source):
            material = is_material(text)
            units.append(Unit(index, text, material, backing(text, exercise, claimed) if material else None))
    return units


def citations(units: list[Unit]) -> list[tuple[str, str]]:
    """(kind, target) of every citation the units make: ("TensorFlow", a path) or ("docs", a name)."""
    return [(kind, target) for unit in units for kind, target in CITED.findall(unit.text)]


def tensorflow_root() -> Path:
    """The folder that holds the installed `tensorflow` package (its paths are cited from there)."""
    return Path(importlib.util.find_spec("tensorflow").origin).parent.parent
