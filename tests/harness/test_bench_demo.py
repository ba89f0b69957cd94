"""cgpm demo generates a small LUBM stream, benchmarks and verifies the engines, and writes the report (here without Spark)."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.bench import store
from harness.cli import main


def test_demo_without_spark_generates_runs_verifies_and_reports(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the demo writes under ./results/runs
    code = main(["demo", "--no-spark", "--events", "150", "--engine", "scan", "--engine", "reeval",
                 "--out", str(tmp_path / "demo")])
    output = capsys.readouterr().out
    assert code == 0, output
    assert (tmp_path / "results" / "runs" / ".streams" / "lubm-scale1-seed0-entity-first150" / "stream.json").is_file()
    frame = store.load_results(tmp_path / "demo")
    assert set(frame["engine"]) == {"scan", "reeval"} and set(frame["dataset"]) == {"lubm"}
    assert set(frame["query"]) == {"L4", "L6"} and (frame["events"] == 150).all()
    assert set(frame.loc[frame["engine"] == "reeval", "verdict"]) == {"agrees"}
    assert (tmp_path / "demo" / "report" / "summary.md").is_file()
    assert "4 of 4 verified cells agree with the oracle" in output
    assert max(len(line) for line in output.splitlines() if not line.startswith(("cgpm demo:", "results:", "report:"))) <= 120
    assert "[" not in output.split("benchmarking")[-1].split("verified cells")[0]  # one repetition: no [x-x] range


def test_demo_falls_back_to_the_example_stream_without_the_generator(monkeypatch, capsys):
    from harness.commands import demo_cmd

    monkeypatch.setitem(sys.modules, "generators.lubm.dataset", None)  # importing it now raises ImportError
    assert demo_cmd._lubm_stream(100, None) is None
    assert "the LUBM generator cannot be imported" in capsys.readouterr().out
    workload = demo_cmd._workload(None)
    assert workload["stream"] == str(demo_cmd.EXAMPLES / "university")
    assert all(Path(query).is_file() for query in workload["queries"])


def test_the_demo_leaves_out_engines_that_refuse_its_windows_and_says_why():
    from harness.commands import demo_cmd

    workload = demo_cmd._workload(None)
    engines, workloads, left_out = demo_cmd._runnable(["reeval", "tpjoin-event", "scan"], workload)
    assert engines == ["reeval", "scan"]
    assert set(left_out) == {"tpjoin-event"} and "sliding" in left_out["tpjoin-event"]
    assert all("tpjoin-event" not in workload["engines"] for workload in workloads)
    assert len(workloads) == len(workload["queries"]) * len(workload["windows"])
