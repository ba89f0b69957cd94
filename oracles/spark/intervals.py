"""Presences as Spark rows: one row per maximal index interval ``[lo, hi]`` of a key, never two that overlap or touch.

A presence (DESIGN.md section 2, "The same answers as intervals") is a set of instants given as a union
of closed intervals of event positions. ``merge_intervals`` rewrites any set of ``(key…, lo, hi)`` rows
into the canonical form, one row per maximal run of consecutive instants, so that later joins never
meet the same instant twice and a mapping's first and last instant are its ``lo`` and ``hi``.
The merge is the classic gaps-and-islands: sort a key's intervals by start; an interval opens a new
island when it starts after every earlier one has ended (plus one: ``[1, 3]`` and ``[4, 6]`` are
the run ``[1, 6]``); an island is the span of its intervals.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

LO, HI = "lo", "hi"


def merge_intervals(frame: DataFrame, keys: list[str]) -> DataFrame:
    """``(keys…, lo, hi)`` with each key's intervals merged into maximal, pairwise disjoint and non-adjacent runs."""
    ordered = Window.partitionBy(*keys).orderBy(F.col(LO), F.col(HI))
    before = ordered.rowsBetween(Window.unboundedPreceding, -1)
    upto = ordered.rowsBetween(Window.unboundedPreceding, Window.currentRow)
    reach = F.max(F.col(HI)).over(before)
    opens = F.when(reach.isNull() | (F.col(LO) > reach + 1), 1).otherwise(0)
    islands = frame.withColumn("_opens", opens).withColumn("_island", F.sum("_opens").over(upto))
    return islands.groupBy(*keys, "_island").agg(F.min(LO).alias(LO), F.max(HI).alias(HI)).drop("_island")


def overlap(left_lo, left_hi, right_lo, right_hi):
    """The join condition of two presences, and the bounds of their intersection."""
    lo = F.greatest(left_lo, right_lo)
    hi = F.least(left_hi, right_hi)
    return lo <= hi, lo, hi
