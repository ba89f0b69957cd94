"""On Spark each partition is a task: the run's trace is the unsplit run's, and a worker that dies mid-run is one line.

One local[2] session (reused when a test before started one, as ``harness.spark.spark_session`` does); two jobs.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

from common.errors import EngineFailure
from engines.baselines.reeval import ReevalEngine
from engines.model.query import load_query
from engines.model.windows import parse_window
from harness.partitions.executors import SparkExecutor
from harness.partitions.runs import start_split_run
from harness.streams import write_stream
from harness.streams.reader import open_stream
from tests.cli_run import cgpm as _cli
from tests.conformance.checks import PREFIXES, build_stream

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def spark():
    from harness.spark import spark_session

    return spark_session(
        "local[2]", app_name="cgpm-tests", progress=False, config={"spark.sql.shuffle.partitions": "1"}
    )


class DiesAtEventTen(ReevalEngine):
    """reeval whose Python worker exits at event 10 in the partition that receives its triples, as a lost executor's would."""

    name = "dies-at-event-ten"

    def push(self, event):
        if event.index == 10 and event.updates:
            os._exit(3)
        return super().push(event)


@pytest.fixture
def inputs(tmp_path):
    stream = build_stream([(ts, [f"+ :s{ts % 5} :p :o{ts % 3}", f"+ :s{ts % 5} :q :o"]) for ts in range(40)])
    write_stream(stream, tmp_path / "stream")
    (tmp_path / "star.rq").write_text(PREFIXES + "SELECT ?x ?y WHERE { ?x :p ?y . ?x :q ?z }\n")
    return tmp_path


def test_spark_partitions_give_the_unsplit_trace_and_a_dying_worker_is_one_line(spark, inputs, capsys, monkeypatch):
    common = ["run", "--stream", str(inputs / "stream"), "--query", str(inputs / "star.rq"), "--window", "sliding:6:2"]
    assert _cli(capsys, *common, "--engine", "spectra", "--trace", str(inputs / "one.jsonl"))[0] == 0
    code, out, _ = _cli(
        capsys,
        *common,
        "--engine",
        "spectra",
        "--partitions",
        "2",
        "--master",
        "local[2]",
        "--trace",
        str(inputs / "two.jsonl"),
        "--json",
    )
    assert code == 0
    summary = json.loads(out)["partitioned"]
    assert summary["runner"] == "spark" and [row["events"] for row in summary["by_partition"]] == [40, 40]

    def rows(path):
        return [
            {**line, "added": sorted(line.get("added", [])), "removed": sorted(line.get("removed", []))}
            for line in map(json.loads, path.read_text().splitlines())
        ]

    assert rows(inputs / "one.jsonl") == rows(inputs / "two.jsonl")

    import tempfile

    import pyspark.cloudpickle as cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the dying engine travels to the worker by value
    monkeypatch.setattr(tempfile, "tempdir", str(inputs))
    stream = open_stream(inputs / "stream")
    query = load_query(inputs / "star.rq", window=parse_window("sliding:6:2"))
    with pytest.raises(EngineFailure) as failure:
        start_split_run(DiesAtEventTen, query, stream, 2, SparkExecutor())
    assert "the partitioned run on local[2] failed" in str(failure.value) and "\n" not in str(failure.value)
    assert not list(inputs.glob("cgpm-partitions-*"))  # the work directory is gone
