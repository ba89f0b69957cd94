"""The whole answer history of a query over a stream from one Spark job: Δ⁺ and Δ⁻ at every instant, then M(τ_i) wherever asked.

A full mapping is in M(τ_i) iff one of its matches is present at i (DESIGN.md section 2, set
semantics), so its lifetime is the union of its matches' intervals, merged into maximal runs.
A run ``[lo, hi]`` adds the mapping at instant ``lo`` and removes it at ``hi + 1`` (unless the
stream ends first). Those changes are the only rows brought back to the driver: ``oracle_answers``
streams them in instant order and replays them (``oracles.spark.replay``) to give
``(event index, ts, M(τ))`` exactly as ``oracles.evaluate.oracle_answers`` does, so the harness can
use either; ``answer_history`` collects them whole, for a benchmark that asks for instants at random.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import WindowError
from engines.model.stream import ContinuousQuery, Mapping, Stream
from oracles import OracleLimitation
from oracles.named_windows import check_merged
from oracles.spark.intervals import HI, LO, merge_intervals
from oracles.spark.matching import column_names, matches
from oracles.spark.named import merged_rows, pattern_presences
from oracles.spark.presence import stream_rows, triple_presence
from oracles.spark.replay import WantedInstants, refused, replay, streamed, timed_changes
from oracles.spark.timeline import POSITION, timeline
from oracles.window import check_stream

ROWS_PER_PARTITION = 200_000  # below this a single partition: a small stream's cost is the number of tasks
_UNIT = "_unit"  # the key of the one mapping of a query without variables


@dataclass
class AnswerHistory:
    """Per event position, the mappings that start and stop being answers there (at most one of each per mapping)."""

    count: int
    added: dict[int, list[Mapping]]
    removed: dict[int, list[Mapping]]

    def answers(self, positions: Iterable[int] | Callable[[int], bool] | None = None) -> Iterator[tuple[int, frozenset[Mapping]]]:
        """``(position, M)`` at every position, or at those asked for (``replay.WantedInstants``), replaying the changes in order."""
        wanted = WantedInstants(positions, self.count)
        current: set[Mapping] = set()
        for position in range(self.count):
            current.difference_update(self.removed.get(position, ()))
            current.update(self.added.get(position, ()))
            if wanted(position):
                yield position, frozenset(current)


def lifetimes(presence: DataFrame | list[DataFrame], query: ContinuousQuery) -> DataFrame:
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


@dataclass(frozen=True)
class Plan:
    """The lazy answer changes of one query over one stream: ``changes`` ``(at, sign, v0…)``, ``events``
    ``(pos, ts)``, ``count`` instants, ``keys`` the columns of the query's variables."""

    changes: DataFrame
    events: DataFrame
    count: int
    keys: list[str]


def plan(spark, query: ContinuousQuery, rows: DataFrame, static: tuple, schema: tuple, *,
         ranges: int = 1, max_events: int | None = None, count: int | None = None, check=None) -> Plan:
    """The one plan both entries run: timeline, presences, matches, lifetimes, changes (``check(timeline)`` refuses bad rows first)."""
    if query.named_windows:
        if "stream" not in rows.columns:  # the entries give merged rows (in memory, or a directory per stream)
            raise OracleLimitation(f"the Spark oracle reads a query over named windows ({query.name}) from merged rows "
                                   "that carry each row's stream")
        presences, events = pattern_presences(spark, query, rows, static, schema, count, ranges)
        keys = list(column_names(query).values())
        return Plan(changes(lifetimes(presences, query), keys or [_UNIT], count), events, count, keys)
    line = timeline(rows, query.window, ranges, max_events, count)
    if check is not None:
        check(line)
    keys = list(column_names(query).values())
    presence = triple_presence(spark, line, static, schema, query.window, query.entailment)
    found = changes(lifetimes(presence, query), keys or [_UNIT], line.count)
    return Plan(found, line.events.select(POSITION, "ts"), line.count, keys)


def _stream_plan(spark, query: ContinuousQuery, stream: Stream, partitions: int | None = None) -> Plan:
    if query.named_windows:
        check_merged(stream.events)
    else:
        check_stream(stream.events, query.window)
    small = stream.triple_count < ROWS_PER_PARTITION
    if partitions is None:
        partitions = 1 if small else max(2, spark.sparkContext.defaultParallelism) * 2
    rows = (merged_rows if query.named_windows else stream_rows)(spark, stream, partitions)
    return plan(spark, query, rows, tuple(stream.static), tuple(stream.schema), ranges=1 if small else partitions,
                count=len(stream.events))


def answer_history(spark, query: ContinuousQuery, stream: Stream, partitions: int | None = None) -> AnswerHistory:
    """Compute every instant's Δ⁺ and Δ⁻ of ``query`` over ``stream`` on ``spark``, collected on the driver in one job."""
    if not stream.events:
        return AnswerHistory(0, {}, {})
    found = _stream_plan(spark, query, stream, partitions)
    table = _collect(found.changes)
    added: dict[int, list[Mapping]] = {}
    removed: dict[int, list[Mapping]] = {}
    at = table.column("at").to_numpy()
    signs = table.column("sign").to_numpy()
    terms = [table.column(key).to_pylist() for key in found.keys]
    mappings = list(zip(*terms)) if found.keys else [()] * len(at)
    for row in np.argsort(at, kind="stable"):
        (added if signs[row] > 0 else removed).setdefault(int(at[row]), []).append(mappings[row])
    return AnswerHistory(found.count, added, removed)


def _collect(frame: DataFrame):
    """The rows as a pyarrow Table."""
    try:
        return frame.toArrow()
    except Exception as error:
        as_limitation = refused(error)
        if as_limitation is error:
            raise
        raise as_limitation from None


def oracle_answers(
    spark, query: ContinuousQuery, stream: Stream, instants: Iterable[int] | Callable[[int], bool] | None = None
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(event_index, ts, M(τ))`` after each event or the events with the given indices, as ``oracles.evaluate`` gives them.

    The answers stream back in instant order (``oracles.spark.replay``), as over a directory; ``instants``
    are event indices, in increasing order or as a rule (``replay.WantedInstants``)."""
    events = stream.events
    numbered = all(event.index == position for position, event in enumerate(events))
    if not numbered:
        # indices other than positions are mapped to them (the stream is in memory: so is this map)
        position_of = {event.index: position for position, event in enumerate(events)}
        instants = _positions(instants, position_of)
    wanted = WantedInstants(instants, len(events))
    if not events:
        return
    found = _stream_plan(spark, query, stream)
    for position, _, answers in replay(streamed(timed_changes(found)), found.keys, wanted):
        yield events[position].index, events[position].ts, answers


def _positions(instants, position_of: dict[int, int]):
    if instants is None:
        return None
    if callable(instants):
        index_at = {position: index for index, position in position_of.items()}
        return lambda position: instants(index_at[position])
    wanted = sorted(set(instants))
    missing = [index for index in wanted if index not in position_of]
    if missing:
        raise WindowError(f"no event with index {missing[0]} in the stream")
    return [position_of[index] for index in wanted]
