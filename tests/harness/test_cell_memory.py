"""A bench cell holds O(1) latencies and no per-event array of the stream, and what it computes from them equals what whole arrays gave.

The references below are the computations a cell made before it folded its latencies chunk by
chunk (every latency kept, the stream's whole timeline in memory): percentiles by ``np.percentile``,
steady-state rates over each pass's tail, arrivals from the whole array of timestamps.
"""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.model.stream import Window
from harness.bench.cell import run_task
from harness.bench.latencies import PassLatencies
from harness.bench.pacing import Arrivals
from harness.bench.quantiles import RELATIVE_ERROR, LatencySketch
from harness.bench.steady import fill_index, fill_point, steady_columns
from harness.streams.event_index import EventIndex, TimelineFacts
from tests.harness.test_bench_measures import _task

QS = [0, 1, 25, 50, 95, 99, 99.9, 100]
BOUND = RELATIVE_ERROR * (1 + 1e-9)  # a value on a bucket's edge may fall in the next one by a rounding of log


def _folded(values: np.ndarray, cuts: list[int], sketch: LatencySketch, steady_from: int | None = None) -> PassLatencies:
    """``values`` appended and folded at the given cuts, as the timed loop does every CHUNK events."""
    one_pass = PassLatencies(sketch, steady_from=steady_from)
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(values)), len(values)]
    for start, end in zip(bounds, bounds[1:]):
        one_pass.chunk.extend(values[start:end].tolist())
        one_pass.fold()
    return one_pass


latency_arrays = st.lists(st.one_of(st.integers(0, 3), st.integers(0, 10**6), st.integers(10**6, 10**12)),
                          min_size=1, max_size=400).map(lambda values: np.array(values, dtype=np.int64))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(values=latency_arrays, cuts=st.lists(st.integers(0, 400), max_size=4), split=st.integers(0, 400))
def test_sketch_percentiles_are_within_the_stated_error_of_numpys(values, cuts, split):
    sketch, other = LatencySketch(), LatencySketch()
    _folded(values[:split], cuts, sketch)
    _folded(values[split:], cuts, other)
    sketch.merge(other)  # passes fold into one sketch; merging is the same counting
    exact = np.percentile(values, QS)
    estimate = np.array(sketch.percentiles(QS))
    assert np.all(np.abs(estimate - exact) <= BOUND * exact + 1e-9), (estimate, exact)
    assert (sketch.count, sketch.total, sketch.minimum, sketch.maximum) == (len(values), int(values.sum()),
                                                                             int(values.min()), int(values.max()))


def _old_steady_rates(latencies_ns: np.ndarray, triples_per_event: np.ndarray, fill: int | None) -> dict:
    if fill is None or fill >= len(latencies_ns):
        return {"steady_events": 0, "steady_events_per_s": None, "steady_triples_per_s": None}
    tail = latencies_ns[fill:]
    seconds = tail.sum() / 1e9
    if seconds <= 0:
        return {"steady_events": len(tail), "steady_events_per_s": None, "steady_triples_per_s": None}
    triples = float(np.asarray(triples_per_event[fill: fill + len(tail)]).sum())
    return {"steady_events": int(len(tail)), "steady_events_per_s": len(tail) / seconds,
            "steady_triples_per_s": triples / seconds}


def _old_steady_columns(everything: np.ndarray, events: int, count: int, sizes: np.ndarray, fill: int | None) -> dict:
    tails = [_old_steady_rates(everything[k * events:(k + 1) * events], sizes, fill) for k in range(count)]
    steady_events = sum(tail["steady_events"] for tail in tails)
    seconds = sum(tail["steady_events"] / tail["steady_events_per_s"] for tail in tails if tail["steady_events_per_s"])
    steady_triples = sum(tail["steady_triples_per_s"] * tail["steady_events"] / tail["steady_events_per_s"]
                         for tail in tails if tail["steady_events_per_s"])
    return {"steady_events": steady_events // count,
            "steady_events_per_s": steady_events / seconds if seconds > 0 else None,
            "steady_triples_per_s": steady_triples / seconds if seconds > 0 else None}


class _PiecewiseStream:
    """A stream known only by its index in pieces, as a ``OpenStream`` scans it."""

    def __init__(self, stamps: np.ndarray, sizes: np.ndarray, cuts: list[int]) -> None:
        bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(stamps)), len(stamps)]
        self.pieces = [EventIndex(stamps[a:b], sizes[a:b], np.zeros(b - a, bool)) for a, b in zip(bounds, bounds[1:])]

    def index_chunks(self):
        return iter(self.pieces)


@st.composite
def timed_cells(draw):
    events = draw(st.integers(1, 120))
    gaps = draw(st.lists(st.integers(0, 40), min_size=events, max_size=events))
    stamps = np.cumsum(gaps).astype(np.int64) + draw(st.integers(0, 10**6))
    sizes = np.array(draw(st.lists(st.integers(1, 30), min_size=events, max_size=events)), dtype=np.int64)
    count = draw(st.integers(1, 3))
    latencies = np.array(draw(st.lists(st.one_of(st.just(0), st.integers(1, 10**9)), min_size=events * count,
                                       max_size=events * count)), dtype=np.int64)
    window = draw(st.sampled_from([Window("event"), Window("unbounded"), Window.sliding(50, 10), Window.sliding(200, 200),
                                   Window.sliding(7, 1), Window.sliding(10**4, 10)]))
    return stamps, sizes, latencies, count, window


@settings(max_examples=200, deadline=None, derandomize=True)
@given(cell=timed_cells(), index_cuts=st.lists(st.integers(0, 120), max_size=4),
       fold_cuts=st.lists(st.integers(0, 120), max_size=4))
def test_streaming_steady_rates_equal_the_whole_arrays(cell, index_cuts, fold_cuts):
    stamps, sizes, latencies, count, window = cell
    events = len(stamps)
    stream = _PiecewiseStream(stamps, sizes, index_cuts)
    point = fill_point(stream, window)
    fill = point.event if point is not None else None
    assert fill == fill_index(stamps, window)
    # the rows before the fill point come from the same scan, as the whole array counts them
    assert point is None or point.rows_before == int(sizes[:fill].sum())
    expected = _old_steady_columns(latencies, events, count, sizes, fill)
    sketch = LatencySketch()
    passes = [_folded(latencies[k * events:(k + 1) * events], fold_cuts, sketch, steady_from=fill) for k in range(count)]
    facts = TimelineFacts.of(stream.index_chunks())
    triples_after_fill = facts.triples - point.rows_before if point is not None else 0
    got = steady_columns([(one.steady_events, one.steady_ns) for one in passes], triples_after_fill, count)
    assert got["steady_events"] == expected["steady_events"]
    for name in ("steady_events_per_s", "steady_triples_per_s"):
        assert (got[name] is None) == (expected[name] is None)
        if got[name] is not None:
            assert got[name] == pytest.approx(expected[name], rel=1e-9)


def _old_arrival_offsets_ns(timestamps, rate: float) -> np.ndarray:
    stamps = np.asarray(timestamps, dtype=np.float64)
    count = len(stamps)
    if count < 2:
        return np.zeros(count, dtype=np.int64)
    play_ns = (count - 1) / rate * 1e9
    span = stamps[-1] - stamps[0]
    if span <= 0:
        return np.round(np.arange(count) * (1e9 / rate)).astype(np.int64)
    return np.round((stamps - stamps[0]) * (play_ns / span)).astype(np.int64)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(gaps=st.lists(st.integers(0, 10**6), min_size=1, max_size=60), start=st.integers(0, 2 * 10**12),
       rate=st.floats(0.5, 10**6))
def test_arrivals_event_by_event_equal_the_whole_array(gaps, start, rate):
    stamps = (start + np.cumsum(gaps)).tolist()
    arrivals = Arrivals(stamps[0], stamps[-1], len(stamps), rate)
    assert [arrivals.offset_ns(position, ts) for position, ts in enumerate(stamps)] == _old_arrival_offsets_ns(stamps, rate).tolist()


def test_a_cells_percentiles_are_within_the_stated_error_of_its_stored_latencies():
    result = run_task(_task(min_time_s=0.05))
    row, stored = result["row"], result["latency_ns"]
    assert len(stored) == 41 * row["inner_passes"]  # a small cell stores every latency
    exact = np.percentile(stored, [50, 95, 99]) / 1e6
    got = np.array([row["latency_p50_ms"], row["latency_p95_ms"], row["latency_p99_ms"]])
    assert np.all(np.abs(got - exact) <= BOUND * exact), (got, exact)
    assert row["latency_max_ms"] == stored.max() / 1e6 and row["latency_relative_error"] == RELATIVE_ERROR


@pytest.mark.parametrize(("bound", "stored"), [(10, 10), (100, 82)])
def test_stored_latencies_never_pass_the_bound(monkeypatch, bound, stored):
    import harness.bench.passes as passes

    monkeypatch.setattr(passes, "STORED_LATENCIES", bound)
    monkeypatch.setattr(passes, "MAX_PASSES", 3)
    result = run_task(_task(min_time_s=60.0))  # three passes of 41 events
    assert result["row"]["inner_passes"] == 3
    assert len(result["latency_ns"]) == stored  # the first pass's first ten; or two whole passes


def test_a_rate_paced_cell_stores_its_first_end_to_end_latencies(monkeypatch):
    import harness.bench.passes as passes

    monkeypatch.setattr(passes, "STORED_LATENCIES", 10)
    result = run_task(_task("scan", rate=2000.0, rate_lag_s=5.0))
    assert len(result["e2e_ns"]) == 10 and len(result["latency_ns"]) == 10
    assert result["row"]["e2e_max_ms"] >= result["row"]["e2e_p99_ms"] >= result["row"]["e2e_p50_ms"] > 0


def _fold_peak_bytes(events: int) -> int:
    values = np.random.default_rng(7).integers(1, 10**7, size=1 << 12)
    gc.collect()
    tracemalloc.start()
    try:
        one_pass = PassLatencies(LatencySketch(), steady_from=5, keep=1000)
        for _ in range(events // len(values)):
            one_pass.chunk.extend(values)
            one_pass.fold()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_pass_holds_a_chunk_of_latencies_not_the_stream():
    short, long = _fold_peak_bytes(1 << 16), _fold_peak_bytes(1 << 19)
    assert long < 1.25 * short, (short, long)  # flat as the pass grows eight times
    assert long < (1 << 19) * 8 / 4, long  # far below the 4 MiB its latencies would take kept
