"""Words of prose and cells per lesson, in the whole notebook and in its core.

    .venv/bin/python bench/lesson_size.py [COURSE_ROOT]

The core is every cell before the first markdown cell whose heading starts with "Optional"
(DESIGN.md, "Notebook standards": a core of at most about 3,000 words and 40 cells, digressions in
marked optional sections after it). Words are those of the markdown cells, fenced code blocks left
out; code cells count as cells, not words.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

OPTIONAL = re.compile(r"\s*#+\s*Optional")


def words(cells: list[dict]) -> int:
    return sum(len(re.sub(r"```.*?```", "", "".join(c["source"]), flags=re.S).split())
               for c in cells if c["cell_type"] == "markdown")


def size(path: Path) -> dict[str, int]:
    cells = json.loads(path.read_text())["cells"]
    core = next((i for i, c in enumerate(cells)
                 if c["cell_type"] == "markdown" and OPTIONAL.match("".join(c["source"]))), len(cells))
    return {"cells": len(cells), "words": words(cells), "core_cells": core, "core_words": words(cells[:core])}


def main(root: Path) -> None:
    for path in sorted(root.glob("solutions/*/*.ipynb")):
        s = size(path)
        print(f"{path.parent.name:32s} cells {s['cells']:3d}  words {s['words']:5d}  |  "
              f"core cells {s['core_cells']:3d}  core words {s['core_words']:5d}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
