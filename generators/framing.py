"""What a generator is asked for (GeneratorSpec) and how its triples become numbered, timestamped events.

A generator makes *entities* (a UBA section, a taxi trip), each a list of triples, in *units*
(a university, a block of trips) whose rows depend only on (seed, unit); a unit knows where it
starts in the whole stream (its first entity and first triple, from the counts of the units before
it). Framing turns that into event rows without looking at any other unit, so the output is the
same whatever the partitioning:

- ``entity`` shape: one event per entity; ``triples:K``: event ``e`` holds triples ``[eK, eK+K)``.
- timestamps: with a rate ``R`` (triples per second of stream time) an event's ``ts`` is
  ``floor(first triple index · 1000 / R)`` ms; datasets with their own clock (taxi drop-off times)
  use it when no rate is given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np
import pyarrow as pa

from common.errors import GeneratorError

EVENT_SCHEMA = pa.schema([
    ("event", pa.int64()), ("ts", pa.int64()), ("op", pa.int8()),
    ("s", pa.string()), ("p", pa.string()), ("o", pa.string()),
])
SPARK_EVENT_SCHEMA = "event long, ts long, op byte, s string, p string, o string"
MAX_SEED = (1 << 31) - 1

_SHAPE = re.compile(r"^(entity|triples:(\d+))$")


@dataclass(frozen=True)
class EventShape:
    """``entity`` (one event per entity description) or ``triples`` with ``size`` K triples per event."""

    kind: str = "entity"
    size: int | None = None

    @classmethod
    def parse(cls, text: str) -> EventShape:
        match = _SHAPE.match(text.strip())
        if match is None or (match.group(2) is not None and int(match.group(2)) < 1):
            raise GeneratorError(f"bad event shape {text!r}: expected 'entity' or 'triples:K' with K >= 1")
        return cls("entity") if match.group(2) is None else cls("triples", int(match.group(2)))

    def __str__(self) -> str:
        return "entity" if self.kind == "entity" else f"triples:{self.size}"


@dataclass(frozen=True)
class GeneratorSpec:
    """Everything that decides a generated stream's rows (``partitions`` decides only how work is split)."""

    dataset: str
    scale: int
    seed: int = 0
    index: int = 0
    shape: EventShape = field(default_factory=EventShape)
    rate: float | None = None
    partitions: int | None = None
    options: tuple[tuple[str, object], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.scale, int) or self.scale < 1:
            raise GeneratorError(f"bad scale {self.scale!r} for {self.dataset}: it must be an integer >= 1")
        if not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise GeneratorError(f"bad seed {self.seed!r}: it must be an integer in [0, {MAX_SEED}]")
        if not isinstance(self.index, int) or self.index < 0:
            raise GeneratorError(f"bad start index {self.index!r}: it must be an integer >= 0")
        if self.rate is not None and not self.rate > 0:
            raise GeneratorError(f"bad rate {self.rate!r}: triples per second must be > 0")
        if self.partitions is not None and self.partitions < 1:
            raise GeneratorError(f"bad partition count {self.partitions!r}: it must be >= 1")

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)

    def with_partitions(self, partitions: int | None) -> GeneratorSpec:
        return replace(self, partitions=partitions)


def entity_events(sizes: np.ndarray, first_entity: int, first_triple: int, shape: EventShape):
    """Per row: the event number, and the global index of its event's first triple."""
    sizes = np.asarray(sizes, dtype=np.int64)
    rows = int(sizes.sum())
    if shape.kind == "entity":
        starts = first_triple + np.concatenate(([0], np.cumsum(sizes)[:-1])) if len(sizes) else sizes
        event = np.repeat(np.arange(first_entity, first_entity + len(sizes), dtype=np.int64), sizes)
        return event, np.repeat(starts, sizes)
    triple = np.arange(first_triple, first_triple + rows, dtype=np.int64)
    event = triple // shape.size
    return event, event * shape.size


def rate_timestamps(first_triples: np.ndarray, rate: float) -> np.ndarray:
    """``floor(first triple index · 1000 / rate)`` in ms, exact for integer rates."""
    if float(rate).is_integer():
        return (first_triples * 1000) // int(rate)
    return np.floor(first_triples * (1000.0 / rate)).astype(np.int64)


def event_batch(event: np.ndarray, ts: np.ndarray, s, p, o) -> pa.RecordBatch:
    """One Arrow batch in the stream's event schema, all inserts."""
    return pa.RecordBatch.from_arrays(
        [pa.array(event, pa.int64()), pa.array(ts, pa.int64()), pa.array(np.ones(len(event), np.int8), pa.int8()),
         pa.array(s, pa.string()), pa.array(p, pa.string()), pa.array(o, pa.string())],
        schema=EVENT_SCHEMA,
    )
