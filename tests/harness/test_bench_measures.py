"""A cell measures what a paper prints: short cells repeated to a minimum time, steady state after the window fills,
memory per window triple, and rate-paced end-to-end latency; repetitions default to five.

What depends on time is judged on a ``TickingClock`` (``tests.harness.clocks``), whose time is the work a pass does,
so that no verdict races the machine's load; the cells run on the machine's clock are asserted on counts only.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from common.errors import ConfigError
from engines.model.query import load_query
from engines.model.stream import Window
from engines.model.windows import parse_window
from harness.bench.cell import run_task
from harness.bench.config import DEFAULTS, config_from_table
from harness.bench.latencies import PassLatencies
from harness.bench.matrix import engine_class
from harness.bench.pacing import arrival_offsets_ns, pacing_summary
from harness.bench.passes import Passes, latency_summary
from harness.bench.quantiles import LatencySketch
from harness.bench.steady import fill_index, retained_triples, steady_columns
from harness.bench.task import CellTask, cell_of
from harness.engines_setup import engine_class_for
from harness.streams.reader import open_stream
from tests.conformance.checks import build_stream
from tests.harness.clocks import TickingClock

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"
QUERY = EXAMPLE / "queries" / "chain.rq"


def _task(engine: str = "reeval", **overrides) -> CellTask:
    cell = {"engine": engine, "dataset": "university-example", "scale": None, "event_shape": "x", "query": "chain",
            "window": "sliding:5000:1000", "entailment": "none", "max_events": 0, "stream_dir": str(EXAMPLE),
            "query_path": str(QUERY)}
    return CellTask(kind="time", cell=cell_of(cell), repetition=0, **({"timeout_s": 60.0, "memory_bytes": 2**40} | overrides))


def _passes(engine: str, clock: TickingClock, *, slower_by_s: float = 0.0, build_s: float = 0.0, min_time_s: float = 0.0,
            **options) -> Passes:
    """The passes of a cell timed on ``clock``, over the example stream held in memory (no reading time in the loop);
    each push takes ``slower_by_s`` and each build ``build_s`` more of the clock's time."""
    query = load_query(QUERY, window="sliding:5000:1000", entailment="none")
    stream = open_stream(EXAMPLE).checked_against(query.window).materialise()
    base = engine_class_for(engine_class(engine), query, stream)

    class Timed(base):
        def __init__(self, *args, **kwargs):
            clock.sleep(build_s)
            super().__init__(*args, **kwargs)

        def push(self, event):
            clock.sleep(slower_by_s)
            return super().push(event)

    return Passes(Timed, query, stream, clock=clock, min_time_s=min_time_s, **options)


def test_cells_are_timed_on_the_machines_clock_unless_a_test_gives_its_own():
    import inspect
    import time

    from harness.bench.pacing import MACHINE_CLOCK, paced_loop
    from harness.bench.passes import timed_pass
    from harness.bench.sampler import RssSampler

    assert MACHINE_CLOCK.now_ns is time.perf_counter_ns and MACHINE_CLOCK.sleep is time.sleep
    for timed in (run_task, Passes, timed_pass, paced_loop):
        assert inspect.signature(timed).parameters["clock"].default is MACHINE_CLOCK, timed
    assert inspect.signature(RssSampler).parameters["clock"].default is time.perf_counter_ns


def test_defaults_give_a_spread_and_a_minimum_time():
    assert DEFAULTS.repetitions >= 5 and DEFAULTS.min_time_s == 1.0 and DEFAULTS.rate == 0


@pytest.mark.parametrize(("table", "message"), [({"min_time_s": -1}, "min_time_s"), ({"rate": -5}, "rate"), ({"rate_lag_s": 0}, "rate_lag_s")])
def test_bad_measurement_keys_are_named(table, message):
    with pytest.raises(ConfigError, match=message):
        config_from_table(table)


def test_a_short_cell_is_repeated_in_its_process_until_the_minimum_time():
    passes = _passes("reeval", TickingClock(), min_time_s=0.3)  # a loop of 84 ms: two readings a push, 1 ms each
    passes.run()
    row, loops = passes.row(0), [totals["wall_s"] for totals in passes.totals]
    assert row["inner_passes"] == len(loops) == 4 and not row["short"]
    assert sum(loops[:-1]) < 0.3 <= sum(loops) == row["loop_total_s"]  # until the minimum, and not a pass more
    assert row["wall_s"] == pytest.approx(0.084) and row["triples_per_s"] == pytest.approx(passes.triples / 0.084)
    assert len(passes.stored_latencies()) == 41 * 4 and latency_summary(passes.sketch)["latency_max_ms"] == pytest.approx(1.0)


def test_a_pass_slower_to_build_than_to_run_stops_at_twice_the_minimum_and_is_short():
    passes = _passes("reeval", TickingClock(), build_s=0.25, min_time_s=0.3)
    passes.run()
    row = passes.row(0)
    # a pass builds in 0.25 s and runs in 0.084 s: after two, 0.67 s have gone by, past twice the minimum
    assert row["inner_passes"] == 2 and row["short"] and row["loop_total_s"] < 0.3
    assert row["build_s"] == pytest.approx(0.25, abs=0.01)


def test_a_short_cells_row_adds_up_its_passes():
    result = run_task(_task(min_time_s=0.3))
    row = result["row"]
    assert row["status"] == "ok" and row["inner_passes"] >= 1
    assert row["wall_s"] == pytest.approx(row["loop_total_s"] / row["inner_passes"])
    assert row["triples_per_s"] == pytest.approx(row["triples"] * row["inner_passes"] / row["loop_total_s"])
    assert len(result["latency_ns"]) == 41 * row["inner_passes"]  # every pass stored, pass after pass
    assert row["added"] > 0 and row["answers"] == row["full_mappings"]  # SELECT * over the chain: no blank nodes


def test_one_pass_when_no_minimum_time():
    row = run_task(_task())["row"]
    assert row["inner_passes"] == 1 and not row["short"]


def test_steady_state_and_window_triples_are_columns_of_every_cell():
    result = run_task(_task())
    row = result["row"]
    assert 0 < row["steady_events"] < 41  # the 5 s window fills after the first events
    assert row["steady_triples_per_s"] > 0 and row["steady_events_per_s"] > 0
    assert row["window_triples"] > 0
    # the RSS series carries events processed, from 0 to the end of the first pass
    events = [point[2] for point in result["rss"] if point[2] is not None]
    assert events[0] == 0 and events[-1] == 41


def test_a_rate_paced_cell_records_end_to_end_latency():
    passes = _passes("scan", TickingClock(10_000), rate=400.0, rate_lag_s=0.001, min_time_s=1.0)  # 40 us a push
    passes.run()
    row = passes.row(0)
    assert row["inner_passes"] == 1  # the pace fixes the length, whatever the minimum
    assert row["kept_up"] is True and row["rate_eps"] == 400.0 and row["max_wait_s"] <= 0.001
    assert row["e2e_p99_ms"] >= row["e2e_p50_ms"] > 0
    assert len(passes.e2e_ns()) == 41
    assert row["wall_s"] >= 40 / 400  # 41 events spread over 0.1 s of paced play: the last arrives at 0.1 s


def test_an_engine_slower_than_the_rate_falls_behind():
    passes = _passes("scan", TickingClock(10_000), slower_by_s=0.005, rate=400.0, rate_lag_s=0.001)
    passes.run()
    row = passes.row(0)
    # 5 ms a push against 2.5 ms between arrivals: the 41st event waits about 0.1 s, its answers come 5 ms later still
    assert row["kept_up"] is False and row["max_wait_s"] > 0.09 and row["e2e_max_ms"] > 100
    assert row["wall_s"] >= 41 * 0.005


def test_a_rate_paced_cell_runs_one_paced_pass():
    result = run_task(_task("scan", rate=400.0, rate_lag_s=5.0, min_time_s=1.0))
    row = result["row"]
    assert row["status"] == "ok" and row["inner_passes"] == 1 and row["rate_eps"] == 400.0
    assert len(result["e2e_ns"]) == 41 and row["e2e_p99_ms"] >= row["e2e_p50_ms"] > 0


def test_fill_index_is_the_first_instant_without_the_first_event():
    stamps = [0, 1, 2, 3, 4, 5, 6]
    assert fill_index(stamps, Window.sliding(3, 1)) == 3  # (τ-3, τ] no longer holds 0 at τ = 3
    assert fill_index(stamps, parse_window("tumbling:2")) == 2
    assert fill_index(stamps, Window("event")) == 0
    assert fill_index(stamps, Window("unbounded")) is None
    assert fill_index(stamps, Window.sliding(100, 1)) is None


def _tail(latencies_us: list[int], fill: int | None) -> tuple[int, int]:
    one_pass = PassLatencies(LatencySketch(), steady_from=fill)
    one_pass.chunk.extend(value * 1000 for value in latencies_us)
    one_pass.fold()
    return one_pass.steady_events, one_pass.steady_ns


def test_steady_rates_count_only_the_tail():
    rates = steady_columns([_tail([10, 10, 1000, 1000], 2)], 4, 1)  # events 2 and 3 hold 2 triples each
    assert rates["steady_events"] == 2
    assert rates["steady_events_per_s"] == pytest.approx(2 / 0.002)
    assert rates["steady_triples_per_s"] == pytest.approx(4 / 0.002)
    assert steady_columns([_tail([10, 10, 1000, 1000], None)], 0, 1)["steady_events_per_s"] is None


def test_retained_triples_are_the_window_content_at_the_end():
    stream = build_stream([(0, ["+ :a :p :b"]), (1, ["+ :b :p :c"]), (5, ["+ :c :p :d", "+ :b :p :c"])])
    assert retained_triples(stream, Window.sliding(3, 1)) == 2  # (2, 5]: the last event's two triples
    assert retained_triples(stream, Window("unbounded")) == 3
    assert retained_triples(stream, Window("event")) == 2


def test_arrivals_play_the_stream_at_the_rate():
    offsets = arrival_offsets_ns([0, 0, 10, 20, 40], 100.0)  # 5 events at 100/s: 40 ms of play
    assert list(offsets) == [0, 0, 10_000_000, 20_000_000, 40_000_000]
    assert list(arrival_offsets_ns([7, 7, 7], 10.0)) == [0, 100_000_000, 200_000_000]  # one timestamp: evenly


def test_kept_up_means_no_wait_past_the_lag():
    ends = LatencySketch()
    ends.add(np.array([1000, 2_001_000], dtype=np.int64))
    assert pacing_summary(2_000_000, ends, 10.0, 0.001)["kept_up"] is False
    assert pacing_summary(2_000_000, ends, 10.0, 0.01)["kept_up"] is True


def test_a_cell_still_short_after_the_most_passes_is_flagged(monkeypatch):
    import harness.bench.passes as passes

    monkeypatch.setattr(passes, "MAX_PASSES", 2)
    row = run_task(_task("scan", min_time_s=5.0))["row"]
    assert row["status"] == "ok" and row["inner_passes"] == 2 and row["short"] is True


def test_the_harness_work_leaves_the_cpu_time_by_its_cpu_time_not_by_its_time_on_another_clock():
    """A fold timed on a clock far slower than the CPU (a loaded machine's wall time counts the waits for a core; here
    a clock of 1 s a reading) is taken out of the pass's CPU time by what it cost in CPU: the engine's CPU time stays.
    When the fold's clock time was subtracted, this pass's CPU time came out as 0."""
    passes = _passes("reeval", TickingClock(10**9))
    passes.run()
    (totals,) = passes.totals
    assert totals["fold_s"] > 10  # seconds of the clock, far more than the pass's CPU time
    assert 0 < totals["cpu_s"] < totals["fold_s"]
