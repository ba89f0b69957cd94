"""Every run in a results folder is found by its run file, whatever the folder's layout, and read the same way.

A run is a ``run.json`` (schema ``cgpm-bench-run/1``) and the files beside it. Two layouts exist:
a folder of its own (``run.json``, ``summary.csv``, ``repetitions.csv`` or ``cells.csv`` /
``cells.parquet``, PNG figures, Markdown), or several runs sharing one folder as prefixed files
(``windows.run.json`` with ``windows.cells.csv``; ``footprint-run.json`` with ``footprint-cells.csv``).
A run's per-repetition table, when it has one, is the truth; its summary is then recomputed from
it when no ``summary.csv`` was published.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pandas as pd

from common.errors import ConfigError
from harness.bench import store

RUN_SUFFIXES = (".run.json", "-run.json")
REPETITION_FILES = ("repetitions.csv", store.CELLS_PARQUET, store.CELLS_CSV)


@dataclass(frozen=True)
class Run:
    run_file: Path
    info: dict

    @property
    def is_bench_run(self) -> bool:
        """Made by ``cgpm bench`` (its schema): False for a folder a script wrote with a run.json of its own making,
        which is shown as published but has no cells to summarise or to keep in a history."""
        return self.info.get("schema_version") == store.SCHEMA_VERSION

    @property
    def folder(self) -> Path:
        return self.run_file.parent

    @property
    def prefix(self) -> str:
        """What the run's own files start with: ``""`` in a folder of its own, ``windows.`` or ``footprint-`` else."""
        name = self.run_file.name
        return "" if name == store.RUN_FILE else name[: -len("run.json")]

    @property
    def run_id(self) -> str:
        """Its run file's ``run_id``, else its name: the prefix's stem in a shared folder, the folder's own else."""
        return str(self.info.get("run_id") or self.prefix.rstrip(".-") or self.folder.name)

    @property
    def benchmark(self) -> str:
        """The benchmark's name: its configuration's, which stays the same from one commit to the next."""
        return str(self.info.get("config", {}).get("name") or self.run_id)

    @property
    def commit(self) -> str:
        """The commit that keys the run in a history (``unknown`` when none is recorded)."""
        return str(self.info.get("git", {}).get("commit") or "unknown")

    @property
    def commits(self) -> tuple[str, ...]:
        """Every commit the run file records: its own (``git.commit``), else each of its parts' (a script that
        records one per stream, as ``cgpm-generation-bench/1`` does), in order, once each."""
        own = (self.info.get("git") or {}).get("commit")
        if own:
            return (str(own),)
        parts = [part for part in (self.info.get("streams") or {}).values() if isinstance(part, dict)]
        return tuple(dict.fromkeys(str(part["git"]["commit"]) for part in parts
                                   if isinstance(part.get("git"), dict) and part["git"].get("commit")))

    @property
    def machine(self) -> dict:
        """The machine the run file records: its own, else its first part's (one per stream), else ``{}``."""
        if self.info.get("machine"):
            return self.info["machine"]
        parts = [part for part in (self.info.get("streams") or {}).values() if isinstance(part, dict)]
        return next((part["machine"] for part in parts if isinstance(part.get("machine"), dict)), {})

    @property
    def commit_text(self) -> str:
        """The commits as a reader sees them: ``1f6d286155``, ``bf8e48befc, 0d1e2f3a4b``, or ``not recorded``."""
        return ", ".join(commit[:10] for commit in self.commits) or "not recorded"

    @property
    def location(self) -> Path:
        """The run as a claim file names it: its folder, plus its prefix's stem in a shared folder
        (``results/published/sparkwave/static`` for ``sparkwave/static.run.json``)."""
        return self.folder / self.prefix.rstrip(".-") if self.prefix else self.folder

    def file(self, name: str) -> Path | None:
        path = self.folder / f"{self.prefix}{name}"
        return path if path.is_file() else None

    def own_files(self, suffix: str) -> list[Path]:
        """The run's files ending in ``suffix``: its folder's, or those with its prefix in a shared folder."""
        stem = self.prefix.rstrip(".-")
        return sorted(path for path in self.folder.glob(f"{stem}*{suffix}") if path.is_file())

    @cached_property
    def repetitions(self) -> pd.DataFrame | None:
        """One row per cell repetition, or None when only medians were published."""
        if not self.is_bench_run:
            return None
        for name in REPETITION_FILES:
            path = self.file(name)
            if path is not None:
                return pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
        return None

    @cached_property
    def summary(self) -> pd.DataFrame:
        """One row per cell (``harness.bench.summary.per_cell``): published, or recomputed from the repetitions."""
        from harness.bench.summary import per_cell

        path = self.file("summary.csv")
        if path is not None and self.is_bench_run:
            return pd.read_csv(path)
        if self.repetitions is not None:
            return per_cell(self.repetitions)
        return pd.DataFrame(columns=["cell_id", "engine", "query", "window", "status"])


def timed_out_bounds(run: Run, metric: str = "triples_per_s") -> pd.Series:
    """Cell id -> the most a cell that timed out with no finished repetition can have reached of ``metric`` (a rate):
    the median of its repetitions' upper bounds, bounded as the claims bound it (``harness.claims.ratios.side``)."""
    from harness.claims import ratios

    repetitions = run.repetitions
    if repetitions is None or metric not in repetitions or "status" not in repetitions:
        return pd.Series(dtype=float)
    timeout_s = (run.info.get("config") or {}).get("timeout_s")
    bounds = {}
    for cell_id, rows in repetitions.groupby("cell_id", sort=False):
        if (rows["status"] == "ok").any() or not rows["status"].astype(str).str.contains("timeout").any():
            continue
        kind, values = ratios.side(rows, metric, timeout_s)
        if kind == ratios.UPPER:
            bounds[cell_id] = float(values.median())
    return pd.Series(bounds, dtype=float)


def read_run(run_file: Path, bench_only: bool = True) -> Run:
    """The run of ``run_file``; with ``bench_only``, one that ``cgpm bench`` made (else a ConfigError)."""
    try:
        info = json.loads(run_file.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ConfigError(f"cannot read {run_file}: {error}") from None
    if not isinstance(info, dict):
        raise ConfigError(f"{run_file} is not a JSON object")
    run = Run(run_file, info)
    if bench_only and "schema_version" not in info:
        raise ConfigError(f"{run_file} was not written by cgpm bench (it has no schema_version): no cells to read")
    if bench_only and not run.is_bench_run:
        raise ConfigError(f"{run_file} has schema {info.get('schema_version')!r}; this cgpm reads {store.SCHEMA_VERSION!r}")
    return run


def open_run(path: str | Path) -> Run:
    """A run named by its directory (holding ``run.json``) or by its run file."""
    path = Path(path)
    if path.is_dir():
        if not (path / store.RUN_FILE).is_file():
            raise ConfigError(f"{path} is not a benchmark run: it has no {store.RUN_FILE}")
        return read_run(path / store.RUN_FILE)
    if path.is_file() and path.name.endswith("run.json"):
        return read_run(path)
    raise ConfigError(f"{path} is neither a run directory nor a run file (*run.json)")


def find_runs(results: str | Path) -> list[Run]:
    """Every run under ``results``, in path order (a run's ``parts/`` and ``report/`` are not looked into), those
    a script made with a run.json of its own included (``Run.is_bench_run`` tells them apart)."""
    results = Path(results)
    if not results.is_dir():
        raise ConfigError(f"results folder {results} does not exist")
    found = []
    for path in sorted(results.rglob("*run.json")):
        relative = path.relative_to(results).parts
        if "parts" in relative or "report" in relative:
            continue
        if path.name == store.RUN_FILE or path.name.endswith(RUN_SUFFIXES):
            found.append(read_run(path, bench_only=False))
    return found
