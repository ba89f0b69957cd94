"""Where each update row sits on the stream's timeline: its event's position (instant) and the last instant its occurrence stays in the window, all computed by Spark.

Input rows are ``event, ts, seq, op, s, p, o`` (``ROWS_SCHEMA``): ``event`` is only a non-decreasing
grouping key (``harness.streams.table``), so an event's *position* is the number of distinct
``event`` values below its own, a running count over the events in that order
(``oracles.spark.ordering``). ``seq`` orders the rows of one event.

The last instant of an occurrence at position k with timestamp ts is the last position j with
``τ_b(τ_j) <= ts`` (DESIGN.md section 2, "The same answers as intervals"):

- ``sliding(ω, x)``: ``τ_b(τ_j) = (⌊(τ_j − ω)/x⌋ + 1)·x <= ts`` holds exactly when
  ``τ_j < x·⌊ts/x⌋ + ω`` (an integer multiple of x is at most ts iff it is at most x·⌊ts/x⌋). Timestamps
  never decrease along the stream, so the last such j is the number of events with a timestamp
  below that bound, minus one: a running count over events and bounds ordered together, a bound
  before the events with its own value (the inequality is strict). Never before k, since ω >= x;
- ``event``: k itself;
- ``unbounded``: the last instant (the presence then follows the triple's inserts and deletes).
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from engines.model.stream import Window as StreamWindow
from oracles.spark.ordering import running_count

ROWS_SCHEMA = "event long, ts long, seq long, op int, s string, p string, o string"
POSITION, LAST = "pos", "last"


@dataclass(frozen=True)
class Timeline:
    """``updates``: ``pos, seq, op, s, p, o, last`` for the first ``count`` events; ``events``: ``event, pos, ts, ts_max, last``."""

    updates: DataFrame
    events: DataFrame
    count: int


def event_positions(rows: DataFrame, ranges: int, max_events: int | None = None, count: int | None = None) -> tuple[DataFrame, int]:
    """``event, pos, ts, ts_max`` for the first ``max_events`` events (all by default), and how many there are
    (``count``, the number of events when the caller knows it, saves a job)."""
    events = rows.groupBy("event").agg(F.min("ts").alias("ts"), F.max("ts").alias("ts_max"))
    numbered, total = running_count(events, ["event"], F.lit(True), "_number", ranges)
    if total is None:
        total = count if count is not None else events.count()
    positioned = numbered.withColumn(POSITION, F.col("_number") - 1).drop("_number")
    if max_events is not None and max_events < total:
        return positioned.where(F.col(POSITION) < max_events), max(0, max_events)
    return positioned, total


def last_instants(events: DataFrame, window: StreamWindow, count: int, ranges: int) -> DataFrame:
    """``events`` with ``last``: the last instant at which an occurrence in that event is in the window."""
    if window.kind == "event":
        return events.withColumn(LAST, F.col(POSITION))
    if window.kind != "sliding":
        return events.withColumn(LAST, F.lit(count - 1).cast("long"))
    bound = F.col("ts") - F.pmod(F.col("ts"), F.lit(window.slide_ms)) + F.lit(window.range_ms)
    marks = events.select(F.col("ts").alias("_at"), F.lit(1).alias("_kind"), F.lit(None).cast("long").alias(POSITION))
    asks = events.select(bound.alias("_at"), F.lit(0).alias("_kind"), F.col(POSITION))
    counted, _ = running_count(marks.unionByName(asks), ["_at", "_kind"], F.col("_kind") == 1, "_before", ranges)
    last = counted.where(F.col("_kind") == 0).select(POSITION, (F.col("_before") - 1).alias(LAST))
    return events.join(last, POSITION)


def timeline(rows: DataFrame, window: StreamWindow, ranges: int = 1, max_events: int | None = None,
             count: int | None = None) -> Timeline:
    """The rows of the first ``max_events`` events with their position and last instant (``ranges``: see ``running_count``;
    ``count``: the number of events, when known)."""
    events, count = event_positions(rows, ranges, max_events, count)
    events = last_instants(events, window, count, ranges)
    updates = rows.join(events.select("event", POSITION, LAST), "event").select(POSITION, "seq", "op", "s", "p", "o", LAST)
    return Timeline(updates, events, count)
