"""The Spark oracle over named windows: one presence table per window, one for the static graph, each pattern matched against its own.

DESIGN.md section 2, Several streams, read as intervals. Instants are the positions of the merged
events (all streams); window k over stream s_k holds an occurrence of s_k at position p with timestamp
ts over ``[p, last_k]``, where ``last_k`` is the last position j of the merge with ``τ_b^k(τ_j) <= ts``:
the same running count as one window's (``oracles.spark.timeline.last_instants``), over every merged
event, since every window is evaluated at every instant. Static triples are present at every instant
in their own table; with ``rdfs`` each table is closed on its own. Matches, lifetimes and changes are
the one-window plan's (``oracles.spark.history``), with each pattern reading its graph's presences.
"""

from __future__ import annotations

import pandas as pd
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from engines.model.stream import ContinuousQuery, Stream, Update
from oracles.spark.intervals import HI, LO, merge_intervals
from oracles.spark.presence import PRESENCE_SCHEMA, TRIPLE, _entailed, _frame
from oracles.spark.timeline import LAST, POSITION, event_positions, last_instants

ROWS_SCHEMA = "event long, ts long, seq long, op int, s string, p string, o string, stream string"
_NO_UPDATE = Update(0, None, None, None)


def merged_rows(spark, stream: Stream, partitions: int) -> DataFrame:
    """The merged stream held by the driver as rows with their stream's IRI (``event`` = position in the merge)."""
    # an event without updates is an instant too: a row of no stream keeps its position (no window reads it)
    rows = pd.DataFrame(
        [(position, event.ts, seq, update.op, *update.triple, event.stream)
         for position, event in enumerate(stream.events)
         for seq, update in enumerate(event.updates or (_NO_UPDATE,))],
        columns=["event", "ts", "seq", "op", *TRIPLE, "stream"],
    )
    rows.loc[rows["s"].isna(), "stream"] = None
    return _frame(spark, rows, ROWS_SCHEMA, partitions)


def pattern_presences(spark, query: ContinuousQuery, rows: DataFrame, static: tuple, schema: tuple, count: int,
                      ranges: int = 1) -> tuple[list[DataFrame], DataFrame]:
    """Each pattern's presence table (its window's, or the static graph's), and the merged events ``(pos, ts)``."""
    events, count = event_positions(rows, ranges, None, count)
    graphs = []
    for named in query.named_windows:
        lasts = last_instants(events, named.window, count, ranges).select("event", POSITION, LAST)
        occurrences = rows.where(F.col("stream") == F.lit(named.stream)).join(lasts, "event")
        presence = merge_intervals(occurrences.select(*TRIPLE, F.col(POSITION).alias(LO), F.col(LAST).alias(HI)), TRIPLE)
        graphs.append(_entailed(presence, tuple(schema)) if query.entailment == "rdfs" else presence)
    static_rows = pd.DataFrame(list(static), columns=TRIPLE).assign(lo=0, hi=count - 1)
    static_presence = merge_intervals(_frame(spark, static_rows, PRESENCE_SCHEMA, 1), TRIPLE)
    if query.entailment == "rdfs":
        static_presence = _entailed(static_presence, tuple(schema))
    presences = [static_presence if k is None else graphs[k] for k in query.pattern_windows]
    return presences, events.select(POSITION, "ts")
