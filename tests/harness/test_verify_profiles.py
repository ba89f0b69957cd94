"""``cgpm verify --semantics P``: an engine's reports against the oracle's; ``--answers FILE``: a recorded report stream judged, exit 0, 1 or 2."""

from __future__ import annotations

import json
import shlex

from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.semantics import load_profile
from engines.model.stream import Delta
from harness.cli import main
from harness.csrbench import ROOT as CSRBENCH
from harness.streams.parquet_io import write_stream
from harness.verify_reports import verify_engine_reports
from tests.cli_run import cgpm as _cli
from tests.conformance.checks import CHECKS

CHECK = next(check for check in CHECKS if check.name == "sliding-slide-two")
DROPPED = ("<http://ex/c>", "<http://ex/d>", "<http://ex/e>")


class DropsOneAnswerEngine(ReevalEngine):
    """Planted: reeval that never reports the answer c→d→e."""

    name = "planted-drops-one"

    def push(self, event) -> Delta:
        delta = super().push(event)
        return Delta(added=[m for m in delta.added if m != DROPPED], removed=[m for m in delta.removed if m != DROPPED])


def _query():
    return parse_query(CHECK.query_text(), window=CHECK.window, name=CHECK.name)


def test_a_correct_engine_agrees_and_a_planted_wrong_one_is_named_at_its_first_divergent_report():
    stream = CHECK.stream()
    for profile in ("csparql", "cqels"):
        _, verdict = verify_engine_reports(ReevalEngine, _query(), stream, load_profile(profile))
        assert verdict.agrees and verdict.verdict.expected > 0
    _, wrong = verify_engine_reports(DropsOneAnswerEngine, _query(), stream, load_profile("csparql"))
    divergence = wrong.verdict.divergence
    assert not wrong.agrees and (divergence.time, divergence.what) == (5, "rows")
    assert divergence.missing == {"relation": [list(DROPPED)]} and divergence.extra == {"relation": []}
    assert divergence.window == (0, 4)  # c→d (ts 2) and d→e (ts 3): first together in [0, 4), closed at ts 5
    # under cqels the answer is the whole istream report at ts 3: without it there is no report, and the next
    # one (ts 5) is compared with it, so the divergence names the oracle's report at ts 3
    _, wrong = verify_engine_reports(DropsOneAnswerEngine, _query(), stream, load_profile("cqels"))
    divergence = wrong.verdict.divergence
    assert not wrong.agrees and (divergence.time, divergence.window) == (3, (0, 4)), divergence


def _files(tmp_path):
    write_stream(CHECK.stream(), tmp_path / "stream")
    query = tmp_path / "q.rq"
    query.write_text(f"# window: {CHECK.window}\n" + CHECK.query_text().replace("SELECT *", "SELECT ?x ?z"))
    return ["--stream", str(tmp_path / "stream"), "--query", str(query)]


def test_a_recorded_trace_is_correct_whole_or_as_a_run_and_a_tampered_one_is_not(tmp_path, capsys):
    inputs, trace = _files(tmp_path), tmp_path / "trace.jsonl"
    assert _cli(capsys, "run", "--engine", "reeval", *inputs, "--semantics", "csparql", "--trace", str(trace))[0] == 0
    judge = ["verify", *inputs, "--semantics", "csparql", "--answers"]
    code, out, _ = _cli(capsys, *judge, str(trace))
    assert code == 0 and "correct" in out and "NOT" not in out
    lines = trace.read_text().splitlines()
    assert len(lines) > 3
    cut = tmp_path / "cut.jsonl"  # a recording that starts late and stops early
    cut.write_text("\n".join([lines[0], *lines[2:-1]]) + "\n")
    assert _cli(capsys, *judge, str(cut))[0] == 1
    code, out, _ = _cli(capsys, *judge, str(cut), "--match", "run", "--json")
    assert code == 0 and json.loads(out)["span"] == [1, len(lines) - 3]
    tampered = tmp_path / "tampered.jsonl"
    report = json.loads(lines[2])
    report["relation"] = report["relation"][1:]
    tampered.write_text("\n".join([lines[0], lines[1], json.dumps(report), *lines[3:]]) + "\n")
    code, out, _ = _cli(capsys, *judge, str(tampered), "--json")
    first = json.loads(out)["first_divergence"]
    assert code == 1 and first["report"] == 1 and first["window"] == report["window"] and first["missing"]["relation"]


def test_bad_answers_are_one_line_naming_the_file_and_line_and_exit_2(tmp_path, capsys):
    inputs = _files(tmp_path)
    cases = {
        "notjson.jsonl": ('{"vars": ["x", "z"]}\nnot json\n', ":2: not JSON"),
        "novars.jsonl": ('{"ts": 0}\n', ":1: the first line is not"),
        "window.jsonl": ('{"vars": ["x", "z"]}\n{"ts": 4, "window": [1, 5], "relation": []}\n',
                         ":2: window [1, 5] is not an instance of profile csparql"),
        "keys.jsonl": ('{"vars": ["x", "z"]}\n{"ts": 4, "window": [0, 4], "added": []}\n', ":2: a report has the keys"),
    }
    for name, (text, message) in cases.items():
        (tmp_path / name).write_text(text)
        code, _, err = _cli(capsys, "verify", *inputs, "--semantics", "csparql", "--answers", str(tmp_path / name))
        assert code == 2 and f"{tmp_path / name}{message}" in err and err.count("\n") == 1, (name, err)
    code, _, err = _cli(capsys, "verify", *inputs, "--semantics", "csparql")
    assert code == 2 and "give one of --engine" in err


def test_an_aligned_profile_records_and_judges_the_instances_before_0(tmp_path, capsys):
    """rspjs is aligned: [-2, 2) holds the events at 0 and 1, so a trace with it is a report stream under rspjs."""
    inputs, trace = _files(tmp_path), tmp_path / "trace.jsonl"
    assert _cli(capsys, "run", "--engine", "reeval", *inputs, "--semantics", "rspjs", "--trace", str(trace))[0] == 0
    assert json.loads(trace.read_text().splitlines()[1])["window"] == [-2, 2]
    assert _cli(capsys, "verify", *inputs, "--semantics", "rspjs", "--answers", str(trace))[0] == 0
    assert _cli(capsys, "verify", *inputs, "--semantics", "csparql", "--answers", str(trace))[0] == 2


def _csr_answer(rows_per_report):
    def term(value):
        return {"type": "literal", "value": value[1:].split('"')[0], "datatype": value.split("^^<")[1][:-1]} \
            if value.startswith('"') else {"type": "uri", "value": value[1:-1]}
    return {"relations": [{"head": {"vars": ["x", "v"]}, "timestamp": 99999,
                           "results": {"bindings": [{"timestamp": 1, "binding": {"v": term(v), "x": term(x)}}
                                                    for x, v in rows]}} for rows in rows_per_report]}


def test_csrbench_answers_bind_by_name_compare_numbers_by_value_and_search_t0(tmp_path, capsys):
    from engines.model.stream import Event, Stream, Update

    xsd = "http://www.w3.org/2001/XMLSchema#"
    values = ['"8"^^<' + xsd + 'integer>', '"9.0"^^<' + xsd + 'double>', '"7"^^<' + xsd + 'integer>']
    events = tuple(Event(i, ts, (Update(1, f"<http://ex/s{i}>", "<http://ex/v>", value),))
                   for i, (ts, value) in enumerate(zip((1, 2, 4), values)))
    write_stream(Stream(events=events), tmp_path / "stream")
    (tmp_path / "q.rq").write_text("# window: tumbling:2\nSELECT ?x ?v WHERE { ?x <http://ex/v> ?v }\n")
    (tmp_path / "any.toml").write_text('t0 = "any"\nbounds = "[o,c)"\ntick = "tuple"\nreport = ["window-close", '
                                       '"non-empty"]\nempty = false\noutput = "rstream"\n')
    # t0 = 0: [0,2) holds s0, [2,4) s1, [4,6) s2; t0 = 1: [1,3) holds s0 and s1, [3,5) s2. Only t0 = 1 explains
    # this answer, whose numbers are written otherwise ("8.0"^^xsd:double for 8, "9"^^xsd:integer for 9.0)
    rows = [[("<http://ex/s0>", '"8.0"^^<' + xsd + 'double>'), ("<http://ex/s1>", '"9"^^<' + xsd + 'integer>')],
            [("<http://ex/s2>", '"7"^^<' + xsd + 'integer>')]]
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps(_csr_answer(rows)))
    base = ["verify", "--stream", str(tmp_path / "stream"), "--query", str(tmp_path / "q.rq"), "--answers", str(answer),
            "--answers-format", "csrbench", "--semantics", str(tmp_path / "any.toml"), "--json"]
    code, out, _ = _cli(capsys, *base, "--t0-step", "1")
    assert code == 0 and json.loads(out)["t0"] == 1 and json.loads(out)["t0_tried"] == [0, 1]
    code, out, _ = _cli(capsys, *base, "--t0-step", "2")  # the origins tried are 0 and 2: neither explains it
    assert code == 1 and json.loads(out)["t0"] is None and json.loads(out)["t0_tried"] == [0, 2]
    answer.write_text(json.dumps(_csr_answer([rows[0] + rows[1] + rows[1]])))  # s1 twice: a bag, not the oracle's
    code, out, _ = _cli(capsys, *base, "--t0-step", "1")
    assert code == 1 and json.loads(out)["t0"] is None and json.loads(out)["t0_tried"] == [0, 1, 2]


def test_csrbench_query_2_under_cqels_is_correct_as_its_oracle_says(tmp_path, capsys):
    assert main(["stream", "import", str(CSRBENCH / "data"), "--format", "turtle-files", "--time-unit", "1000",
                 "--out", str(tmp_path / "csr")]) == 0
    capsys.readouterr()
    code, out, _ = _cli(capsys, "verify", "--stream", str(tmp_path / "csr"), "--query", str(CSRBENCH / "queries/q2.rq"),
                        "--answers", str(CSRBENCH / "answers/cqels-answer-2.json"), "--answers-format", "csrbench",
                        "--match", "run", "--semantics", "cqels", "--json")
    assert code == 0 and json.loads(out)["t0"] == 0


def test_a_wrong_engine_under_a_profile_gets_a_shrunk_reproducer_that_fails_alone(tmp_path, capsys):
    engine = f"{__name__}:DropsOneAnswerEngine"
    code, out, _ = _cli(capsys, "verify", "--engine", engine, *_files(tmp_path), "--semantics", "csparql", "--json",
                        "--reproducer", str(tmp_path / "small"))
    verdict = json.loads(out)
    assert code == 1 and verdict["reproducer"] == str(tmp_path / "small")
    written = json.loads((tmp_path / "small" / "reproduce.json").read_text())
    assert written["options"] == ["--semantics", "csparql"] and 0 < written["events"] < len(CHECK.stream().events)
    argv = shlex.split(written["command"])
    assert argv[:2] == ["cgpm", "verify"] and argv[-2:] == ["--semantics", "csparql"]
    code, out, _ = _cli(capsys, *argv[1:], "--no-reproducer")
    assert code == 1 and "NOT correct" in out
    code, out, _ = _cli(capsys, *[("reeval" if word == engine else word) for word in argv[1:]], "--no-reproducer")
    assert code == 0, out  # the small stream convicts the planted engine, not the profile
