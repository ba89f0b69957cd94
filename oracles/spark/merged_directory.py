"""Several stream directories read by Spark's executors as one row set, its events numbered in the merged instant order of DESIGN.md section 2.

Several streams: instants are the events of all the query's streams merged by timestamp; of events
with equal timestamps on two streams, the stream the query declares first comes first, and within a
stream, stream order (``harness.streams.merged`` makes the same merge in the driver). Each directory
is read as ``oracles.spark.directory`` reads one (rows never pass through the driver, terms
canonical, the same refusals, each stream checked against the window that reads it), its events
numbered within it (``oracles.spark.timeline.event_positions``); then the events of every stream are
ordered by (timestamp, declaration rank, position in their stream) and numbered by a running count
(``oracles.spark.ordering``). That number is each row's ``event``, and the rows carry their stream's
IRI, as ``oracles.spark.named.merged_rows`` makes them from a merge held in memory, so the plan that
follows is the one both other entries run. Static graph and schema are all the streams' together.
For several queries registered together (``merge_order``), the merge is of every stream any of them reads,
in the union's order; a stream this query does not read only adds instants, at which its windows slide.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import reduce

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import StreamError
from engines.model.stream import ContinuousQuery, Triple
from oracles.spark.directory import check_rows, check_timeline, read_directory
from oracles.spark.ordering import running_count
from oracles.spark.timeline import POSITION, Timeline, event_positions

_RANK, _WITHIN, _MERGED = "_rank", "_within", "_merged"


@dataclass(frozen=True)
class MergedRows:
    """The merged streams' rows ``event, ts, seq, op, s, p, o, stream`` (``event``: the instant), and how many instants."""

    rows: DataFrame
    count: int
    static: tuple[Triple, ...]
    schema: tuple[Triple, ...]


def stream_locations(query: ContinuousQuery, locations: str | os.PathLike | Mapping,
                     merge_order: Sequence[str] | None = None) -> dict[str, str]:
    """The directory of each stream merged (the query's, or every one of ``merge_order``), in merge order: from a mapping
    IRI -> directory, or one directory for a query whose windows all read one stream; StreamError naming the stream
    without one."""
    if not isinstance(locations, Mapping):
        if len(query.streams) != 1:
            reads = ", ".join(f"<{iri}>" for iri in query.streams)
            raise StreamError(f"query {query.name} reads {len(query.streams)} streams ({reads}): give a directory per "
                              "stream IRI, not one directory")
        return {query.streams[0]: os.fspath(locations)}
    for named in query.named_windows:
        if named.stream not in locations:
            raise StreamError(f"the window {named.name} of query {query.name} reads <{named.stream}>, which has no directory")
    order = query.streams if merge_order is None else tuple(merge_order)
    left_out = next((iri for iri in query.streams if iri not in order), None)
    if left_out is not None:
        raise StreamError(f"the merge order leaves out <{left_out}>, which query {query.name} reads")
    for iri in order:
        if iri not in locations:
            raise StreamError(f"the merge of query {query.name}'s instants takes <{iri}>, which has no directory")
    return {iri: os.fspath(locations[iri]) for iri in order}


def merged_directories(spark, query: ContinuousQuery, locations: str | os.PathLike | Mapping, *, ranges: int,
                       max_events: int | None = None, validate: bool = True,
                       merge_order: Sequence[str] | None = None) -> MergedRows:
    """The streams of ``query``'s named windows, one directory each, merged into instants (the first ``max_events`` of them)."""
    keyed_rows, keyed_events, counts, statics, schemas = [], [], [], [], []
    for rank, (iri, location) in enumerate(stream_locations(query, locations, merge_order).items()):
        source = read_directory(spark, location, validate=validate)
        # named windows are insert-only: the stream is checked against the (bounded) window reading it
        # (a stream only another query reads: any of this query's windows, all sliding, refuses deletions)
        window = next((named.window for named in query.named_windows if named.stream == iri),
                      query.named_windows[0].window)
        known = check_rows(source.rows, window) if validate else None
        events, count = event_positions(source.rows, ranges, None, known)
        if validate:
            check_timeline(Timeline(source.rows, events, count))
        keyed_events.append(events.select("event", "ts", F.lit(rank).alias(_RANK), F.col(POSITION).alias(_WITHIN)))
        keyed_rows.append(source.rows.withColumn(_RANK, F.lit(rank)).withColumn("stream", F.lit(iri)))
        counts.append(count)
        statics.append(source.static)
        schemas.append(source.schema)
    every_event = reduce(DataFrame.unionByName, keyed_events)
    numbered, _ = running_count(every_event, ["ts", _RANK, _WITHIN], F.lit(True), "_number", ranges)
    merged = numbered.select("event", _RANK, (F.col("_number") - 1).alias(_MERGED))
    total = sum(counts)
    if max_events is not None and max_events < total:
        merged, total = merged.where(F.col(_MERGED) < max_events), max(0, max_events)
    rows = reduce(DataFrame.unionByName, keyed_rows).join(merged, ["event", _RANK]).select(
        F.col(_MERGED).alias("event"), "ts", "seq", "op", "s", "p", "o", "stream")
    return MergedRows(rows, total, _union(statics), _union(schemas))


def _union(parts) -> tuple:
    return tuple(dict.fromkeys(itertools.chain.from_iterable(parts)))
