"""What the commands say about the spark-streaming engine before any Spark starts: its semantics is not cgpm, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.registry import all_engine_names, known_engines, profile_engines
from harness.cli import main

REPOSITORY = Path(__file__).resolve().parents[3]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"
CHAIN = str(EXAMPLE / "queries" / "chain.rq")


def _one_line_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


@pytest.mark.parametrize("command", ["run", "verify"])
def test_without_semantics_it_says_which_profile_to_give(capsys, command):
    err = _one_line_error(capsys, [command, "--engine", "spark-streaming", "--stream", str(EXAMPLE), "--query", CHAIN,
                                   "--window", "sliding:10s:1s"])
    assert "'spark-streaming' does not support sliding windows under this project's semantics" in err
    assert "with --semantics spark-microbatch" in err


def test_an_event_window_and_another_profile_are_refused_by_name(capsys):
    argv = ["verify", "--engine", "spark-streaming", "--stream", str(EXAMPLE), "--query", CHAIN]
    assert "does not support event windows" in _one_line_error(capsys, [*argv, "--window", "event",
                                                                        "--semantics", "spark-microbatch"])
    assert "does not support the semantics profile cqels" in _one_line_error(
        capsys, [*argv, "--window", "sliding:10s:1s", "--semantics", "cqels"])


def test_it_is_listed_but_left_out_of_the_suites_that_check_cgpm():
    assert profile_engines() == ["spark-streaming"]
    assert "spark-streaming" in all_engine_names() and "spark-streaming" not in known_engines()


def test_a_bench_cell_runs_it_under_its_own_profile_and_gives_it_that_profile():
    from engines.baselines.reeval import ReevalEngine
    from engines.spark_streaming import SparkStreamingEngine
    from harness.engines_setup import default_profile, profile_options

    profile = default_profile(SparkStreamingEngine)
    assert profile.name == "spark-microbatch" and default_profile(ReevalEngine) is None
    assert profile_options(SparkStreamingEngine, profile) == {"profile": profile}
    assert profile_options(ReevalEngine, profile) == {}  # reeval is driven under a profile by engines.profiled


def test_start_runtime_refuses_to_start_a_session_inside_a_spark_task(monkeypatch):
    import pyspark

    from common.errors import EngineError
    from engines.spark_streaming import SparkStreamingEngine
    from harness.engines_setup import start_runtime

    monkeypatch.setattr(pyspark.TaskContext, "get", staticmethod(lambda: object()))
    with pytest.raises(EngineError, match="cannot run inside a Spark task: run its cells with runner = \"process\""):
        start_runtime(SparkStreamingEngine)


def test_a_failed_streaming_query_is_reported_by_its_innermost_error():
    from engines.spark_streaming.engine import root_cause

    text = ("[STREAM_FAILED] Query [id = 1] terminated with exception: [FOREACH_BATCH_USER_FUNCTION_ERROR] An error\n"
            "org.apache.spark.sql.streaming.StreamingQueryException: the query stopped\n"
            "Caused by: org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n"
            '  File "x.py", line 3, in report\n'
            "TypeError: unhashable type: 'list'\n\tat org.apache.spark.sql.Dataset.collect(Dataset.scala:1)")
    assert root_cause(text) == "TypeError: unhashable type: 'list'"
    assert root_cause("no error named here\nsecond line") == "no error named here"
