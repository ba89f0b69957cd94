"""A bench task is one typed record from where the run makes it to the process that measures or verifies it.

The run (``harness.bench.execute``) makes a ``CellTask`` per timed repetition and per verified cell, from the
configuration and the matrix's ``Cell``, and nothing downstream reads the configuration again: a runner hands
the record to a fresh process (pickled by ``multiprocessing`` or by Spark, the same code on both ends), and the
cell code reads its fields.

One boundary crosses code versions: ``cgpm regress --against REV`` runs a task with another checkout's code
(``harness.bench.checkout_runner``), which may predate this record. There the task travels as its *wire form*,
the plain dict every checkout's ``run_task`` has read (``cell`` as ``Cell.as_json()``, ``cell_id`` beside it), and
``CellTask.of`` parses it back once, where it enters. Keys a newer checkout adds are ignored by an older one and
default here, so the two revisions of a comparison need not agree on the record's fields.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields, replace
from typing import Any

from common.errors import ConfigError
from harness.bench.matrix import Cell
from harness.bench.quiet import NOISY_LOAD, NOISY_STEAL

KINDS = ("time", "verify")


@dataclass(frozen=True)
class CellTask:
    """What one process needs to measure one repetition of a cell (``kind='time'``) or verify it (``'verify'``)."""

    kind: str
    cell: Cell
    repetition: int | str  # the repetition's number; ``store.VERIFY_PART`` for a verify task
    warmup: int = 0  # untimed passes with throw-away engines before the timed ones
    min_time_s: float = 0.0  # a short cell's passes are repeated until their loop lasts this long
    rate: float = 0.0  # events per second of the paced loop (0: as fast as the engine takes them)
    rate_lag_s: float = 1.0  # how far a paced loop may fall behind its schedule before it says so
    timeout_s: float = 600.0  # per pass; the runner's hard deadline is derived from it (runners.hard_deadline_s)
    memory_bytes: int = 4096 * 2**20  # the RSS cap the sampler enforces
    rss_hz: float = 20.0
    verify_every: int = 1  # a verify task checks every k-th instant
    oracle: str = "rdflib"  # a verify task's oracle, decided already (never ``auto`` by the time it runs)
    progress_path: str | None = None  # where a timed task writes "done total" as it goes
    noisy_load: float = NOISY_LOAD  # harness.bench.quiet
    noisy_steal: float = NOISY_STEAL
    spark_master: str | None = None  # where an engine that is a Spark query (spark-streaming) runs its session

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ConfigError(f"a bench task's kind must be one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def cell_id(self) -> str:
        return self.cell.cell_id

    @property
    def is_split(self) -> bool:
        """A timed repetition of a cell whose stream is split into partitions: the driver runs it
        (``harness.bench.split_cell``), since a task cannot start Spark tasks."""
        return self.kind == "time" and self.cell.partitions > 0

    def with_oracle(self, oracle: str) -> CellTask:
        return replace(self, oracle=oracle)

    def wire(self) -> dict[str, Any]:
        """The plain dict any checkout's ``run_task`` reads (the form tasks had before this record)."""
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        data["cell"] = self.cell.as_json()
        data["cell_id"] = self.cell_id
        return data

    @classmethod
    def of(cls, task: CellTask | dict[str, Any]) -> CellTask:
        """The record itself, or parsed from its wire form: absent keys default, keys it does not know (a newer
        checkout's) are ignored, and a wire form without its kind or cell is refused by name."""
        if isinstance(task, CellTask):
            return task
        missing = [key for key in ("kind", "cell", "repetition") if key not in task]
        if missing:
            raise ConfigError(f"a bench task lacks {', '.join(missing)} (keys given: {', '.join(sorted(task))})")
        known = {field.name for field in fields(cls)}
        values = {key: value for key, value in task.items() if key in known}
        values["cell"] = cell_of(task["cell"])
        return cls(**values)


def cell_of(data: Cell | dict[str, Any]) -> Cell:
    """A ``Cell`` from ``Cell.as_json()`` (or JSON of it: named streams as lists); as for the task, keys it does not
    know are ignored and a key it needs is refused by name."""
    if isinstance(data, Cell):
        return data
    needed = [field.name for field in fields(Cell) if field.default is MISSING]
    missing = [key for key in needed if key not in data]
    if missing:
        raise ConfigError(f"a bench cell lacks {', '.join(missing)} (keys given: {', '.join(sorted(data))})")
    known = {field.name for field in fields(Cell)}
    values = {key: value for key, value in data.items() if key in known}
    values["streams"] = tuple(tuple(stream) for stream in data.get("streams", ()))
    return Cell(**values)
