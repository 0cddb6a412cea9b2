"""What a grader killed by SIGKILL leaves behind, removed by the next run: its kernels' cgroups
(processes in them killed first) and its run and log folders. Only what `owner.owner_gone` proves is
of a grader that no longer runs: another grader's, running beside this one, and anything named
without an owner are left alone."""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from autograder.engine.cgroups import PREFIX, ROOT, V1_CONTROLLERS, KernelCgroup
from autograder.engine.owner import owner_gone
from autograder.engine.sandbox import RUN_BASE


def _stale_cgroups(root: Path = ROOT) -> list[KernelCgroup]:
    """The cgroups (v2, or v1's per-controller triples) whose owner is gone."""
    groups = []
    for v2 in (root, root / "unified"):
        groups += [KernelCgroup({"all": d}, 2) for d in sorted(v2.glob(PREFIX + "*")) if owner_gone(d.name)]
    names = {d.name for c in V1_CONTROLLERS for d in (root / c).glob(PREFIX + "*") if owner_gone(d.name)}
    for name in sorted(names):
        dirs = {c: root / c / name for c in V1_CONTROLLERS if (root / c / name).is_dir()}
        groups.append(KernelCgroup(dirs, 1))
    return groups


def remove_leftovers(cgroup_root: Path = ROOT, folders: tuple[Path, ...] | None = None) -> list[Path]:
    """Remove the cgroups and the run folders (in `RUN_BASE` and the temporary folder) of graders
    that are gone; return what was removed."""
    removed = []
    for group in _stale_cgroups(cgroup_root):
        killable = group.version == 2 or {"pids", "freezer"} <= set(group.dirs)
        if not killable or group.kill_all():  # else rmdir fails on a busy group, and it stays
            group.remove()
            removed += [d for d in group.dirs.values() if not d.exists()]
    for base in folders if folders is not None else (RUN_BASE, Path(tempfile.gettempdir())):
        for folder in sorted(base.glob(PREFIX + "*")):
            if folder.is_dir() and not folder.is_symlink() and owner_gone(folder.name):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


def say_removed(removed: list[Path]) -> None:
    """One line on stderr for what `remove_leftovers` removed, if anything."""
    if removed:
        shown = ", ".join(p.name for p in removed[:4]) + (f" and {len(removed) - 4} more" if len(removed) > 4 else "")
        print(f"removed {len(removed)} leftover(s) of a grader that was killed: {shown}", file=sys.stderr, flush=True)
