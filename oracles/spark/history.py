"""The whole answer history of a query over a stream from one Spark job: Δ⁺ and Δ⁻ at every instant, then M(τ_i) wherever asked.

A full mapping is in M(τ_i) iff one of its matches is present at i (DESIGN.md section 2, set
semantics), so its lifetime is the union of its matches' intervals, merged into maximal runs.
A run ``[lo, hi]`` adds the mapping at instant ``lo`` and removes it at ``hi + 1`` (unless the
stream ends first). Those changes are the only rows brought back to the driver, sorted by instant;
``oracle_answers`` replays them to give ``(event index, ts, M(τ))`` exactly as
``oracles.evaluate.oracle_answers`` does, so the harness can use either.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import WindowError
from engines.model.stream import ContinuousQuery, Mapping, Stream
from oracles import OracleLimitation
from oracles.spark.intervals import HI, LO, merge_intervals
from oracles.spark.matching import column_names, matches
from oracles.spark.presence import triple_presence

ROWS_PER_PARTITION = 200_000  # below this a single partition: a small stream's cost is the number of tasks
_UNIT = "_unit"  # the key of the one mapping of a query without variables


@dataclass
class AnswerHistory:
    """Per event position, the mappings that start and stop being answers there (at most one of each per mapping)."""

    count: int
    added: dict[int, list[Mapping]]
    removed: dict[int, list[Mapping]]

    def answers(self, positions: Iterable[int] | None = None) -> Iterator[tuple[int, frozenset[Mapping]]]:
        """``(position, M)`` at every position, or at the given ones, replaying the changes in order."""
        wanted = range(self.count) if positions is None else sorted(set(positions))
        current: set[Mapping] = set()
        replayed = 0
        for position in wanted:
            for step in range(replayed, position + 1):
                current.difference_update(self.removed.get(step, ()))
                current.update(self.added.get(step, ()))
            replayed = position + 1
            yield position, frozenset(current)


def lifetimes(presence: DataFrame, query: ContinuousQuery) -> DataFrame:
    """``(v0…, lo, hi)``: each full mapping's maximal runs of instants in M."""
    keys = list(column_names(query).values())
    rows = matches(presence, query)
    if not keys:
        rows, keys = rows.withColumn(_UNIT, F.lit(0)), [_UNIT]
    return merge_intervals(rows, keys)


def changes(runs: DataFrame, keys: list[str], count: int) -> DataFrame:
    """``(at, sign, v0…)``: +1 where a run starts, -1 the instant after it ends (runs reaching the last instant never end)."""
    starts = runs.select(F.col(LO).alias("at"), F.lit(1).alias("sign"), *keys)
    ends = runs.where(F.col(HI) < count - 1).select((F.col(HI) + 1).alias("at"), F.lit(-1).alias("sign"), *keys)
    return starts.unionByName(ends)


def answer_history(spark, query: ContinuousQuery, stream: Stream, partitions: int | None = None) -> AnswerHistory:
    """Compute every instant's Δ⁺ and Δ⁻ of ``query`` over ``stream`` on ``spark``."""
    count = len(stream.events)
    if count == 0:
        return AnswerHistory(0, {}, {})
    if partitions is None:
        partitions = 1 if stream.triple_count < ROWS_PER_PARTITION else max(2, spark.sparkContext.defaultParallelism) * 2
    presence = triple_presence(spark, stream, query.window, query.entailment, partitions)
    keys = list(column_names(query).values())
    runs = lifetimes(presence, query)
    table = _collect(changes(runs, keys or [_UNIT], count))
    added: dict[int, list[Mapping]] = {}
    removed: dict[int, list[Mapping]] = {}
    at = table.column("at").to_numpy()
    signs = table.column("sign").to_numpy()
    terms = [table.column(key).to_pylist() for key in keys]
    mappings = list(zip(*terms)) if keys else [()] * len(at)
    for row in np.argsort(at, kind="stable"):
        (added if signs[row] > 0 else removed).setdefault(int(at[row]), []).append(mappings[row])
    return AnswerHistory(count, added, removed)


def _collect(frame: DataFrame):
    """The rows as a pyarrow Table; a FILTER that the oracles refuse (OracleLimitation in a task) is refused here."""
    try:
        return frame.toArrow()
    except Exception as error:
        text = str(error)
        if "OracleLimitation" in text:
            reason = next((line for line in text.splitlines() if "OracleLimitation" in line), text.splitlines()[0])
            raise OracleLimitation(reason.split("OracleLimitation:", 1)[-1].strip()) from None
        raise


def oracle_answers(
    spark, query: ContinuousQuery, stream: Stream, instants: Iterable[int] | None = None
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(event_index, ts, M(τ))`` after each event or the events with the given indices, as ``oracles.evaluate`` gives them."""
    events = stream.events
    positions = None
    if instants is not None:
        position_of = {event.index: position for position, event in enumerate(events)}
        wanted = sorted(set(instants))
        missing = [index for index in wanted if index not in position_of]
        if missing:
            raise WindowError(f"no event with index {missing[0]} in the stream")
        positions = [position_of[index] for index in wanted]
    history = answer_history(spark, query, stream)
    for position, answers in history.answers(positions):
        yield events[position].index, events[position].ts, answers
