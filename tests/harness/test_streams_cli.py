"""``cgpm stream``: import, export, validate and info work end to end; bad input is one line on stderr and exit 2."""

from __future__ import annotations

import json

import pytest

from harness.examples import UNIVERSITY, UPDATES
from harness.streams import read_stream
from tests.cli_run import cgpm as run


def assert_one_line_error(code, err, *fragments):
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cgpm stream: error: "), err
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.parametrize("text_format", ["nt-events", "trig"])
def test_export_then_import_through_the_cli(tmp_path, capsys, text_format):
    text = tmp_path / f"university.{text_format}"
    code, out, _ = run(capsys, "stream", "export", str(UNIVERSITY), "--format", text_format, "--out", str(text))
    assert code == 0 and "exported 41 events" in out
    code, out, _ = run(capsys, "stream", "import", str(text), "--format", text_format, "--out", str(tmp_path / "back"),
                       "--static", str(UNIVERSITY / "static.nt"), "--schema", str(UNIVERSITY / "schema.nt"))
    assert code == 0 and "imported 41 events" in out
    original, back = read_stream(UNIVERSITY), read_stream(tmp_path / "back")
    assert (back.events, back.static, back.schema) == (original.events, original.static, original.schema)
    assert back.provenance == {"imported_from": str(text), "import_format": text_format}


def test_import_refuses_an_existing_stream_unless_overwrite(tmp_path, capsys):
    text = tmp_path / "updates.nte"
    run(capsys, "stream", "export", str(UPDATES), "--format", "nt-events", "--out", str(text))
    assert run(capsys, "stream", "import", str(text), "--format", "nt-events", "--out", str(tmp_path / "s"))[0] == 0
    code, _, err = run(capsys, "stream", "import", str(text), "--format", "nt-events", "--out", str(tmp_path / "s"))
    assert_one_line_error(code, err, "already holds data")
    code, _, _ = run(capsys, "stream", "import", str(text), "--format", "nt-events", "--out", str(tmp_path / "s"), "--overwrite")
    assert code == 0
    assert read_stream(tmp_path / "s").events == read_stream(UPDATES).events


def test_export_nt_writes_each_inserted_triple_once(tmp_path, capsys):
    code, _, _ = run(capsys, "stream", "export", str(UNIVERSITY), "--format", "nt", "--out", str(tmp_path / "u.nt"))
    assert code == 0
    lines = (tmp_path / "u.nt").read_text().splitlines()
    stream = read_stream(UNIVERSITY)
    assert len(lines) == len(set(lines)) == len({u.triple for e in stream.events for u in e.updates})


def test_export_trig_of_a_stream_with_deletions_fails_cleanly(tmp_path, capsys):
    code, _, err = run(capsys, "stream", "export", str(UPDATES), "--format", "trig", "--out", str(tmp_path / "u.trig"))
    assert_one_line_error(code, err, "deletes", "inserts only")
    assert not (tmp_path / "u.trig").exists() and list(tmp_path.iterdir()) == []


def test_export_into_the_stream_directory_is_refused(tmp_path, capsys):
    code, _, err = run(capsys, "stream", "export", str(UNIVERSITY), "--format", "nt", "--out", str(UNIVERSITY / "x.nt"))
    assert_one_line_error(code, err, "inside the stream directory")


def test_validate(capsys):
    code, out, _ = run(capsys, "stream", "validate", str(UNIVERSITY), "--window", "sliding:10s:1s")
    assert code == 0 and "valid stream, 41 events" in out and "fits window sliding:10000:1000" in out
    code, out, _ = run(capsys, "stream", "validate", str(UPDATES), "--window", "unbounded")
    assert code == 0
    code, _, err = run(capsys, "stream", "validate", str(UPDATES), "--window", "tumbling:1s")
    assert_one_line_error(code, err, "deletions are allowed with an unbounded window only, not tumbling:1000")
    code, _, err = run(capsys, "stream", "validate", str(UPDATES), "--window", "sideways")
    assert_one_line_error(code, err, "bad window 'sideways'")


def test_validate_a_missing_or_broken_stream(tmp_path, capsys):
    code, _, err = run(capsys, "stream", "validate", str(tmp_path / "nope"))
    assert_one_line_error(code, err, "does not exist")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "stream.json").write_text("{oops")
    code, _, err = run(capsys, "stream", "validate", str(tmp_path / "bad"))
    assert_one_line_error(code, err, "stream.json line 1 column 2: malformed JSON")


def test_import_of_a_bad_file_names_the_line(tmp_path, capsys):
    (tmp_path / "bad.nte").write_text("@ts 1\n<http://a> <http://b> <http://c> .\n@ts 0\n<http://a> <http://b> <http://c> .\n")
    code, _, err = run(capsys, "stream", "import", str(tmp_path / "bad.nte"), "--format", "nt-events", "--out", str(tmp_path / "s"))
    assert_one_line_error(code, err, "bad.nte line 3", "before the previous event's 1")
    assert not (tmp_path / "s").exists()


def test_info_text_and_json(capsys):
    code, out, _ = run(capsys, "stream", "info", str(UPDATES))
    assert code == 0 and "14 (13 distinct timestamps" in out and "12 deletes" in out
    code, out, _ = run(capsys, "stream", "info", str(UNIVERSITY), "--json")
    summary = json.loads(out)
    assert summary["events"] == 41 and summary["deletes"] == 0
    assert (summary["first_ts"], summary["last_ts"], summary["span_ms"]) == (1000, 18000, 17000)
    assert summary["static_triples"] == 16 and summary["schema_triples"] == 29
    assert summary["inserts"] == sum(summary["predicate_rows"].values())
    assert summary["triples"] < summary["inserts"]  # the example repeats triples
    assert "17 s" in run(capsys, "stream", "info", str(UNIVERSITY))[1]  # the time span in human units
