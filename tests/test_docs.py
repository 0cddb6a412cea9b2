"""Every command and path the README and the docs give still works as written.

The commands are parsed, not run (running them is what the rest of the suite does): a `make`
target must exist, a `python -m autograder ...` line must parse with the real command line, an
`nbgrader` subcommand must be one nbgrader has, and a path into the checkout must exist.
"""
from __future__ import annotations

import re

import pytest

from autograder import COURSE_ROOT
from autograder.frontends.cli import parser

DOCS = [COURSE_ROOT / "README.md", *sorted((COURSE_ROOT / "docs").glob("*.md"))]
TOP_FOLDERS = ("autograder/", "tests/", "docs/", "bench/", "solutions/", "notebooks/", "jupyter/", ".ci/")
PATH_PATTERN = r"(?<![\w/.])(?:%s)[^\s`'\")\]]*" % "|".join(map(re.escape, TOP_FOLDERS))
PLACEHOLDER = re.compile(r"<[^>]*>|\*|\.\.\.|NN|\{|\bN\b")


def commands(text: str) -> list[str]:
    """Shell lines of fenced code blocks (continuations joined) and inline code spans."""
    lines = []
    for block in re.findall(r"```(?:bash|sh|shell)?\n(.*?)```", text, flags=re.S):
        lines += [line.split(" #")[0].strip() for line in block.replace("\\\n", " ").splitlines()]
    lines += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return [line for line in lines if line]


def doc_items(pattern: str) -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for line in commands(doc.read_text()):
            for match in re.finditer(pattern, line):
                found.append((doc.name, match.group(0).strip()))
    return sorted(set(found))


def make_targets() -> set[str]:
    makefile = (COURSE_ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z][\w-]*):", makefile, flags=re.M))


@pytest.mark.parametrize("doc,command", doc_items(r"\bmake [a-z][\w-]*"))
def test_make_targets_exist(doc, command):
    assert command.split()[1] in make_targets(), f"{doc}: `{command}` names no Makefile target"


@pytest.mark.parametrize("doc,command", doc_items(r"python -m autograder [^;|&`]*"))
def test_autograder_command_lines_parse(doc, command):
    argv = command.replace("[", "").replace("]", "").split()[3:]  # [--flag] marks an optional flag
    if len(argv) == 1:  # a mention of a subcommand, not a command line
        argv += ["--help"]
    if not argv or PLACEHOLDER.search(command):
        pytest.skip("a placeholder or a bare mention, not a command line")
    try:
        parser().parse_args(argv)
    except SystemExit as exc:
        if argv[-1] == "--help" and exc.code == 0:
            return
        pytest.fail(f"{doc}: `{command}` does not parse with python -m autograder's command line")


def nbgrader_subcommands() -> set[str]:
    from nbgrader.apps.nbgraderapp import NbGraderApp

    return set(NbGraderApp.subcommands)


@pytest.mark.parametrize("doc,command", doc_items(r"\bnbgrader [a-z_]+"))
def test_nbgrader_subcommands_exist(doc, command):
    assert command.split()[1] in nbgrader_subcommands(), f"{doc}: `{command}` is no nbgrader command"


@pytest.mark.parametrize("doc,path", doc_items(PATH_PATTERN))
def test_paths_into_the_checkout_exist(doc, path):
    if PLACEHOLDER.search(path) or "artifacts" in path:
        pytest.skip("a pattern, not a path")
    assert (COURSE_ROOT / path.rstrip(".,:")).exists(), f"{doc} names {path}, which does not exist"


def test_the_reader_finds_commands_in_blocks_and_spans():
    text = "Run `make lab`.\n```bash\npython -m autograder grade a.ipynb \\\n  --out r  # comment\n```\n"
    assert any(c.split() == "python -m autograder grade a.ipynb --out r".split() for c in commands(text))
    assert "make lab" in commands(text)
