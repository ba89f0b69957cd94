"""A cell past its time-out or memory cap is stopped and recorded as such, the run goes on, and a killed run resumes.

No assertion races the machine's load: each misbehaving engine misbehaves until it is stopped (bounded
by a minute, so a limit that never fires fails the test instead of hanging it), a cell that must finish gets a
time-out it cannot reach, a time-out judged in this process is on a clock that passes it at the hang and never
before (``tests.harness.clocks.HangClock``), and the killed run is held by a gate after its first finished
repetition, so the kill always lands mid-run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import psutil
import pytest

from engines.model.stream import Delta
from engines.protocol import Capabilities
from harness.bench import store
from harness.bench.cell import run_task
from harness.bench.config import config_from_table
from harness.bench.execute import run_bench
from harness.bench.runners import ProcessRunner
from harness.bench.task import CellTask, cell_of
from tests.harness.clocks import HangClock

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"
QUERY = EXAMPLE / "queries" / "chain.rq"
# these engines answer nothing on purpose (they only sleep, eat memory or wait): cost floors, never verified
ANY = Capabilities(windows=frozenset({"sliding", "event", "unbounded"}), deletions=True,
                   entailment=frozenset({"none", "rdfs"}), static=True, filters=True, matches=False)


class _Idle:
    capabilities = ANY

    def __init__(self, query, *, static=(), schema=(), **options):
        self.kept = []

    def answers(self):
        return Counter()

    def stats(self):
        return {"kept": len(self.kept)}


HANG_BOUND_S = 60.0  # a limit that never fires ends the cell here, as "ok": the test then fails, it never hangs
AT_THE_HANG = HangClock()  # set by the engine that hangs, in whichever process it runs


def _wait_until(stopped, seconds: float = HANG_BOUND_S) -> None:
    """Sleep in short steps (a limit signal interrupts any of them) until ``stopped()`` or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while not stopped() and time.monotonic() < deadline:
        time.sleep(0.01)


class SleepyEngine(_Idle):
    """Answers its first FAST events at once, then hangs on the next until the cell is stopped."""

    name = "sleepy"
    FAST = 5

    def push(self, event):
        if event.index >= self.FAST:
            AT_THE_HANG.hung.set()
            _wait_until(lambda: False)
        return Delta()


class HungryEngine(_Idle):
    """Keeps 16 MiB per event up to ``LIMIT`` bytes of RSS, then holds it until the cell is stopped."""

    name = "hungry"
    LIMIT = 0  # set by the test: a margin above the cap

    def push(self, event):
        process = psutil.Process()
        while process.memory_info().rss < self.LIMIT:
            self.kept.append(bytearray(b"\x01") * (16 * 2**20))  # written, so resident
        _wait_until(lambda: False)
        return Delta()


class GatedEngine(_Idle):
    """Matches nothing; once the run in $CGPM_TEST_RUN has recorded repetition 0, later repetitions wait while
    the file $CGPM_TEST_HOLD exists, so a test can kill the run with exactly one repetition finished."""

    name = "gated"

    def push(self, event):
        run, hold = Path(os.environ["CGPM_TEST_RUN"]), Path(os.environ["CGPM_TEST_HOLD"])
        if list((run / "parts").glob("*/r0.json")):
            _wait_until(lambda: not hold.exists(), 240)
        return Delta()


class StubbornEngine(_Idle):
    """Blocks the limit signal and hangs: only the runner's hard deadline can stop it."""

    name = "stubborn"

    def push(self, event):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2})
        time.sleep(600)
        return Delta()


def _task(engine: str, **overrides) -> CellTask:
    cell = {"engine": f"{__name__}:{engine}", "dataset": "university-example", "scale": None, "event_shape": "x",
            "query": "chain", "window": "sliding:10000:1000", "entailment": "none", "max_events": 0,
            "stream_dir": str(EXAMPLE), "query_path": str(QUERY)}
    return CellTask(kind="time", cell=cell_of(cell), repetition=0, **({"timeout_s": 60.0, "memory_bytes": 2**40} | overrides))


def test_a_cell_past_its_time_out_is_recorded_as_timeout():
    handler = signal.getsignal(signal.SIGUSR2)
    AT_THE_HANG.hung.clear()
    result = run_task(_task("SleepyEngine", timeout_s=30.0), clock=AT_THE_HANG)
    assert result["row"]["status"] == "timeout", result["row"]
    assert "time-out" in result["row"]["error"]
    assert result["row"]["events_fed"] == SleepyEngine.FAST  # stopped on the event it hung on, not before, never past
    # its latencies are those of the events it processed, folded though no chunk was full
    assert len(result["latency_ns"]) == result["row"]["events_fed"] > 0
    assert result["row"]["latency_mean_ms"] == pytest.approx(result["latency_ns"].mean() / 1e6)
    assert signal.getsignal(signal.SIGUSR2) == handler  # the limit handler is removed after the cell


def test_a_cell_past_its_memory_cap_is_recorded_as_memory():
    cap = psutil.Process().memory_info().rss + 96 * 2**20
    HungryEngine.LIMIT = cap + 64 * 2**20
    result = run_task(_task("HungryEngine", memory_bytes=cap))
    assert result["row"]["status"] == "memory", result["row"]
    assert result["row"]["rss_peak_bytes"] > cap
    assert "passed the cap" in result["row"]["error"]


def test_a_verify_task_past_its_memory_cap_is_not_checked_and_says_why():
    # a verify task out of the driver (oracle rdflib): its limit interrupts it where it is, as a timed cell's
    cap = psutil.Process().memory_info().rss + 96 * 2**20
    HungryEngine.LIMIT = cap + 64 * 2**20
    task = replace(_task("HungryEngine", memory_bytes=cap), kind="verify", repetition=store.VERIFY_PART)
    row = run_task(task)["row"]
    assert (row["status"], row["verdict"]) == ("memory", "not checked (memory)"), row
    assert "passed the cap" in row["error"]
    HungryEngine.LIMIT = 0


def test_the_hard_deadline_kills_a_cell_that_ignores_its_limit():
    result = ProcessRunner().run(_task("StubbornEngine", timeout_s=0.5), deadline_s=6)
    assert result["row"]["status"] == "timeout" and "killed" in result["row"]["error"]


class _ShortTimeOutWhenSleepy(ProcessRunner):
    """Gives the sleepy engine's cells a short time-out, which it always reaches since it hangs until stopped; the
    others keep the run's, one they cannot reach however loaded the machine is."""

    def run(self, task: CellTask, deadline_s: float | None = None) -> dict:
        sleepy = task.cell.engine.endswith("SleepyEngine")
        return super().run(replace(task, timeout_s=0.4) if sleepy else task, deadline_s)


def test_the_run_goes_on_after_a_time_out_and_does_not_repeat_it(tmp_path):
    config = config_from_table({"engines": [f"{__name__}:SleepyEngine", "scan"], "repetitions": 2, "timeout_s": 600,
                                "min_time_s": 0, "runner": "process",
                                "workloads": [{"stream": str(EXAMPLE), "queries": [str(QUERY)]}]})
    runner = _ShortTimeOutWhenSleepy()
    frame = store.load_results(run_bench(config, tmp_path / "run", runner=runner, show_progress=False))
    sleepy = frame[frame["engine"].str.endswith("SleepyEngine")]
    assert list(sleepy["status"]) == ["timeout"]  # one repetition: a time-out is not repeated
    assert list(frame.loc[frame["engine"] == "scan", "status"]) == ["ok", "ok"]


def _bench_command(out: Path) -> list[str]:
    return [sys.executable, "-m", "harness", "bench", "--engine", f"{__name__}:GatedEngine", "--stream", str(EXAMPLE),
            "--query", str(QUERY), "--repetitions", "3", "--runner", "process", "--out", str(out)]


def _start_and_wait_for_the_first_part(out: Path, hold: Path) -> subprocess.Popen:
    hold.touch()  # repetitions after the first wait on it until the kill
    env = os.environ | {"CGPM_TEST_RUN": str(out), "CGPM_TEST_HOLD": str(hold)}
    process = subprocess.Popen(_bench_command(out), cwd=REPOSITORY, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, env=env)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list((out / "parts").glob("*/r0.json")):
        assert process.poll() is None, "the run ended before it could be killed"
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be killed"
    return process


def test_a_terminated_run_marks_itself_interrupted(tmp_path):
    out, hold = tmp_path / "terminated", tmp_path / "hold"
    process = _start_and_wait_for_the_first_part(out, hold)
    try:
        os.kill(process.pid, signal.SIGTERM)  # the bench alone, as a service manager or `kill PID` stops it
        process.wait(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # its cell process, still waiting on the hold
    info = json.loads((out / "run.json").read_text())
    assert process.returncode == 128 + signal.SIGTERM and info["status"] == "interrupted" and info["interrupted"]
    assert info["owner"]["pid"] == process.pid


def test_a_killed_run_keeps_its_finished_cells_and_resumes(tmp_path):
    out, hold = tmp_path / "killed", tmp_path / "hold"
    hold.touch()  # repetitions after the first wait on it until the kill
    env = os.environ | {"CGPM_TEST_RUN": str(out), "CGPM_TEST_HOLD": str(hold)}
    process = subprocess.Popen(_bench_command(out), cwd=REPOSITORY, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True, env=env)
    parts = out / "parts"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(parts.glob("*/r0.json")):
        assert process.poll() is None, "the run ended before it could be killed"
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)  # the run and its cell process, mid-run
    process.wait()
    finished = sorted(parts.glob("*/r*.json"))
    assert [path.name for path in finished] == ["r0.json"]
    kept = {path.name: json.loads(path.read_text())["row"]["pid"] for path in finished}  # each part is whole JSON
    assert json.loads((out / "run.json").read_text())["status"] == "running"  # SIGKILL cannot be caught...
    assert store.read_run_info(out)["status"] == "interrupted"  # ...but no process of its owner lives: a reader says so
    hold.unlink()
    resumed = subprocess.run(_bench_command(out), cwd=REPOSITORY, capture_output=True, text=True, timeout=240, env=env)
    assert resumed.returncode == 0, resumed.stderr
    frame = store.load_results(out)
    assert sorted(frame["repetition"]) == [0, 1, 2] and (frame["status"] == "ok").all()
    for name, pid in kept.items():
        assert frame.loc[frame["repetition"] == int(name[1]), "pid"].item() == pid  # not run again
    assert json.loads((out / "run.json").read_text())["status"] == "complete"
    assert not list(out.rglob("*.partial-*"))


def test_a_running_run_reads_interrupted_only_when_its_owner_is_gone_from_this_host():
    from harness.bench.run_status import owner, shown_status

    me = owner()
    assert shown_status({"status": "running", "owner": me}) == "running"  # alive
    assert shown_status({"status": "running", "owner": {**me, "started": me["started"] - 3600}}) == "interrupted"  # pid reused
    assert shown_status({"status": "running", "owner": {**me, "host": "elsewhere"}}) == "running"  # cannot tell
    assert shown_status({"status": "running"}) == "running"  # recorded before owners were
    assert shown_status({"status": "complete", "owner": {**me, "pid": 2**22 + 7}}) == "complete"
