"""Each triple's presence over the whole stream, as Spark rows ``(s, p, o, lo, hi)``: the instants at which it is in G(τ_i).

Instants are event positions ``0..n-1`` (the instant after event i is processed). DESIGN.md section 2,
"The same answers as intervals", read window by window:

- ``sliding(ω, x)``: an occurrence at event k is present over ``[k, last]``, ``last`` its event's
  last instant in the window (``oracles.spark.timeline``, computed by Spark: no row and no
  timestamp comes to the driver);
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

import pandas as pd
from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from engines.model.stream import INSERT, Stream, Triple
from engines.model.stream import Window as StreamWindow
from oracles.spark.intervals import HI, LO, merge_intervals
from oracles.spark.timeline import LAST, POSITION, ROWS_SCHEMA, Timeline

TRIPLE = ["s", "p", "o"]
PRESENCE_SCHEMA = "s string, p string, o string, lo long, hi long"


def stream_rows(spark, stream: Stream, partitions: int) -> DataFrame:
    """A Stream held by the driver as the timeline's input rows (``event`` = position, ``seq`` = order in the event)."""
    rows = pd.DataFrame(
        [(position, event.ts, seq, update.op, *update.triple)
         for position, event in enumerate(stream.events) for seq, update in enumerate(event.updates)],
        columns=["event", "ts", "seq", "op", *TRIPLE],
    )
    return _frame(spark, rows, ROWS_SCHEMA, partitions)


def _frame(spark, rows: pd.DataFrame, schema: str, partitions: int) -> DataFrame:
    if rows.empty:
        return spark.createDataFrame([], schema)
    return spark.createDataFrame(rows, schema).repartition(partitions)


def _windowed(updates: DataFrame) -> DataFrame:
    return updates.select(*TRIPLE, F.col(POSITION).alias(LO), F.col(LAST).alias(HI))


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


def triple_presence(spark, timeline: Timeline, static: tuple[Triple, ...], schema: tuple[Triple, ...],
                    window: StreamWindow, entailment: str = "none") -> DataFrame:
    """``(s, p, o, lo, hi)``: every triple's presence, merged into maximal runs, with the static graph and RDFS closure."""
    count = timeline.count
    updates = timeline.updates
    intervals = _unbounded(updates, count) if window.kind == "unbounded" else _windowed(updates)
    if static and count:
        rows = pd.DataFrame(list(static), columns=TRIPLE).assign(lo=0, hi=count - 1)
        intervals = intervals.unionByName(_frame(spark, rows, PRESENCE_SCHEMA, 1))
    presence = merge_intervals(intervals, TRIPLE)
    if entailment == "rdfs":
        presence = _entailed(presence, tuple(schema))
    return presence
