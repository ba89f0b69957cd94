"""``cgpm reproduce FILE`` runs the experiment's config and judges the new run; ``--run RUN`` judges a finished one."""

from __future__ import annotations

import json
from pathlib import Path

from harness.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"


def test_reproduce_runs_the_config_then_judges_the_run_it_made(tmp_path, monkeypatch, capsys):
    config = tmp_path / "tiny.toml"
    config.write_text(f"""name = "tiny"
engines = ["scan", "reeval"]
repetitions = 2
min_time_s = 0
runner = "process"
noisy_load = 1000.0  # the test's verdict must not depend on how busy the machine running the tests is
[[workloads]]
stream = "{EXAMPLE}"
queries = ["{EXAMPLE / 'queries' / 'chain.rq'}"]
windows = ["sliding:5s:1s"]
""")
    claim = tmp_path / "tiny-claims.toml"
    claim.write_text(f"""paper = "spectra"
citation = "a test"
figure = "none"
config = "{config}"
published = "nowhere"
repetitions = 2
[[claim]]
id = "scan-reeval"
text = "scan is at least a thousandth of reeval's speed"
kind = "ratio"
metric = "events_per_s"
numerator = "scan"
denominator = "reeval"
relation = ">= 0.001"
[[claim]]
id = "oxigraph"
text = "a claim on an engine the run did not have"
kind = "ratio"
metric = "events_per_s"
numerator = "scan"
denominator = "oxigraph"
relation = ">= 1"
expected = "not-shown"
""")
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", str(claim), "--json"]) == 0, capsys.readouterr().err
    verdicts = {verdict["id"]: verdict for verdict in json.loads(capsys.readouterr().out)}
    made = tmp_path / "results" / "runs" / "reproduce-spectra-tiny-claims"
    assert (made / "cells.parquet").is_file()
    ratio = verdicts["tiny-claims.scan-reeval"]
    assert ratio["verdict"] == "met" and ratio["n"] == 2 and ratio["published"] == str(made)
    assert verdicts["tiny-claims.oxigraph"]["verdict"] == "not-shown"
    # the same run judged again without running anything
    assert main(["reproduce", str(claim), "--run", str(made), "--json"]) == 0
    again = {verdict["id"]: verdict for verdict in json.loads(capsys.readouterr().out)}
    assert again["tiny-claims.scan-reeval"]["value"] == ratio["value"]
    # --check judges the published folder, which this claim file names but nobody published
    assert main(["reproduce", str(claim), "--check", "--results", str(tmp_path)]) == 1
    assert "tiny-claims.scan-reeval (not-shown, recorded met)" in capsys.readouterr().err
    # published with its repetitions, the same claim is judged from the folder alone, round by round
    assert main(["report", str(made), "--out", str(tmp_path / "report"), "--publish", str(tmp_path / "nowhere")]) == 0
    capsys.readouterr()
    assert main(["reproduce", str(claim), "--check", "--results", str(tmp_path), "--json"]) == 0
    published = {verdict["id"]: verdict for verdict in json.loads(capsys.readouterr().out)}
    assert published["tiny-claims.scan-reeval"]["note"] == "paired per round"
    assert published["tiny-claims.scan-reeval"]["value"] == ratio["value"]
