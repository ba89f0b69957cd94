"""The Spark oracle over a stream directory, its answers streamed to the driver in instant order: the driver holds M(τ) and a partition of rows, never the stream or its history.

``oracle_answers_from_directory`` reads the directory on the executors (``oracles.spark.directory``;
for a query over named windows, a directory per stream, merged there: ``oracles.spark.merged_directory``),
runs the plan both entries share (``oracles.spark.history.plan``), and brings back one sorted frame:
each answer change ``(at, sign, mapping)`` and, after the changes of its instant, one row per instant
with its timestamp, range-partitioned by instant into partitions of ``INSTANTS_PER_PARTITION``
instants. ``toLocalIterator`` fetches it a partition at a time, so M(τ) is replayed with no more on
the driver than the answers themselves and one or two partitions.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from collections.abc import Mapping as MappingOf

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from common.errors import StreamError
from engines.model.stream import ContinuousQuery, Mapping
from oracles.spark.directory import check_rows, check_timeline, read_directory
from oracles.spark.history import Plan, plan, positions_of, streamed
from oracles.spark.merged_directory import merged_directories
from oracles.spark.timeline import POSITION

CHANGE, INSTANT = 0, 1  # an instant's changes sort before the instant itself
# toLocalIterator holds a partition (two, prefetching) in the driver's JVM: their size, not their number, is bounded
INSTANTS_PER_PARTITION = 200_000


def timed_changes(found: Plan) -> DataFrame:
    """``(at, kind, sign, ts, v0…)`` sorted by instant: the changes, then the instant's own row with its timestamp."""
    keys = found.keys
    changes = found.changes.select("at", F.lit(CHANGE).alias("kind"), "sign", F.lit(None).cast("long").alias("ts"), *keys)
    instants = found.events.select(
        F.col(POSITION).alias("at"), F.lit(INSTANT).alias("kind"), F.lit(0).alias("sign"), "ts",
        *(F.lit(None).cast("string").alias(key) for key in keys),
    )
    partitions = max(1, -(-found.count // INSTANTS_PER_PARTITION))
    return changes.unionByName(instants).repartitionByRange(partitions, "at", "kind").sortWithinPartitions("at", "kind")


def replay(rows: Iterable, keys: list[str], positions: Iterable[int] | None) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``(position, ts, M)`` at every instant row, or those at ``positions``, applying the change rows before it."""
    wanted = None if positions is None else set(positions)
    current: set[Mapping] = set()
    for row in rows:
        if row["kind"] == CHANGE:
            mapping = tuple(row[key] for key in keys)
            (current.add if row["sign"] > 0 else current.discard)(mapping)
        elif wanted is None or row["at"] in wanted:
            yield row["at"], row["ts"], frozenset(current)


def oracle_answers_from_directory(
    spark, query: ContinuousQuery, stream_dir: str | os.PathLike | MappingOf[str, str | os.PathLike],
    instants: Iterable[int] | None = None, *, max_events: int | None = None, validate: bool = True,
    merge_order: Sequence[str] | None = None,
) -> Iterator[tuple[int, int, frozenset[Mapping]]]:
    """``oracle_answers`` over the stream directory ``stream_dir`` (a path or URI Spark can read), or its first ``max_events`` events;
    for a query over named windows, over one directory per stream (stream IRI -> directory), merged on the executors
    (``oracles.spark.merged_directory``).

    Event indices are positions 0..n-1, as ``harness.streams.read_stream`` (or, merged, ``harness.streams.merged``)
    numbers them. ``validate=False`` trusts the rows (canonical terms, ops, timestamps), as ``read_stream`` does.
    ``merge_order``: the streams merged, by rank (default: the query's, in declaration order); with several queries
    registered together, the union of their streams, of which this query's windows read some.
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
    positions = positions_of(instants, lambda index: index if 0 <= index < found.count else None)
    if found.count:
        yield from replay(streamed(timed_changes(found)), found.keys, positions)
