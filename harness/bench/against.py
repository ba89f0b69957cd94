"""A same-run comparison measures a suite with another revision's code and with this checkout's, each repetition of a cell on both one right after the other, so both meet the same machine; it leaves two ordinary runs.

``cgpm regress --against REV`` (``harness.commands.regress_cmd``): REV's code is a detached worktree
(``harness.bench.checkouts``, removed at the end), this checkout's is the one running; every repetition of either is
a fresh process with its checkout's code (``harness.bench.checkout_runner.CheckoutRunner``: forked from a host
started in that checkout, each round's hosts hashing alike), pinned to one core, the side that goes first
alternating from cell to cell and round to round (``harness.bench.execute.run_sides``). The streams are made once,
by this checkout, and both sides read them. The two run directories, ``OUT/base`` (REV) and ``OUT/this``, are runs
as ``cgpm bench`` leaves them, each with its commit; their run ids are OUT's name with ``-base`` and ``-this``, so a
comparison of a commit with itself still leaves two records. A machine with no record of its own (a CI machine) can thus gate a change: the base is
measured beside it rather than read from the history.
"""

from __future__ import annotations

import random
from pathlib import Path

from harness.bench.checkout_runner import CheckoutRunner
from harness.bench.checkouts import check_origin, worktree
from harness.bench.config import BenchConfig
from harness.bench.execute import Side, run_sides
from harness.bench.machine import REPOSITORY, git_info
from harness.bench.store import RUN_FILE

BASE, THIS = "base", "this"


def side_dirs(out: Path) -> tuple[Path, Path]:
    """The base's and this checkout's run directories of a comparison kept in ``out``."""
    return out / BASE, out / THIS


def is_comparison(out: Path) -> bool:
    return all((side / RUN_FILE).is_file() for side in side_dirs(out))


def run_against(
    config: BenchConfig,
    out: Path,
    revision: str,
    *,
    core: int | None,
    repository: Path = REPOSITORY,
    argv=None,
    say=lambda message: None,
) -> tuple[Path, Path]:
    """``config`` run with ``revision``'s code and with ``repository``'s (as it is, changes included) into ``out``;
    the base's and this checkout's run directories."""
    with worktree(revision, repository) as checkout:
        return run_checkouts(config, out, checkout, repository, core=core, argv=argv, say=say)


def run_checkouts(
    config: BenchConfig,
    out: Path,
    base: Path,
    this: Path,
    *,
    core: int | None,
    argv=None,
    say=lambda message: None,
    show_progress: bool | None = None,
) -> tuple[Path, Path]:
    """``config`` run with the code of two checkouts, side by side, into ``side_dirs(out)``."""
    out = Path(out).resolve()
    seed = random.SystemRandom().randrange(2**32)  # both sides' hosts hash alike in each round
    sides = []
    for name, checkout, directory in zip((BASE, THIS), (base, this), side_dirs(out), strict=True):
        check_origin(checkout)
        runner = CheckoutRunner(checkout, core, seed)
        sides.append(Side(directory, runner, git_info(checkout), run_id=f"{out.name}-{name}"))
    try:
        base_dir, this_dir = run_sides(config, sides, argv=argv, say=say, show_progress=show_progress)
    finally:
        for side in sides:
            side.runner.close()
    return base_dir, this_dir
