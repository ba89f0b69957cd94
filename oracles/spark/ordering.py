"""Running counts over one order of a whole frame, computed in ranges so that no task ever holds every row.

A window function ordered over a whole frame (``Window.orderBy`` with no partition) runs in one
task: right for a small frame (``ranges=1``, no extra job), not for the events of a long stream.
For those ``running_count`` cuts the order's first column into ``ranges`` value ranges (bounds
from ``approxQuantile``: one job), counts within each range with a window partitioned by it, and
adds to each range the total of the ranges before it (one row per range comes to the driver).
Equal values of the first column fall in one range, so ties are ordered by the remaining columns
inside it. The stream's event positions and each occurrence's last instant are both such counts
(``oracles.spark.timeline``).
"""

from __future__ import annotations

from itertools import accumulate

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

RANGE = "_range"
QUANTILE_ERROR = 0.001  # bounds only balance the ranges; any bounds give the same counts


def range_bounds(frame: DataFrame, column: str, ranges: int) -> list[float]:
    """Increasing cut points of ``column`` into at most ``ranges`` ranges of about equal rows."""
    if ranges <= 1:
        return []
    probabilities = [step / ranges for step in range(1, ranges)]
    return sorted(set(frame.approxQuantile(column, probabilities, QUANTILE_ERROR)))


def range_of(column: str, bounds: list[float]) -> Column:
    """The range a value falls in: how many bounds are at or below it (never decreasing in the value)."""
    index = F.lit(0)
    for bound in bounds:
        index = index + (F.col(column) >= F.lit(bound)).cast("int")
    return index


def running_count(frame: DataFrame, order: list[str], counted: Column, name: str, ranges: int) -> tuple[DataFrame, int | None]:
    """``frame`` with ``name``: how many rows up to this one (itself included) in ``order`` have ``counted`` true; and their
    total, which costs no job when there are several ranges (their totals are collected anyway) and is None for one range.

    Rows equal in every ``order`` column are counted in an unspecified order among themselves.
    """
    ranged = frame.withColumn("_counted", counted.cast("long"))
    if ranges <= 1:
        upto = Window.orderBy(*order).rowsBetween(Window.unboundedPreceding, Window.currentRow)
        return ranged.withColumn(name, F.sum("_counted").over(upto)).drop("_counted"), None
    bounds = range_bounds(frame, order[0], ranges)
    ranged = ranged.withColumn(RANGE, range_of(order[0], bounds))
    totals = dict(ranged.groupBy(RANGE).agg(F.sum("_counted").alias("total")).collect())
    sizes = [int(totals.get(index) or 0) for index in range(len(bounds) + 1)]
    before = [0, *accumulate(sizes)][:-1]
    upto = Window.partitionBy(RANGE).orderBy(*order).rowsBetween(Window.unboundedPreceding, Window.currentRow)
    offset = F.element_at(F.array(*(F.lit(value).cast("long") for value in before)), F.col(RANGE) + 1)
    counts = ranged.withColumn(name, offset + F.sum("_counted").over(upto))
    return counts.drop(RANGE, "_counted"), sum(sizes)
