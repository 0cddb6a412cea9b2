"""The lessons' prose, sentence by sentence: which sentences state a fact, and what backs each one.

A lesson's text must not drift from what TensorFlow does (issue 35). Every *material* sentence of a
solution notebook's markdown is backed in one of the ways below, and tests/test_prose.py lists those
that are not.

**Units.** Each markdown cell is cut into units: headings are dropped, fenced code blocks and HTML
comments are removed, each list item and each table row is a unit of its own, and the rest is split
into sentences at `.`, `!` or `?` followed by a space and a capital, a backtick, a quote, a
parenthesis or a star (so `tf.compat.v1`, `e.g.` and `2.21` do not split). The objectives (the list
under "**You will be able to**") and the "**How to work here.**" paragraph are not units.

**Material** (`is_material`): a unit that is not a question (it ends in `?`), not an instruction
(its first word, past list marks and emphasis, is an imperative such as Write, Run, Return, Build:
see `INSTRUCTIONS`) and not about the course itself ("This lesson...", "The sections below...":
`ABOUT_THE_COURSE`), and that names something a run could contradict:
* a code span in backticks (an API, an op, a value, a file), or
* a number (a digit) once references are removed: "lesson 6", "section 4", "Exercise 2",
  "(2 points)", "cell [5]", and the version names TF1, TF2, v1, v2, or
* a verb of behaviour from `VERBS` (returns, raises, creates, runs, prints, costs, grows...), as a
  word of its own ("define-by-run" holds none).

**Backed** (`backing`), first match wins:
* `citation`: the unit cites where it holds, in parentheses: `(TensorFlow: `path`)`, a file of the
  installed TensorFlow package (`tensorflow/python/training/saver.py`), or `(Keras: `path`)` of the
  installed Keras package (`keras/src/...`); `(docs: `tf.name`)`, a
  public name (`tf.`, `np.` or `keras.`) whose docstring says it; `(Python: `topic`)`, a section
  of Python's reference as `help("topic")` shows it (`assert`, `assignment`). Several may share
  the parenthesis, separated by `;`. tests/test_prose.py checks that each path exists, each name
  resolves and each topic exists, in this venv;
* `opinion`: the unit is marked as the course's view, visibly: it contains "in this course's view";
* `recap` (only for a unit of a `## Summary` section or of an "**Optional sections, in short.**"
  paragraph, which restate what the lesson showed): every code span of the unit also appears in a
  unit the lesson backs by a claim, a citation or an exercise (a span inside a longer one counts).
  A recap unit with no code span needs a citation or a rewording: the summary is where a false
  line is repeated, so it does not borrow a neighbour's claim;
* `claim`: the code cell right after the markdown cell (the one the text introduces) or right
  before it (the one whose output the text reads) holds a `claim(` call;
* `exercise`: the unit is part of an exercise statement (from a `### Exercise` heading to the end
  of its markdown cell): it specifies what the student's code must do, and the exercise's check
  cell grades the solution against it (tests/test_grading.py gives the solution full marks).

A heuristic, deliberately wide: it counts some sentences that state no checkable fact, which then
need a claim, a citation or a rewording. It cannot tell whether the claim next to a sentence checks
*that* sentence, only that the cell checks something; and it misses a fact stated with no
backticks, number or listed verb ("Graphs are faster"). A reviewer still reads for both.
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
VERBS = re.compile(r"(?<![\w-])(returns?|raises?|creates?|runs?|ran|builds?|built|adds?|added|prints?|printed|shows?|"
                   r"shown|draws?|drawn|costs?|grows?|fails?|refuses?|holds?|keeps?|computes?|executes?|"
                   r"executed|measured|measures|evaluates|rounds|saves|saved|restores|restored|"
                   r"writes|written|reads|deletes|deleted|accepts|ignores|warns|traces|traced|"
                   r"retraces|converts|rescales|faster|slower)(?![\w-])", re.I)
REFERENCES = re.compile(r"\b(lessons?|sections?|exercises?|parts?|steps?|cells?|seeds?|items?|"
                        r"figures?|reviews?|issues?)\s+\[?\d+\]?(\s*(and|or|,|–|-|to)\s*\[?\d+\]?)*|"
                        r"\(\d+ points?\)|\[\d+\]|\bTF\s?[12]\b|\bv[12]\b|\bTensorFlow [12]\b|"
                        r"^\s*\d+\.\s", re.I)
# What the lesson says about itself: how to work, what it covers, where its sections are.
ABOUT_THE_COURSE = re.compile(r"^(\*\*How to work here\.\*\*|(This|The|Its) (second half of the )?lesson\b|"
                              r"Optional sections\b|The optional sections?\b|The sections below\b|"
                              r"Each exercise\b|The check\b)")
CITATION = re.compile(r"\((?:[^()]*?;\s*)?(?:TensorFlow|Keras|docs|Python):\s*`[^`]+`")
CITED = re.compile(r"\b(TensorFlow|Keras|docs|Python):\s*`([^`]+)`")
OPINION = re.compile(r"in this course's view", re.I)
PROSE, EXERCISE, RECAP = "prose", "exercise", "recap"
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"“(*])")
ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "cf.")


@dataclasses.dataclass(frozen=True)
class Unit:
    """One sentence (or list item, or table row) of a lesson's markdown, and what backs it."""

    cell: int
    text: str
    material: bool
    backing: str | None   # "claim", "citation", "opinion", "exercise", or None: unbacked


def units_of(markdown: str) -> list[tuple[str, str]]:
    """(text, PROSE, EXERCISE or RECAP) for each sentence, list item or table row of a markdown cell."""
    markdown = re.sub(r"```.*?```", "", markdown, flags=re.S)
    markdown = re.sub(r"<!--.*?-->", "", markdown, flags=re.S)
    blocks: list[tuple[str, bool]] = []
    paragraph: list[str] = []
    kind, in_objectives = PROSE, False

    def flush():
        if paragraph and not in_objectives:
            blocks.append((" ".join(paragraph), kind))
        paragraph.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            flush()
            kind = (EXERCISE if re.match(r"#+\s*(Optional:\s*)?Exercise\b", stripped) else
                    RECAP if re.fullmatch(r"#+\s*Summary", stripped) else PROSE)
        elif not stripped:
            flush()
            in_objectives = False
        elif stripped.startswith("**Optional sections, in short"):
            flush()
            kind = RECAP
            paragraph.append(stripped)
        elif re.fullmatch(r"\*\*You will be able to:?\*\*:?", stripped) or stripped.startswith("**How to work here"):
            flush()
            in_objectives = True
            if stripped.startswith("**How to work here"):
                paragraph.append(stripped)
        elif stripped.startswith("|"):
            flush()
            if not re.fullmatch(r"[|\s:-]+", stripped):
                blocks.append((stripped, kind))
        elif re.match(r"([*+-]|\d+\.)\s", stripped):
            flush()
            paragraph.append(stripped)
        else:
            paragraph.append(stripped)
    flush()
    return [(sentence, kind) for block, kind in blocks for sentence in split_sentences(block)]


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


def code_spans(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def backing(sentence: str, kind: str, claimed: bool, checked_spans: set[str] = frozenset()) -> str | None:
    """What backs a material sentence (see the module's docstring), or None. `checked_spans`: the
    code spans of the lesson's sentences backed by a claim or a citation, which a recap may repeat."""
    if CITATION.search(sentence):
        return "citation"
    if OPINION.search(sentence):
        return "opinion"
    if kind == RECAP:
        spans = code_spans(sentence)
        return "recap" if spans and all(any(span in checked or len(checked) > 2 and checked in span
                                            for checked in checked_spans)
                                        for span in spans) else None
    if claimed:
        return "claim"
    if kind == EXERCISE:
        return "exercise"
    return None


def lesson_units(path: Path) -> list[Unit]:
    """Every unit of the notebook's markdown cells, with whether it is material and what backs it."""
    cells = nbformat.read(path, as_version=4).cells

    def holds_claim(index: int) -> bool:
        return 0 <= index < len(cells) and cells[index].cell_type == "code" and "claim(" in cells[index].source

    found = [(index, text, kind, holds_claim(index + 1) or holds_claim(index - 1))
             for index, cell in enumerate(cells) if cell.cell_type == "markdown"
             for text, kind in units_of(cell.source)]
    checked = set().union(*[code_spans(text) for _, text, kind, claimed in found
                            if kind != RECAP and backing(text, kind, claimed) in ("claim", "citation", "exercise")])
    return [Unit(index, text, is_material(text), backing(text, kind, claimed, checked) if is_material(text) else None)
            for index, text, kind, claimed in found]


def citations(units: list[Unit]) -> list[tuple[str, str]]:
    """(kind, target) of every citation the units make: ("TensorFlow", a path) or ("docs", a name)."""
    return [(kind, target) for unit in units for kind, target in CITED.findall(unit.text)]


def tensorflow_root() -> Path:
    """The folder that holds the installed `tensorflow` package (its paths are cited from there)."""
    return Path(importlib.util.find_spec("tensorflow").origin).parent.parent
