"""A verify task's limits: a time-out of its own, tried again when a resumption gives it longer, and on the
driver's Spark session one that leaves the session usable for the next task."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

import harness.verify
from harness.bench import store
from harness.bench.cell import run_task
from harness.bench.config import config_from_table
from harness.bench.execute import run_bench
from harness.bench.task import CellTask, cell_of

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
CELL = cell_of({"engine": "reeval", "dataset": "university-example", "scale": None, "event_shape": "x", "query": "star",
                "window": "sliding:5000:1000", "entailment": "none", "max_events": 0, "stream_dir": str(EXAMPLE),
                "query_path": str(EXAMPLE / "queries" / "star.rq")})


@pytest.mark.spark
def test_a_time_out_inside_a_spark_job_cancels_the_job_and_the_next_task_on_the_session_agrees(monkeypatch, tmp_path):
    from harness.spark import spark_session

    spark = spark_session("local[1]")
    slept = tmp_path / "the job slept to its end"

    def sleep_then_mark(_):
        time.sleep(600)
        slept.touch()

    def oracle_stuck_in_a_job(query, stream, instants):
        # the driver's main thread is inside a Py4J call (collect) when the time-out passes: a limit raised there
        # left the connection holding the job's answer, and the next call read it (KeyError: 'm')
        spark.sparkContext.parallelize([0], 1).map(sleep_then_mark).collect()
        return iter(())

    task = CellTask("verify", CELL, store.VERIFY_PART, timeout_s=0.5, oracle="spark")
    with monkeypatch.context() as patch:
        patch.setattr(harness.verify, "_spark_oracle_answers", oracle_stuck_in_a_job)
        row = run_task(task)["row"]
    assert (row["status"], row["verdict"]) == ("timeout", "not checked (timeout)"), row
    assert not slept.exists()  # the job was cancelled, not waited for: counted, not timed
    row = run_task(replace(task, timeout_s=600.0))["row"]
    assert (row["status"], row["verdict"]) == ("ok", "agrees"), row
    assert not slept.exists()  # nor did it finish behind the next task (local[1] has one core to share)
    assert spark.range(3).count() == 3

class HereRunner:
    """Every task in this process, its kinds kept."""

    name, description = "process", "the test's process"

    def __init__(self) -> None:
        self.kinds = []

    def run(self, task, deadline_s=None):
        self.kinds.append(task.kind)
        return run_task(task)

    def close(self):
        pass


def test_a_verify_that_passed_a_shorter_time_out_is_checked_again_on_resumption_and_the_timings_kept(tmp_path):
    table = {"name": "retry", "engines": ["reeval"], "repetitions": 1, "min_time_s": 0.0, "oracle": "rdflib",
             "workloads": [{"stream": str(EXAMPLE), "queries": [str(EXAMPLE / "queries" / "star.rq")],
                            "windows": ["sliding:5000:1000"]}]}
    out = run_bench(config_from_table(table), tmp_path / "run", runner=HereRunner(), show_progress=False)
    (verify,) = (out / store.PARTS).glob(f"*/{store.VERIFY_PART}.json")
    part = json.loads(verify.read_text(encoding="utf-8"))
    assert part["row"]["verdict"] == "agrees"
    # as a verify stopped by a 20 s time-out is stored
    part["row"].update(status="timeout", verdict="not checked (timeout)", error="passed its time-out", verify_s=20.5)
    verify.write_text(json.dumps(part), encoding="utf-8")
    same = HereRunner()
    run_bench(config_from_table({**table, "verify_timeout_s": 20}), out, runner=same, show_progress=False)
    assert same.kinds == []  # as long a time-out: it would time out again
    longer = HereRunner()
    run_bench(config_from_table({**table, "verify_timeout_s": 600}), out, runner=longer, show_progress=False)
    assert longer.kinds == ["verify"]  # the timed repetition is kept, only the verify runs
    assert json.loads(verify.read_text(encoding="utf-8"))["row"]["verdict"] == "agrees"
    info = store.read_run_info(out)
    assert info["git_at_start"] == info["git"] and len(info["resumed"]) == 2  # the code of the first pass is kept
