"""A cell past its time-out or memory cap is stopped and recorded as such, the run goes on, and a killed run resumes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import psutil

from engines.model.stream import Delta
from engines.protocol import Capabilities
from harness.bench import store
from harness.bench.cell import run_task
from harness.bench.config import config_from_table
from harness.bench.execute import run_bench
from harness.bench.runners import ProcessRunner

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"
QUERY = EXAMPLE / "queries" / "chain.rq"
ANY = Capabilities(windows=frozenset({"sliding", "event", "unbounded"}), deletions=True,
                   entailment=frozenset({"none", "rdfs"}), static=True, filters=True)


class _Idle:
    capabilities = ANY

    def __init__(self, query, *, static=(), schema=(), **options):
        self.kept = []

    def answers(self):
        return Counter()

    def stats(self):
        return {"kept": len(self.kept)}


class SleepyEngine(_Idle):
    """Takes 50 ms per event: 41 events pass a short time-out."""

    name = "sleepy"

    def push(self, event):
        time.sleep(0.05)
        return Delta()


class HungryEngine(_Idle):
    """Keeps 16 MiB per event: passes any small memory cap."""

    name = "hungry"

    def push(self, event):
        self.kept.append(bytearray(16 * 2**20))
        time.sleep(0.01)
        return Delta()


class StubbornEngine(_Idle):
    """Blocks the limit signal and hangs: only the runner's hard deadline can stop it."""

    name = "stubborn"

    def push(self, event):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
        time.sleep(600)
        return Delta()


def _task(engine: str, **overrides) -> dict:
    cell = {"engine": f"{__name__}:{engine}", "dataset": "university-example", "scale": None, "event_shape": "x",
            "query": "chain", "window": "sliding:10000:1000", "entailment": "none", "max_events": 0,
            "stream_dir": str(EXAMPLE), "query_path": str(QUERY)}
    task = {"kind": "time", "cell": cell, "cell_id": engine, "repetition": 0, "warmup": 0, "timeout_s": 60.0,
            "memory_bytes": 2**40, "rss_hz": 20.0, "verify_every": 1, "progress_path": None}
    return task | overrides


def test_a_cell_past_its_time_out_is_recorded_as_timeout():
    handler = signal.getsignal(signal.SIGUSR2)
    started = time.perf_counter()
    result = run_task(_task("SleepyEngine", timeout_s=1.0))  # 41 events take 2 s
    assert result["row"]["status"] == "timeout"
    # stopped part-way; on a loaded machine building the engine may use the whole budget, so 0 is allowed
    assert 0 <= result["row"]["events_fed"] < 41
    assert time.perf_counter() - started < 10
    assert signal.getsignal(signal.SIGUSR2) == handler  # the limit handler is removed after the cell


def test_a_cell_past_its_memory_cap_is_recorded_as_memory():
    cap = psutil.Process().memory_info().rss + 96 * 2**20
    result = run_task(_task("HungryEngine", memory_bytes=cap))
    assert result["row"]["status"] == "memory", result["row"]
    assert result["row"]["rss_peak_bytes"] > cap
    assert "passed the cap" in result["row"]["error"]


def test_the_hard_deadline_kills_a_cell_that_ignores_its_limit():
    started = time.perf_counter()
    result = ProcessRunner().run(_task("StubbornEngine", timeout_s=0.5), deadline_s=6)
    assert result["row"]["status"] == "timeout" and "killed" in result["row"]["error"]
    assert time.perf_counter() - started < 30


def test_the_run_goes_on_after_a_time_out_and_does_not_repeat_it(tmp_path):
    config = config_from_table({"engines": [f"{__name__}:SleepyEngine", "scan"], "repetitions": 2, "timeout_s": 0.4,
                                "runner": "process", "workloads": [{"stream": str(EXAMPLE), "queries": [str(QUERY)]}]})
    frame = store.load_results(run_bench(config, tmp_path / "run", show_progress=False))
    sleepy = frame[frame["engine"].str.endswith("SleepyEngine")]
    assert list(sleepy["status"]) == ["timeout"]  # one repetition: a time-out is not repeated
    assert list(frame.loc[frame["engine"] == "scan", "status"]) == ["ok", "ok"]


def _bench_command(out: Path) -> list[str]:
    return [sys.executable, "-m", "harness", "bench", "--engine", "scan", "--stream", str(EXAMPLE), "--query", str(QUERY),
            "--repetitions", "3", "--runner", "process", "--out", str(out)]


def test_a_killed_run_keeps_its_finished_cells_and_resumes(tmp_path):
    out = tmp_path / "killed"
    process = subprocess.Popen(_bench_command(out), cwd=REPOSITORY, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.time() + 120
    parts = out / "parts"
    while time.time() < deadline and not list(parts.glob("*/r0.json")):
        assert process.poll() is None, "the run ended before it could be killed"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the run and its cell process, mid-run
    process.wait()
    finished = sorted(parts.glob("*/r*.json"))
    assert finished and len(finished) < 3
    kept = {path.name: json.loads(path.read_text())["row"]["pid"] for path in finished}  # each part is whole JSON
    assert json.loads((out / "run.json").read_text())["status"] == "running"
    resumed = subprocess.run(_bench_command(out), cwd=REPOSITORY, capture_output=True, text=True, timeout=240)
    assert resumed.returncode == 0, resumed.stderr
    frame = store.load_results(out)
    assert sorted(frame["repetition"]) == [0, 1, 2] and (frame["status"] == "ok").all()
    for name, pid in kept.items():
        assert frame.loc[frame["repetition"] == int(name[1]), "pid"].item() == pid  # not run again
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    assert not list(out.rglob("*.partial-*"))
