"""The Spark oracle over a stream directory, its answers streamed to the driver in instant order: the driver holds M(τ) and a partition of rows, never the stream or its history.

``oracle_answers_from_directory`` reads the directory on the executors (``oracles.spark.directory``;
for a query over named windows, a directory per stream, merged there: ``oracles.spark.merged_directory``),
runs the plan both entries share (``oracles.spark.history.plan``), and brings back one sorted frame
of answer changes and instants, a partition at a time (``oracles.spark.replay``), so M(τ) is
replayed with no more on the driver than the answers themselves and one or two partitions; the
instants asked for (all, a rule, or increasing event indices) are followed as the frame passes,
never gathered into a set.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Mapping as MappingOf

from common.errors import StreamError
from engines.model.stream import ContinuousQuery, Mapping
from oracles.spark.directory import check_rows, check_timeline, read_directory
from oracles.spark.history import plan
from oracles.spark.merged_directory import merged_directories
from oracles.spark.replay import WantedInstants, replay, streamed, timed_changes


def oracle_answers_from_directory(
    spark, query: ContinuousQuery, stream_dir: str | os.PathLike | MappingOf[str, str | os.PathLike],
    instants: Iterable[int] | Callable[[int], bool] | None = None, *, max_events: int | None = None, validate: bool = True,
    merge_order: Sequence[str] | None = None,
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``oracle_answers`` over the stream directory ``stream_dir`` (a path or URI Spark can read), or its first ``max_events`` events;
    for a query over named windows, over one directory per stream (stream IRI -> directory), merged on the executors
    (``oracles.spark.merged_directory``).

    Event indices are positions 0..n-1, as ``harness.streams.read_stream`` (or, merged, ``harness.streams.merged``)
    numbers them. ``validate=False`` trusts the rows (canonical terms, ops, timestamps), as ``read_stream`` does.
    ``merge_order``: the streams merged, by rank (default: the query's, in declaration order); with several queries
    registered together, the union of their streams, of which this query's windows read some.
    ``instants``: ``None`` (every instant), a rule ``wanted(index) -> bool``, or event indices in increasing order
    (an iterator is read alongside the answers; ``oracles.spark.replay.WantedInstants``).
    """
    ranges = int(spark.conf.get("spark.sql.shuffle.partitions"))
    if query.named_windows:
        merged = merged_directories(spark, query, stream_dir, ranges=ranges, max_events=max_events, validate=validate,
                                    merge_order=merge_order)
        found = plan(spark, query, merged.rows, merged.static, merged.schema, ranges=ranges, count=merged.count)
    else:
        if isinstance(stream_dir, MappingOf):
            if len(stream_dir) != 1:
                raise StreamError(f"query {query.name} has one window over one stream; {len(stream_dir)} directories were given")
            stream_dir = next(iter(stream_dir.values()))
        source = read_directory(spark, stream_dir, validate=validate)
        count = check_rows(source.rows, query.window) if validate else None
        found = plan(spark, query, source.rows, source.static, source.schema, ranges=ranges, max_events=max_events,
                     count=count, check=check_timeline if validate else None)
    wanted = WantedInstants(instants, found.count)
    if found.count:
        yield from replay(streamed(timed_changes(found)), found.keys, wanted)
