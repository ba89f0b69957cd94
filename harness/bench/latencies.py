"""A pass's latencies are folded chunk by chunk, so a cell holds O(chunk) of them whatever the stream's length, never O(stream).

The timed loop appends each push's latency (ns) to ``chunk``, an array of 8-byte integers, and every
``CHUNK`` events calls ``fold()``, which the loop times and takes out of its wall and CPU time (as it
does the reading of the stream). A fold adds the chunk to the cell's ``LatencySketch`` (percentiles
within 1%, ``harness.bench.quantiles``), adds the latencies of the events from the steady-state fill
point on to ``steady_ns`` (``harness.bench.steady``), keeps the first ``keep`` latencies (the
stored ones, which feed the latency figures) and empties the chunk. What stays is the sketch's
fixed counts, a few sums and at most ``keep`` stored latencies: ``keep`` is ``STORED_LATENCIES``
at most, a constant.

A rate-paced pass folds its waits (arrival to push) and end-to-end latencies (arrival to answer)
the same way: the longest wait, a sketch of the end-to-end latencies and the first ``keep`` of them.
"""

from __future__ import annotations

from array import array

import numpy as np

from harness.bench.quantiles import LatencySketch

CHUNK = 1 << 16  # events between two folds: 512 KiB of latencies, a fold of about a millisecond
STORED_LATENCIES = 1_000_000  # latencies a cell stores: whole passes while they fit, else the first pass's first ones


class _Kept:
    """The first ``limit`` values of a sequence given in chunks."""

    def __init__(self, limit: int) -> None:
        self.limit, self.parts, self.count = limit, [], 0

    def add(self, values: np.ndarray) -> None:
        room = self.limit - self.count
        if room > 0 and len(values):
            self.parts.append(values[:room].copy())
            self.count += min(room, len(values))

    def values(self) -> np.ndarray:
        return np.concatenate(self.parts) if self.parts else np.zeros(0, dtype=np.int64)


class PassLatencies:
    """One pass's latencies: appended to ``chunk`` by the loop, folded into ``sketch``, the steady-state sums and the kept ones.

    ``steady_from`` is the index of the pass's first event in steady state (None: none is); ``keep``
    how many of the first latencies to keep."""

    def __init__(self, sketch: LatencySketch, *, steady_from: int | None = None, keep: int = 0) -> None:
        self.sketch, self.steady_from = sketch, steady_from
        self.chunk = array("q")
        self.folded = 0  # events folded so far
        self.steady_events = 0
        self.steady_ns = 0
        self.kept = _Kept(keep)
        # a rate-paced pass's waits and end-to-end latencies, chunk by chunk like the latencies
        self.wait_chunk, self.end_chunk = array("q"), array("q")
        self.ends: LatencySketch | None = None  # made at the first paced fold: a short cell has thousands of passes
        self.ends_kept = _Kept(keep)
        self.longest_wait_ns: int | None = None

    def __len__(self) -> int:
        """The events timed so far: what the progress line and the RSS series read (from the sampler's thread)."""
        return self.folded + len(self.chunk)

    def fold(self) -> None:
        """Fold the chunk (and a paced pass's waits and ends) and empty it."""
        values = np.array(self.chunk, dtype=np.int64)
        start = self.folded
        # one statement, so the sampler's thread sees the count change by little more than a bytecode's time
        self.chunk, self.folded = array("q"), start + len(values)
        self.sketch.add(values)
        self.kept.add(values)
        if self.steady_from is not None:
            tail = values[max(0, self.steady_from - start):]
            self.steady_events += len(tail)
            self.steady_ns += int(tail.sum())
        if len(self.end_chunk):
            waits, ends = np.array(self.wait_chunk, dtype=np.int64), np.array(self.end_chunk, dtype=np.int64)
            self.wait_chunk, self.end_chunk = array("q"), array("q")
            longest = int(waits.max())
            self.longest_wait_ns = longest if self.longest_wait_ns is None else max(self.longest_wait_ns, longest)
            if self.ends is None:
                self.ends = LatencySketch()
            self.ends.add(ends)
            self.ends_kept.add(ends)

    def stored(self) -> np.ndarray:
        return self.kept.values()
