"""A git revision's code runs from a directory of its own (a detached worktree, removed after use), and a ``python`` started there imports that checkout's packages, never the installed ones.

An editable install points the venv at one clone; a process started with its working directory in another
checkout and ``python -c``/``-m`` has that directory first on ``sys.path``, so ``import harness`` finds the
checkout's own code before the install's (``check_origin`` makes sure, and ``origin_of`` tells a result's origin
back). ``cgpm regress --against`` (``harness.bench.against``) and ``benchmarks/diagnostics/bisect_engine.py`` both
run a revision this way; ``pinned`` puts a command on one core with ``taskset`` when the machine has it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from common.errors import ConfigError, EnvironmentProblem

ORIGIN = "import harness; print(harness.__file__)"


def _git(repository: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(repository), *args], capture_output=True, text=True, timeout=120)
    except OSError as error:
        raise EnvironmentProblem(f"git cannot run ({error.strerror}): a revision's checkout needs git") from None


def resolve(revision: str, repository: Path) -> str:
    """The commit ``revision`` names in ``repository``, in full; a clear one-line error when the clone lacks it."""
    if _git(repository, "rev-parse", "--git-dir").returncode != 0:
        raise ConfigError(f"{repository} is not a git checkout: there is no revision {revision!r} to compare with")
    found = _git(repository, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}")
    if found.returncode == 0:
        return found.stdout.strip()
    shallow = _git(repository, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"
    hint = (
        (
            " (this clone is shallow: fetch the history it needs, e.g. `git fetch --deepen=1`, or clone with "
            "--depth 2 or more)"
        )
        if shallow
        else ""
    )
    raise ConfigError(f"revision {revision!r} is not a commit of {repository}{hint}")


def is_checkout(directory: Path) -> bool:
    return (directory / "harness" / "__init__.py").is_file()


@contextlib.contextmanager
def worktree(revision: str, repository: Path, scratch: Path | None = None) -> Iterator[Path]:
    """A detached worktree of ``revision`` in a temporary directory (under ``scratch``), removed on the way out."""
    commit = resolve(revision, repository)
    with tempfile.TemporaryDirectory(prefix="cgpm-checkout-", dir=scratch) as parent:
        target = Path(parent) / commit[:12]
        added = _git(repository, "worktree", "add", "--detach", str(target), commit)
        if added.returncode != 0:
            tail = (added.stderr.strip().splitlines() or ["no output"])[-1]
            raise EnvironmentProblem(f"git worktree add of {revision} failed: {tail}")
        try:
            yield target
        finally:
            _git(repository, "worktree", "remove", "--force", str(target))
            _git(repository, "worktree", "prune")


@contextlib.contextmanager
def checkouts(revisions: list[str], repository: Path, scratch: Path | None = None) -> Iterator[list[Path]]:
    """Each of ``revisions`` as a directory of code: an existing checkout as it is, else a worktree made for it."""
    with contextlib.ExitStack() as stack:
        yield [
            Path(revision).resolve()
            if is_checkout(Path(revision))
            else stack.enter_context(worktree(revision, repository, scratch))
            for revision in revisions
        ]


def origin_of(path: str, checkout: Path) -> None:
    """Refuse a result whose ``harness`` came from outside ``checkout``: it would measure another commit's code."""
    if not Path(path).resolve().is_relative_to(checkout.resolve()):
        raise EnvironmentProblem(
            f"in {checkout}, harness is imported from {path}: the measurement would not be of that checkout's code"
        )


def check_origin(checkout: Path, python: str = sys.executable) -> None:
    """A ``python`` started in ``checkout`` imports its own ``harness`` (an editable install points elsewhere)."""
    found = subprocess.run([python, "-c", ORIGIN], cwd=checkout, capture_output=True, text=True, env=clean_env())
    if found.returncode != 0:
        tail = (found.stderr.strip().splitlines() or ["no output"])[-1]
        raise EnvironmentProblem(f"in {checkout}, `import harness` fails: {tail}")
    origin_of(found.stdout.strip(), checkout)


def clean_env() -> dict:
    """The environment with no ``PYTHONPATH``: a path put there for this process's code must not reach another's."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def default_core() -> int:
    """The last core this process may run on: the one a run is pinned to unless told."""
    return max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0


def pinned(command: list[str], core: int | None) -> list[str]:
    """``command`` on core ``core`` with ``taskset``; as it is when ``core`` is None or the machine has no taskset."""
    if core is None or shutil.which("taskset") is None:
        return command
    return ["taskset", "-c", str(core), *command]


def pinning(core: int | None) -> str:
    """How ``pinned`` places a command, in words (for a run's record)."""
    if core is None:
        return "not pinned"
    return (
        f"pinned to core {core} with taskset" if shutil.which("taskset") else "not pinned (no taskset on this machine)"
    )
