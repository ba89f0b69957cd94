"""A baseline is a run's run.json and cells table copied under ``results/baselines/NAME/``, small enough to commit.

The RSS series, latencies and parts stay with the run (they are large and only the report needs
them); ``cgpm compare`` needs only the cells. A baseline is written whole into a temporary
sibling and renamed; an existing one is replaced only when asked.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from common.errors import ConfigError
from harness.bench import store

BASELINES = Path(__file__).resolve().parents[2] / "results" / "baselines"
BASELINE_FILES = (store.RUN_FILE, store.CELLS_PARQUET, store.CELLS_CSV)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def resolve_run(reference: str | Path, root: Path = BASELINES) -> Path:
    """A run or baseline directory: the path itself when it is one, else the baseline of that name."""
    path = Path(reference)
    if (path / store.RUN_FILE).exists():
        return path
    named = root / str(reference)
    if _NAME.match(str(reference)) and (named / store.RUN_FILE).exists():
        return named
    raise ConfigError(f"{reference} is neither a run directory nor a baseline in {root}")


def record_baseline(run_dir: str | Path, name: str, *, root: Path = BASELINES, replace: bool = False) -> Path:
    """Copy the run's run.json and cells into ``root/name``; returns that directory."""
    if not _NAME.match(name):
        raise ConfigError(f"baseline name {name!r} must be letters, digits, '.', '_' or '-'")
    run_dir = Path(run_dir)
    info = store.read_run_info(run_dir)
    if info.get("status") != "complete":
        raise ConfigError(f"{run_dir} is not a complete run (status {info.get('status')!r}); finish it before recording it")
    for file in BASELINE_FILES:
        if not (run_dir / file).is_file():
            raise ConfigError(f"{run_dir} has no {file}")
    target = root / name
    if target.exists() and not replace:
        raise ConfigError(f"baseline {target} exists; pass --replace to overwrite it")
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{name}.partial-", dir=root))
    try:
        for file in BASELINE_FILES:
            shutil.copy2(run_dir / file, building / file)
        if target.exists():
            shutil.rmtree(target)
        building.rename(target)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return target
