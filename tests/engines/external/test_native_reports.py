"""An external engine that reports natively under its own profile is verified on its reports, refused under any other, and its malformed report lines are one line each."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from common.errors import EngineError, EngineFailure
from engines.model.query import parse_query
from engines.model.semantics import load_profile
from engines.native_reports import NativeRun
from harness.engines_setup import build_engine, close_engine
from harness.verify_reports import verify_engine_reports
from tests.conformance.checks import CHECKS

ROOT = Path(__file__).resolve().parents[3]
CHECK = next(check for check in CHECKS if check.name == "sliding-chain-duplicates")
QUERY = parse_query(CHECK.query_text(), window=CHECK.window, name=CHECK.name)
STREAM = CHECK.stream()


def native(
    folder: Path, mode: str = "ok", at: int = 2, reports='"csparql"', windows='["event", "sliding", "unbounded"]'
):
    """The descriptor of ``native_reporter.py`` in ``mode``, declaring ``reports`` (TOML) in hello and descriptor alike."""
    reports_json = json.dumps(_toml_value(reports))
    command = [sys.executable, "-m", "tests.engines.external.native_reporter", mode, str(at), reports_json]
    path = folder / f"native-{mode}.toml"
    path.write_text(
        f"""name = "native"
command = {json.dumps(command)}
directory = "{ROOT}"
event_timeout_s = 5
startup_timeout_s = 10

[capabilities]
windows = {windows}
deletions = true
entailment = ["none"]
static = true
filters = true
output = "delta"
reports = {reports}
""",
        encoding="utf-8",
    )
    return str(path)


def _toml_value(text: str):
    import tomllib

    return tomllib.loads(f"value = {text}")["value"]


def test_an_engine_reporting_natively_is_verified_on_its_reports(tmp_path):
    name, verdict = verify_engine_reports(native(tmp_path), QUERY, STREAM, load_profile("csparql"), "plain")
    assert name == "native" and verdict.agrees and verdict.verdict.expected > 3


def test_its_planted_bug_is_caught_at_the_report_it_breaks(tmp_path):
    _, verdict = verify_engine_reports(native(tmp_path, "drop-row", 3), QUERY, STREAM, load_profile("csparql"), "plain")
    divergence = verdict.verdict.divergence
    assert not verdict.agrees and divergence.what == "rows" and divergence.missing["relation"]
    assert divergence.time >= STREAM.events[3].ts


def test_reporting_only_the_newest_instance_an_event_closes_is_named(tmp_path):
    _, verdict = verify_engine_reports(native(tmp_path, "newest-only"), QUERY, STREAM, load_profile("csparql"), "plain")
    divergence = verdict.verdict.divergence
    assert divergence.what == "skipped-instance" and divergence.reported.window[1] > divergence.window[1]
    assert "it reports only the newest of the instances one event closes" in divergence.describe()


def test_a_profile_equal_as_data_is_its_own_and_any_other_is_refused_by_name(tmp_path):
    table = '{ t0 = 0, bounds = "[o,c)", tick = "tuple", report = ["window-close", "non-empty"], empty = true, output = "rstream" }'
    _, verdict = verify_engine_reports(native(tmp_path, reports=table), QUERY, STREAM, load_profile("csparql"), "plain")
    assert verdict.agrees  # its table is csparql's rules under its own name
    path = native(tmp_path)
    with pytest.raises(
        EngineError,
        match="profile cqels on sliding windows \\(it reports natively under csparql, which cannot be re-driven",
    ):
        verify_engine_reports(path, QUERY, STREAM, load_profile("cqels"))
    with pytest.raises(
        EngineError,
        match="sliding windows under this project's semantics \\(it reports natively under "
        "the profile csparql: verify or run it with --semantics csparql\\)",
    ):
        build_engine(path, QUERY, STREAM)


def test_its_event_windows_answer_with_deltas_under_cgpm(tmp_path):
    event = parse_query(CHECK.query_text(), window="event", name="event")
    name, verdict = verify_engine_reports(native(tmp_path), event, STREAM, load_profile("cgpm"), "plain")
    assert verdict.agrees and verdict.verdict.expected == len(STREAM.events)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("no-window", "report 0 has ['relation', 'ts']; under output rstream a report has ts, window, relation"),
        ("wrong-event", "the reports are for event 9, expected event 2"),
        ("wrong-width", "report 0: relation: a mapping has 1 terms, the query has 3 variables"),
        ("twice", "is given twice"),
        ("delta-line", 'expected [] or {"type": "reports"'),
    ],
)
def test_a_malformed_report_line_is_one_line_naming_the_event(tmp_path, mode, words):
    engine = build_engine(native(tmp_path, mode), QUERY, STREAM, profile=load_profile("csparql"))
    run = NativeRun(engine, QUERY, load_profile("csparql"))
    with pytest.raises(EngineFailure) as caught:
        for event in STREAM.events:
            run.push(event)
    message = str(caught.value)
    assert "\n" not in message and "wrote malformed output for event 2: " in message and words in message
    close_engine(engine)


def test_a_malformed_finish_is_one_line(tmp_path):
    engine = build_engine(native(tmp_path, "bad-finish"), QUERY, STREAM, profile=load_profile("csparql"))
    run = NativeRun(engine, QUERY, load_profile("csparql"))
    for event in STREAM.events:
        run.push(event)
    with pytest.raises(EngineFailure, match="malformed output for finish .*: reports must be a list, got soon"):
        run.finish()


def test_a_reports_capability_must_name_a_semantics_of_its_own(tmp_path):
    from engines.external.descriptor import read_descriptor

    cases = [
        ('"cgpm"', "names this project's semantics \\(cgpm\\)"),
        ('"esper"', "capabilities reports: unknown profile 'esper'; expected one of cgpm, csparql"),
        (
            '{ t0 = "any", bounds = "[o,c)", tick = "tuple", report = ["window-close"], empty = true, '
            'output = "rstream" }',
            "t0 = any",
        ),
        ("{ t0 = 0 }", "capabilities reports: profile native: missing key 'bounds'"),
    ]
    for reports, words in cases:
        with pytest.raises(EngineError, match=words):
            read_descriptor(native(tmp_path, reports=reports))
    with pytest.raises(EngineError, match="reports apply to sliding windows, which windows does not list"):
        read_descriptor(native(tmp_path, windows='["event"]'))


def test_the_cli_writes_and_verifies_its_native_reports(tmp_path, capsys):
    from harness.cli import main
    from harness.streams import write_stream

    write_stream(STREAM, tmp_path / "stream")
    (tmp_path / "q.rq").write_text(CHECK.query_text())
    common = [
        "--stream",
        str(tmp_path / "stream"),
        "--query",
        str(tmp_path / "q.rq"),
        "--window",
        CHECK.window,
        "--semantics",
        "csparql",
    ]
    assert main(["run", "--engine", native(tmp_path), *common, "--trace", str(tmp_path / "t.jsonl")]) == 0
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == {"vars": ["x", "y", "z"]} and json.loads(lines[1])["window"] == [0, 3]
    capsys.readouterr()
    assert main(["verify", "--answers", str(tmp_path / "t.jsonl"), *common]) == 0
    assert main(["verify", "--engine", native(tmp_path, "drop-row", 3), *common, "--no-reproducer"]) == 1
    assert "relation: missing" in capsys.readouterr().out
