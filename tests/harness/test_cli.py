"""The command line keeps its documented forms; bad input exits 2 with one line on stderr and writes nothing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from harness.streams import write_stream
from tests.cli_run import cgpm as _run
from tests.conformance.checks import build_stream

QUERY = "PREFIX : <http://ex/>\nSELECT * WHERE { ?x :p ?y . ?y :p ?z }\n"


@pytest.fixture
def inputs(tmp_path):
    stream = build_stream([(0, ["+ :a :p :b"]), (1, ["+ :b :p :c"]), (5, ["+ :c :p :d"]), (6, ["+ :d :p :e"])])
    write_stream(stream, tmp_path / "stream")
    (tmp_path / "q.rq").write_text(QUERY)
    return tmp_path


def test_engines_json_lists_capabilities(capsys):
    code, out, _ = _run(capsys, "engines", "--json")
    assert code == 0
    rows = {row["name"]: row["capabilities"] for row in json.loads(out)}
    assert rows["reeval"] == {"windows": ["event", "sliding", "unbounded"], "deletions": True,
                              "entailment": ["none", "rdfs"], "static": True, "filters": True,
                              "output": "delta", "matches": True, "streams": 64, "profiles": ["[o,c)"],
                              "shares": "the window store and its index, one per window (per stream and window for "
                              "named windows) and entailment, every query evaluated over it"}
    assert rows["scan"]["matches"] is False and rows["scan"]["profiles"] == ["cgpm"]
    assert rows["spectra-rev"]["shares"] == ""  # run with several queries: one instance per query


def test_engines_fit_100_columns_with_every_engine_and_capability(capsys):
    code, out, _ = _run(capsys, "engines")
    assert code == 0 and max(len(line) for line in out.splitlines()) <= 100, out
    _, listed, _ = _run(capsys, "engines", "--json")
    names = {row["name"] for row in json.loads(listed)}
    assert names == {line.split()[0] for line in out.splitlines()[1:] if not line.startswith(" ")}
    reeval = next(line for line in out.splitlines() if line.startswith("reeval "))
    assert reeval.split()[1:] == ["event,sliding,unbounded", "yes", "none,rdfs", "yes", "yes", "delta"]
    assert "many queries share: the window store" in out and "cost floor: computes no answers" in out


def test_run_writes_a_trace(inputs, capsys):
    trace = inputs / "trace.jsonl"
    code, out, _ = _run(capsys, "run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:3:1", "--trace", str(trace), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["events"] == 4 and summary["added"] == 2 and summary["removed"] == 1
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines[0] == {"vars": ["x", "y", "z"]}
    assert lines[2] == {"i": 1, "ts": 1, "added": [["<http://ex/a>", "<http://ex/b>", "<http://ex/c>"]], "removed": []}
    assert lines[3]["removed"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/c>"]]
    assert len(lines) == 5


def test_verify_agrees_and_reports_json(inputs, capsys):
    code, out, _ = _run(capsys, "verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:3:1", "--json")
    assert code == 0
    verdict = json.loads(out)
    assert verdict["checkpoints"] == 4 and verdict["mismatches"] == 0 and verdict["first_divergence"] is None


def _bad(capsys, tmp_path, *argv):
    code, out, err = _run(capsys, *argv)
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


def test_unknown_engine_lists_known(inputs, capsys):
    err = _bad(capsys, inputs, "run", "--engine", "nope", "--stream", str(inputs / "stream"), "--query",
               str(inputs / "q.rq"), "--window", "event", "--trace", str(inputs / "t.jsonl"))
    assert "unknown engine 'nope'" in err and "reeval" in err
    assert not (inputs / "t.jsonl").exists()


@pytest.mark.parametrize(("window", "message"), [("sliding:1", "bad window"), ("sliding:2:5", "slide <= range")])
def test_bad_window(inputs, capsys, window, message):
    err = _bad(capsys, inputs, "verify", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
               str(inputs / "q.rq"), "--window", window)
    assert message in err


def test_unsupported_query(inputs, capsys):
    (inputs / "opt.rq").write_text("SELECT * { ?x <http://p> ?y OPTIONAL { ?y <http://q> ?z } }")
    err = _bad(capsys, inputs, "run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
               str(inputs / "opt.rq"), "--window", "event")
    assert "OPTIONAL" in err and "opt" in err or "OPTIONAL" in err


def test_missing_stream(inputs, capsys):
    err = _bad(capsys, inputs, "run", "--engine", "reeval", "--stream", str(inputs / "nowhere"), "--query",
               str(inputs / "q.rq"), "--window", "event")
    assert "nowhere" in err


def test_deletions_in_a_windowed_stream(tmp_path, capsys):
    stream = Stream((Event(0, 0, (Update(INSERT, "<http://ex/a>", "<http://ex/p>", "<http://ex/b>"),)),
                     Event(1, 1, (Update(DELETE, "<http://ex/a>", "<http://ex/p>", "<http://ex/b>"),))))
    write_stream(stream, tmp_path / "s")
    (tmp_path / "q.rq").write_text(QUERY)
    err = _bad(capsys, tmp_path, "verify", "--engine", "reeval", "--stream", str(tmp_path / "s"), "--query",
               str(tmp_path / "q.rq"), "--window", "sliding:3:1")
    assert "event 1" in err and "delet" in err


def test_unknown_entailment_is_a_usage_error(inputs, capsys):
    err = _bad(capsys, inputs, "run", "--engine", "reeval", "--stream", str(inputs / "stream"), "--query",
               str(inputs / "q.rq"), "--window", "event", "--entailment", "owl")
    assert "entailment" in err


def test_python_dash_m_and_console_script_exist():
    result = subprocess.run([sys.executable, "-m", "harness", "engines"], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and "reeval" in result.stdout


def test_an_engine_refuses_what_its_capabilities_lack(inputs, capsys):
    err = _bad(capsys, inputs, "run", "--engine", "spectra", "--stream", str(inputs / "stream"), "--query",
               str(inputs / "q.rq"), "--window", "sliding:3:1", "--entailment", "rdfs")
    assert "spectra" in err and "entailment 'rdfs'" in err


def test_update_only_engines_run_windowed_queries_through_the_adapter(inputs, capsys):
    code, out, _ = _run(capsys, "verify", "--engine", "delta", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:3:1", "--json")
    assert code == 0 and json.loads(out)["engine"] == "delta+window"


def test_verify_reports_a_divergence_and_writes_a_reproducer(inputs, capsys, monkeypatch):
    """A deliberately broken engine: verify exits 1, names the first divergence and writes a stream that fails alone."""
    from engines.baselines.reeval import ReevalEngine
    from engines.model.stream import Delta

    class ForgetsExpirations(ReevalEngine):
        name = "forgetful"

        def push(self, event):
            delta = super().push(event)
            return Delta(added=delta.added, removed=[])

    monkeypatch.setitem(__import__("engines.registry").registry.BUILTIN, "forgetful",
                        f"{__name__}:ForgetsExpirations")
    globals()["ForgetsExpirations"] = ForgetsExpirations
    repro = inputs / "repro"
    code, out, _ = _run(capsys, "verify", "--engine", "forgetful", "--stream", str(inputs / "stream"), "--query",
                        str(inputs / "q.rq"), "--window", "sliding:3:1", "--json", "--reproducer", str(repro))
    assert code == 1
    verdict = json.loads(out)
    assert verdict["first_divergence"]["event"] == 2
    assert verdict["first_divergence"]["extra"] == [["<http://ex/a>", "<http://ex/b>", "<http://ex/c>"]]
    command = json.loads((repro / "reproduce.json").read_text())["command"]
    assert "--engine forgetful" in command
    # the shrunk stream fails alone, and is no longer than the prefix up to the divergence
    code, out, _ = _run(capsys, "verify", "--engine", "forgetful", "--stream", str(repro / "stream"), "--query",
                        str(repro / "query.rq"), "--window", "sliding:3:1", "--json", "--no-reproducer")
    assert code == 1 and json.loads(out)["events"] <= 3


def test_the_reproducer_is_named_from_the_engines_name_inside_results_runs_reproducers(inputs, capsys, monkeypatch):
    """``--engine`` given as ``module:Class`` (or a descriptor path): the directory is the engine's name, not the argument."""
    from engines.baselines.reeval import ReevalEngine
    from engines.model.stream import Delta
    from harness.reproduce import REPRODUCERS, reproducer_directory

    class Forgetful(ReevalEngine):
        name = "forgetful"

        def push(self, event):
            return Delta(added=super().push(event).added, removed=[])

    globals()["Forgetful"] = Forgetful
    monkeypatch.chdir(inputs)
    code, out, _ = _run(capsys, "verify", "--engine", f"{__name__}:Forgetful", "--stream", str(inputs / "stream"),
                        "--query", str(inputs / "q.rq"), "--window", "sliding:3:1", "--json")
    assert code == 1
    made = (inputs / json.loads(out)["reproducer"]).resolve()
    assert made.parent == (inputs / REPRODUCERS).resolve() and made.name.startswith("forgetful-"), made
    for spelled in ("../../engines/x.toml", "/etc/x", "a:b"):
        directory = reproducer_directory(spelled, "q", "T")
        assert directory.parent == REPRODUCERS and "/" not in directory.name and ":" not in directory.name


def test_version(capsys):
    code, out, _ = _run(capsys, "--version")
    assert code == 0 and out.startswith("cgpm ")


def test_help_points_a_beginner_to_the_demo(capsys):
    code, out, _ = _run(capsys, "--help")
    assert code == 0 and "cgpm demo" in out


@pytest.mark.parametrize("command", [["run"], ["verify"], ["stats"], ["engines"], ["demo"], ["stream", "import"]])
def test_commands_have_a_description_paragraph(capsys, command):
    from harness.cli import build_parser

    parser = build_parser(command[0])
    for word in command:
        parser = next(action for action in parser._actions if action.dest in ("command", "action")).choices[word]
    assert parser.description and len(parser.description) > 80, parser.prog
