"""The join plan as one Structured Streaming query: streaming scans, stream-stream and stream-static joins, FILTER columns, ISTREAM state.

Every part of the BGP is a pair: its *stream* rows (at least one triple from the stream; columns
``v0..vn`` for the variables bound so far, ``tmin``/``tmax`` the oldest and newest of its stream triples'
timestamps, ``w`` the watermarked event time of one of them) and its *static* rows (every triple
from the static graph: a batch DataFrame, or None when the static graph has none). Joining part
``(S, B)`` with a pattern ``(S', B')`` gives ``(S⋈S' ∪ S⋈B' ∪ B⋈S', B⋈B')``: one stream-stream join
with the window's event-time conditions (``engines.spark_streaming.timing``), two stream-static joins
and a batch join. What stays static at the end (every triple static) is in every window: the engine
reports it at the first tick, and the stream rows of such a mapping are dropped (a left anti join), so
ISTREAM (``engines.spark_streaming.istream``) runs over the rest. FILTER conjuncts are column
expressions: string comparisons where the plan found them native, the project's FILTER model in a
vectorised UDF otherwise (``engines.spark_streaming.plan``).
"""

from __future__ import annotations

from functools import lru_cache

import pandas as pd
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F
from pyspark.sql.streaming.state import GroupStateTimeout

from engines.model.filters import compile_filter
from engines.spark_streaming.istream import new_ticks
from engines.spark_streaming.plan import JoinPlan, NativeFilter, Scan, column
from engines.spark_streaming.timing import Timing

EVENT_SCHEMA = "ts BIGINT, s STRING, p STRING, o STRING"
TIMES = ("tmin", "tmax", "w")


@lru_cache(maxsize=256)
def _test(expr, names: tuple[str, ...]):
    return compile_filter(expr, names)


def _udf_filter(expr, names: tuple[str, ...]):
    """A conjunct evaluated by ``engines.model.filters`` on each row's terms (columns in ``names`` order)."""
    @F.pandas_udf("boolean")
    def holds(*terms: pd.Series) -> pd.Series:
        test = _test(expr, names)
        return pd.Series([bool(test(row)) for row in zip(*terms)], dtype=bool)

    return holds


def _side(operand: tuple[str, str]):
    kind, value = operand
    return F.col(value) if kind == "column" else F.lit(value)


def filter_column(plan: JoinPlan, conjunct: int):
    """The column that is true exactly where FILTER conjunct ``conjunct`` holds."""
    native: NativeFilter | None = plan.native[conjunct]
    if native is not None:
        left, right = _side(native.left), _side(native.right)
        return left == right if native.op == "=" else left != right
    indices = plan.conjunct_columns(conjunct) or tuple(range(len(plan.variables)))
    names = tuple(plan.variables[index] for index in indices)
    return _udf_filter(plan.conjuncts[conjunct], names)(*(F.col(column(index)) for index in indices))


def _filtered(frame: DataFrame | None, plan: JoinPlan, conjuncts) -> DataFrame | None:
    if frame is None:
        return None
    for conjunct in conjuncts:
        frame = frame.where(filter_column(plan, conjunct))
    return frame


def _scan_columns(scan: Scan, frame: DataFrame) -> DataFrame:
    condition = F.lit(True)
    for position, term in scan.constants:
        condition = condition & (F.col(position) == F.lit(term))
    for a, b in scan.equal:
        condition = condition & (F.col(a) == F.col(b))
    return frame.where(condition).select(*(F.col(position).alias(column(v)) for position, v in scan.binds),
                                         *(F.col(name) for name in frame.columns if name in TIMES))


def events_stream(spark: SparkSession, directory: str) -> DataFrame:
    """The stream's triples as a file source, one file a micro-batch, with its event time watermarked (delay 0)."""
    frame = spark.readStream.schema(EVENT_SCHEMA).option("maxFilesPerTrigger", 1).parquet(directory)
    frame = frame.select("s", "p", "o", F.col("ts").alias("tmin"), F.col("ts").alias("tmax"),
                         F.timestamp_millis("ts").alias("w"))
    return frame.withWatermark("w", "0 milliseconds")


def static_rows(spark: SparkSession, scan: Scan, static) -> DataFrame | None:
    """The static graph's bindings of ``scan`` as a batch DataFrame, or None when no static triple fits it."""
    rows = [bound for triple in static if (bound := scan.matches(triple)) is not None]
    if not rows:
        return None
    schema = ", ".join(f"{column(v)} STRING" for _, v in scan.binds)
    return spark.createDataFrame(rows, schema)


def _variables(frame: DataFrame) -> list[str]:
    return [name for name in frame.columns if name not in TIMES]


def _join_streams(left: DataFrame, right: DataFrame, keys: tuple[int, ...], timing: Timing) -> DataFrame:
    renamed = right.select(*(F.col(name).alias(f"r_{name}") for name in right.columns))
    equal = " AND ".join(f"{column(k)} = r_{column(k)}" for k in keys)
    oldest, newest = "least(tmin, r_tmin)", "greatest(tmax, r_tmax)"
    condition = f"{equal} AND {timing.range_sql('w', 'r_w')} AND {timing.condition_sql(oldest, newest)}"
    joined = left.join(renamed, F.expr(condition))
    added = [name for name in _variables(right) if name not in set(_variables(left))]
    return joined.select(*_variables(left), *(F.col(f"r_{name}").alias(name) for name in added),
                         F.expr(oldest).alias("tmin"), F.expr(newest).alias("tmax"), F.col("w"))


def _join_static(frame: DataFrame, static: DataFrame, keys: tuple[int, ...]) -> DataFrame:
    """A join on ``keys`` where at most one side is a stream; its times (if any) are the stream side's."""
    return frame.join(static, [column(k) for k in keys])


def _union(frames: list[DataFrame | None]) -> DataFrame | None:
    present = [frame for frame in frames if frame is not None]
    if not present:
        return None
    names = present[0].columns
    result = present[0]
    for frame in present[1:]:
        result = result.unionByName(frame.select(*names))
    return result


def joined_parts(spark: SparkSession, plan: JoinPlan, timing: Timing, events: DataFrame, static
                 ) -> tuple[DataFrame | None, DataFrame | None]:
    """``(stream rows, static rows)`` of the whole BGP with its FILTERs (module docstring)."""
    def part(scan: Scan) -> tuple[DataFrame, DataFrame | None]:
        return (_filtered(_scan_columns(scan, events), plan, scan.filters),
                _filtered(static_rows(spark, scan, static), plan, scan.filters))

    stream, fixed = part(plan.first)
    for step in plan.steps:
        right_stream, right_fixed = part(step.scan)
        stream = _union([
            _join_streams(stream, right_stream, step.keys, timing) if stream is not None else None,
            _join_static(stream, right_fixed, step.keys) if stream is not None and right_fixed is not None else None,
            _join_static(right_stream, fixed, step.keys) if fixed is not None else None,
        ])
        fixed = _join_static(fixed, right_fixed, step.keys) if fixed is not None and right_fixed is not None else None
        stream, fixed = _filtered(stream, plan, step.filters), _filtered(fixed, plan, step.filters)
    stream, fixed = _filtered(stream, plan, plan.final_filters), _filtered(fixed, plan, plan.final_filters)
    return stream, fixed


def istream(stream: DataFrame, plan: JoinPlan, timing: Timing, static_only: DataFrame | None) -> DataFrame:
    """The mappings new at each tick: ``v0..vn`` and ``tick`` (``engines.spark_streaming.istream``)."""
    keys = [column(index) for index in range(len(plan.variables))]
    stream = stream.where(F.expr(timing.condition_sql("tmin", "tmax")))
    if static_only is not None:
        stream = stream.join(static_only, keys, "left_anti")
    stream = stream.withColumn("tick", F.expr(timing.tick_sql("tmax")))

    def report(key, frames, state):
        if state.hasTimedOut:
            state.remove()
            return
        combinations = [(int(tick), int(oldest)) for frame in frames for tick, oldest in zip(frame["tick"], frame["tmin"])]
        ticks, updated = new_ticks(timing, combinations, state.get if state.exists else None)
        state.update(updated)
        state.setTimeoutTimestamp(timing.state_expiry(updated[1]))
        if ticks:
            yield pd.DataFrame([(*key, tick) for tick in ticks], columns=[*keys, "tick"])

    schema = ", ".join([*(f"{name} STRING" for name in keys), "tick BIGINT"])
    return stream.groupBy(*keys).applyInPandasWithState(
        report, schema, "last_tick BIGINT, newest_oldest BIGINT", "append", GroupStateTimeout.EventTimeTimeout)
