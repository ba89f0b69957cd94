"""On Spark every timed repetition is a task in a newly forked Python worker (spark.python.worker.reuse=false)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.bench import store

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"


@pytest.mark.spark
def test_spark_runner_gives_each_repetition_a_fresh_worker(tmp_path):
    out = tmp_path / "spark-run"
    # its own process and JVM: a session another test started may reuse workers
    command = [sys.executable, "-m", "harness", "bench", "--engine", "scan", "--engine", "reeval",
               "--stream", str(EXAMPLE), "--query", str(EXAMPLE / "queries" / "star.rq"), "--repetitions", "2",
               "--min-time", "0.1", "--verify", "--runner", "spark", "--master", "local[2]", "--out", str(out)]
    result = subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    frame = store.load_results(out)
    assert len(frame) == 4 and (frame["status"] == "ok").all()
    assert frame["pid"].nunique() == 4  # a new worker per task
    assert frame["ppid"].nunique() == 1  # all forked by PySpark's daemon, not the driver
    assert not frame["engine_module_preloaded"].astype(bool).any()
    assert set(frame.loc[frame["engine"] == "reeval", "verdict"]) == {"agrees"}
    info = store.read_run_info(out)
    assert info["runner"]["name"] == "spark" and info["runner"]["spark_master"] == "local[2]"
    assert "reeval" in result.stdout and "agrees" in result.stdout
    assert "incubator" not in result.stderr and "[Stage" not in result.stderr  # no JVM noise among the bars
