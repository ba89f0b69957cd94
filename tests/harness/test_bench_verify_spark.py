"""A verify task on the driver's Spark session that passes its time-out leaves that session usable for the next one."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

import harness.verify
from harness.bench import store
from harness.bench.cell import run_task
from harness.bench.task import CellTask, cell_of

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"
CELL = cell_of({"engine": "reeval", "dataset": "university-example", "scale": None, "event_shape": "x", "query": "star",
                "window": "sliding:5000:1000", "entailment": "none", "max_events": 0, "stream_dir": str(EXAMPLE),
                "query_path": str(EXAMPLE / "queries" / "star.rq")})


@pytest.mark.spark
def test_a_time_out_inside_a_spark_job_cancels_the_job_and_the_next_task_on_the_session_agrees(monkeypatch):
    from harness.spark import spark_session

    spark = spark_session("local[1]")

    def oracle_stuck_in_a_job(query, stream, instants):
        # the driver's main thread is inside a Py4J call (collect) when the time-out passes: a limit raised there
        # left the connection holding the job's answer, and the next call read it (KeyError: 'm')
        spark.sparkContext.parallelize([0], 1).map(lambda _: time.sleep(600)).collect()
        return iter(())

    task = CellTask("verify", CELL, store.VERIFY_PART, timeout_s=0.5, oracle="spark")
    with monkeypatch.context() as patch:
        patch.setattr(harness.verify, "_spark_oracle_answers", oracle_stuck_in_a_job)
        started = time.perf_counter()
        row = run_task(task)["row"]
    assert (row["status"], row["verdict"]) == ("timeout", "not checked (timeout)"), row
    assert time.perf_counter() - started < 300  # the job was cancelled, not waited for (it sleeps ten minutes)
    row = run_task(replace(task, timeout_s=600.0))["row"]
    assert (row["status"], row["verdict"]) == ("ok", "agrees"), row
    assert spark.range(3).count() == 3
