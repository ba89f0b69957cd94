"""A latency sketch holds a fixed number of counts, however many values it takes, and its percentiles are within 1% of the exact ones.

Values are non-negative integers (nanoseconds). A positive value ``x`` is counted in the logarithmic
bucket ``k = ceil(log_γ x)``, which holds ``(γ^(k-1), γ^k]``, with ``γ = (1 + α) / (1 - α)`` and
``α = RELATIVE_ERROR = 0.01``; the bucket stands for ``2γ^k / (γ + 1)``, within ``α`` of every value in
it (the buckets of DDSketch, Masson, Rim and Lee, VLDB 2019). Zero has a bucket of its own. The
buckets cover 1 ns to 2^63 ns: 2,186 counts of 8 bytes (17 KiB), whatever the length of the stream.

A percentile is numpy's default one (``np.percentile``, linear interpolation between the order
statistics of ranks ``floor(h)`` and ``floor(h) + 1``, ``h = (n - 1) q / 100``): each of the two order
statistics is read from its bucket (within ``α``) and clamped to the exact minimum and maximum, then
the two are interpolated as numpy does, so the result is within ``α`` of ``np.percentile`` on the
same values (a convex combination of two estimates each within ``α`` of its order statistic). The
count, sum, minimum and maximum are exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

RELATIVE_ERROR = 0.01
GAMMA = (1 + RELATIVE_ERROR) / (1 - RELATIVE_ERROR)
_LOG_GAMMA = math.log(GAMMA)
_BUCKETS = math.ceil(63 * math.log(2) / _LOG_GAMMA) + 1  # positive buckets k = 0 .. _BUCKETS - 1: up to 2^63 ns


class LatencySketch:
    """Counts of non-negative integers in logarithmic buckets of relative width ``2 * RELATIVE_ERROR``, with their exact count, sum, min and max."""

    def __init__(self) -> None:
        self.counts = np.zeros(_BUCKETS + 1, dtype=np.int64)  # [0]: zeros; [k + 1]: the positive bucket k
        self.count = 0
        self.total = 0  # a Python int: a sum of 10^9 latencies of seconds does not overflow
        self.minimum: int | None = None
        self.maximum: int | None = None

    def add(self, values: np.ndarray) -> None:
        """Count ``values`` (non-negative integers)."""
        values = np.asarray(values, dtype=np.int64)
        if not len(values):
            return
        positive = values[values > 0]
        buckets = np.zeros(len(values) - len(positive), dtype=np.int64)
        if len(positive):
            ranks = np.ceil(np.log(positive.astype(np.float64)) / _LOG_GAMMA).astype(np.int64)
            buckets = np.concatenate([buckets, np.clip(ranks, 0, _BUCKETS - 1) + 1])
        self.counts += np.bincount(buckets, minlength=len(self.counts))
        self.count += len(values)
        self.total += int(values.sum())
        low, high = int(values.min()), int(values.max())
        self.minimum = low if self.minimum is None else min(self.minimum, low)
        self.maximum = high if self.maximum is None else max(self.maximum, high)

    def merge(self, other: LatencySketch) -> None:
        """Count every value ``other`` holds."""
        if not other.count:
            return
        self.counts += other.counts
        self.count += other.count
        self.total += other.total
        self.minimum = other.minimum if self.minimum is None else min(self.minimum, other.minimum)
        self.maximum = other.maximum if self.maximum is None else max(self.maximum, other.maximum)

    def mean(self) -> float | None:
        return self.total / self.count if self.count else None

    def percentiles(self, qs: Sequence[float]) -> list[float]:
        """``np.percentile(values, qs)`` of every value added, each within ``RELATIVE_ERROR`` of the exact one."""
        if not self.count:
            raise ValueError("percentiles of an empty sketch")
        cumulative = np.cumsum(self.counts)
        results = []
        for q in qs:
            rank = (self.count - 1) * q / 100
            lower = math.floor(rank)
            fraction = rank - lower
            low = self._order_statistic(cumulative, lower)
            if fraction == 0:
                results.append(low)
                continue
            high = self._order_statistic(cumulative, min(lower + 1, self.count - 1))
            results.append(low + fraction * (high - low))
        return results

    def _order_statistic(self, cumulative: np.ndarray, rank: int) -> float:
        """The value of rank ``rank`` (from 0), as its bucket's representative clamped to the exact range."""
        slot = int(np.searchsorted(cumulative, rank, side="right"))
        value = 0.0 if slot == 0 else 2 * GAMMA ** (slot - 1) / (GAMMA + 1)
        return float(min(max(value, self.minimum), self.maximum))
