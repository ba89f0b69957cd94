"""Each triple's presence over the whole stream, as Spark rows ``(s, p, o, lo, hi)``: the instants at which it is in G(τ_i).

Instants are event positions ``0..n-1`` (the instant after event i is processed). DESIGN.md section 2,
"The same answers as intervals", read window by window:

- ``sliding(ω, x)``: an occurrence at event k with timestamp ts is present over ``[k, last(ts)]``,
  ``last(ts)`` the last position j with ``τ_b(τ_j) <= ts``. τ_b never decreases along the stream, so
  ``last`` is a binary search of the events' τ_b (done on the driver, one number per event: the
  rows themselves never leave Spark);
- ``event``: ``[k, k]``;
- ``unbounded``: the triple's state after event k is the effect of its *last* update in that event
  (inserting a present triple or deleting an absent one changes nothing), so it is present from an
  event whose last update inserts it, having been absent, until just before the next event whose
  last update deletes it;
- static triples: ``[0, n-1]``.

A triple seen several times has the union of its intervals (``merge_intervals``). With ``rdfs`` each
triple is replaced by its closure (``oracles.entailment.Entailer.triple_closure``): every rule has one
data premise, so the closure of G(τ) is the union of its triples' closures, and an entailed triple
is present exactly when one of the triples entailing it is.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from engines.model.stream import INSERT, Stream
from engines.model.stream import Window as StreamWindow
from oracles.spark.intervals import HI, LO, merge_intervals
from oracles.window import check_stream

TRIPLE = ["s", "p", "o"]
UPDATE_SCHEMA = "pos long, seq long, op int, s string, p string, o string, last long"
PRESENCE_SCHEMA = "s string, p string, o string, lo long, hi long"


def last_positions(timestamps: np.ndarray, window: StreamWindow) -> np.ndarray:
    """For each event position k, the last instant at which an occurrence at k is still in the window."""
    count = len(timestamps)
    if window.kind == "event":
        return np.arange(count, dtype=np.int64)
    if window.kind == "unbounded":
        return np.full(count, count - 1, dtype=np.int64)
    # τ_b(τ) = (⌊(τ − ω)/x⌋ + 1)·x, with numpy's floor division (Python's, also for negative τ − ω).
    starts = ((timestamps - window.range_ms) // window.slide_ms + 1) * window.slide_ms
    return np.searchsorted(starts, timestamps, side="right").astype(np.int64) - 1


def update_rows(stream: Stream, window: StreamWindow) -> pd.DataFrame:
    """The stream's updates as columns: event position, order in the event, op, the triple, last instant."""
    check_stream(stream.events, window)
    timestamps = np.fromiter((event.ts for event in stream.events), dtype=np.int64, count=len(stream.events))
    last = last_positions(timestamps, window)
    sizes = np.fromiter((len(event.updates) for event in stream.events), dtype=np.int64, count=len(stream.events))
    positions = np.repeat(np.arange(len(stream.events), dtype=np.int64), sizes)
    sequence = np.arange(int(sizes.sum()), dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    updates = [update for event in stream.events for update in event.updates]
    return pd.DataFrame({
        "pos": positions,
        "seq": sequence,
        "op": np.fromiter((u.op for u in updates), dtype=np.int32, count=len(updates)),
        "s": [u.s for u in updates],
        "p": [u.p for u in updates],
        "o": [u.o for u in updates],
        "last": last[positions],
    })


def _frame(spark, rows: pd.DataFrame, schema: str, partitions: int) -> DataFrame:
    if rows.empty:
        return spark.createDataFrame([], schema)
    return spark.createDataFrame(rows, schema).repartition(partitions)


def _windowed(updates: DataFrame) -> DataFrame:
    return updates.select(*TRIPLE, F.col("pos").alias(LO), F.col("last").alias(HI))


def _unbounded(updates: DataFrame, count: int) -> DataFrame:
    """Intervals from the state changes of each triple, its state after an event being its last update's op."""
    after_event = updates.groupBy(*TRIPLE, "pos").agg(F.max_by("op", "seq").alias("op"))
    by_position = Window.partitionBy(*TRIPLE).orderBy("pos")
    flagged = after_event.withColumn("_before", F.lag("op", 1, -INSERT).over(by_position))
    changes = flagged.where(F.col("op") != F.col("_before"))
    spans = changes.withColumn("_next", F.lead("pos").over(by_position))
    return spans.where(F.col("op") == INSERT).select(
        *TRIPLE, F.col("pos").alias(LO), F.coalesce(F.col("_next") - 1, F.lit(count - 1)).alias(HI)
    )


def _closure_rows(schema: tuple):
    def close(batches):
        from oracles.entailment import Entailer

        entailer = Entailer(schema)
        for batch in batches:
            out = {name: [] for name in ("s", "p", "o", "cs", "cp", "co")}
            for triple in zip(batch["s"], batch["p"], batch["o"]):
                for closed in entailer.triple_closure(triple):
                    for name, term in zip(("s", "p", "o", "cs", "cp", "co"), (*triple, *closed)):
                        out[name].append(term)
            yield pd.DataFrame(out)

    return close


def _entailed(presence: DataFrame, schema: tuple) -> DataFrame:
    triples = presence.select(*TRIPLE).distinct()
    closures = triples.mapInPandas(_closure_rows(schema), "s string, p string, o string, cs string, cp string, co string")
    joined = presence.join(closures, TRIPLE)
    return merge_intervals(joined.select(F.col("cs").alias("s"), F.col("cp").alias("p"), F.col("co").alias("o"), LO, HI), TRIPLE)


def triple_presence(spark, stream: Stream, window: StreamWindow, entailment: str = "none", partitions: int = 4) -> DataFrame:
    """``(s, p, o, lo, hi)``: every triple's presence, merged into maximal runs, with the static graph and RDFS closure."""
    count = len(stream.events)
    updates = _frame(spark, update_rows(stream, window), UPDATE_SCHEMA, partitions)
    intervals = _unbounded(updates, count) if window.kind == "unbounded" else _windowed(updates)
    if stream.static and count:
        static = pd.DataFrame(list(stream.static), columns=TRIPLE).assign(lo=0, hi=count - 1)
        intervals = intervals.unionByName(_frame(spark, static, PRESENCE_SCHEMA, 1))
    presence = merge_intervals(intervals, TRIPLE)
    if entailment == "rdfs":
        presence = _entailed(presence, tuple(stream.schema))
    return presence
