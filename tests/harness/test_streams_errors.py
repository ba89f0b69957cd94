"""Every bad input is refused with one line naming where (file, row or line, event) and what is wrong."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from common.errors import StreamError, TermError
from engines.model.stream import DELETE, INSERT, Event, Stream, Update, Window
from harness.streams import check_window, import_nt_events, import_trig, read_stream, write_stream

S, P, OBJ = "<http://ex.org/s>", "<http://ex.org/p>", "<http://ex.org/o>"


def rows(*items, **columns) -> dict:
    """Columns of event rows from ``(event, ts, op, s, p, o)`` tuples, overridable per column."""
    names = ("event", "ts", "op", "s", "p", "o")
    data = {name: [item[i] for item in items] for i, name in enumerate(names)}
    data.update(columns)
    return data


def make_stream_dir(tmp_path: Path, data: dict | pa.Table, *, schema=None, provenance="{}") -> Path:
    directory = tmp_path / "stream"
    (directory / "events").mkdir(parents=True)
    (directory / "stream.json").write_text(provenance)
    table = data if isinstance(data, pa.Table) else pa.table(data, schema=schema)
    pq.write_table(table, directory / "events" / "part-00000.parquet")
    return directory


GOOD = [(0, 10, 1, S, P, OBJ), (0, 10, 1, S, P, '"x"'), (5, 20, -1, S, P, OBJ)]
SCHEMA = pa.schema([("event", pa.int64()), ("ts", pa.int64()), ("op", pa.int8()),
                    ("s", pa.string()), ("p", pa.string()), ("o", pa.string())])


def read_error(tmp_path, items, error=StreamError, **options) -> str:
    directory = make_stream_dir(tmp_path, rows(*items), schema=SCHEMA, **options)
    with pytest.raises(error) as caught:
        read_stream(directory)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_good_hand_made_stream_with_empty_provenance_loads(tmp_path):
    stream = read_stream(make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA))
    assert [(e.index, e.ts, len(e.updates)) for e in stream.events] == [(0, 10, 2), (1, 20, 1)]
    assert stream.provenance == {}


def test_decreasing_timestamps(tmp_path):
    message = read_error(tmp_path, [(0, 10, 1, S, P, OBJ), (1, 30, 1, S, P, OBJ), (2, 20, 1, S, P, OBJ)])
    assert "part-00000.parquet row 2 (event 2, event id 2)" in message
    assert "timestamp 20 is before the previous event's 30" in message


def test_rows_of_one_event_with_different_timestamps(tmp_path):
    message = read_error(tmp_path, [(0, 10, 1, S, P, OBJ), (4, 20, 1, S, P, OBJ), (4, 21, 1, S, P, '"x"')])
    assert "row 2 (event 1, event id 4)" in message
    assert "timestamp 21 differs from the event's timestamp 20" in message


def test_decreasing_event_ids(tmp_path):
    message = read_error(tmp_path, [(3, 10, 1, S, P, OBJ), (2, 10, 1, S, P, OBJ)])
    assert "row 1" in message and "event id 2 follows 3" in message


@pytest.mark.parametrize("op", [0, 2, -2, 127])
def test_an_op_other_than_plus_or_minus_one(tmp_path, op):
    message = read_error(tmp_path, [(0, 10, 1, S, P, OBJ), (1, 11, op, S, P, OBJ)])
    assert "row 1 (event 1, event id 1)" in message and f"op {op} is neither +1" in message


@pytest.mark.parametrize(
    ("triple", "problem"),
    [
        ((S, P, "<http://ex.org/a b>"), "object: malformed IRI"),
        ((S, P, '"unterminated'), "object: malformed literal"),
        (("http://ex.org/s", P, OBJ), "subject: malformed term"),
        ((S, P, '"x"@'), "object: malformed literal"),
        (('"lit"', P, OBJ), 'subject: literal "lit" in subject position'),
        ((S, '"lit"', OBJ), 'predicate: literal "lit" in predicate position'),
        ((S, "_:b0", OBJ), "predicate: blank node _:b0 in predicate position"),
    ],
)
def test_malformed_or_misplaced_terms(tmp_path, triple, problem):
    message = read_error(tmp_path, [(0, 10, 1, S, P, OBJ), (1, 11, 1, *triple)], error=TermError)
    assert "row 1 (event 1, event id 1)" in message and problem in message


def test_a_missing_column(tmp_path):
    directory = make_stream_dir(tmp_path, {k: v for k, v in rows(*GOOD).items() if k != "op"})
    with pytest.raises(StreamError, match=r"part-00000\.parquet: missing column 'op'"):
        read_stream(directory)


@pytest.mark.parametrize(("column", "values", "expected"), [
    ("ts", ["10", "10", "20"], "column 'ts' has type string, expected an integer type"),
    ("op", [1.0, 1.0, -1.0], "column 'op' has type double, expected an integer type"),
    ("s", [1, 2, 3], "column 's' has type int64, expected string"),
])
def test_a_mistyped_column(tmp_path, column, values, expected):
    directory = make_stream_dir(tmp_path, rows(*GOOD, **{column: values}))
    with pytest.raises(StreamError, match=re.escape(expected)):
        read_stream(directory)


def test_a_null_value(tmp_path):
    message = read_error(tmp_path, [(0, 10, 1, S, P, OBJ), (1, 11, 1, S, None, OBJ)])
    assert "row 1: column 'p' is null" in message


def test_a_missing_directory(tmp_path):
    with pytest.raises(StreamError, match="stream directory .*nowhere does not exist"):
        read_stream(tmp_path / "nowhere")


def test_a_file_instead_of_a_directory(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(StreamError, match="is not a stream directory \\(it is a file\\)"):
        read_stream(tmp_path / "file")


def test_a_directory_without_stream_json(tmp_path):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA)
    (directory / "stream.json").unlink()
    with pytest.raises(StreamError, match=r"has no stream\.json \(write \{\} there"):
        read_stream(directory)


def test_a_stream_without_events(tmp_path):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "stream.json").write_text("{}")
    with pytest.raises(StreamError, match="has no events/ directory"):
        read_stream(tmp_path / "s")
    (tmp_path / "s" / "events").mkdir()
    (tmp_path / "s" / "events" / "_SUCCESS").write_text("")
    with pytest.raises(StreamError, match="holds no Parquet files"):
        read_stream(tmp_path / "s")


def test_an_unreadable_parquet_file(tmp_path):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA)
    (directory / "events" / "part-00001.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(StreamError, match=r"cannot read .*part-00001\.parquet as Parquet"):
        read_stream(directory)


@pytest.mark.parametrize(("text", "expected"), [
    ('{"dataset": "x",\n "seed": }', r"stream\.json line 2 column 10: malformed JSON"),
    ("[1, 2]", r"stream\.json must hold a JSON object \(use \{\} for none\), not a list"),
    ("", r"stream\.json line 1 column 1: malformed JSON"),
])
def test_malformed_stream_json(tmp_path, text, expected):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA, provenance=text)
    with pytest.raises(StreamError, match=expected):
        read_stream(directory)


@pytest.mark.parametrize("name", ["static.nt", "schema.nt"])
@pytest.mark.parametrize(("line", "problem"), [
    ("<http://a> <http://b> .", "the object is missing"),
    ("<http://a> <http://b> <http://c>", "missing the final ' .'"),
    ('"a" <http://b> <http://c> .', 'literal "a" in subject position'),
    ("<http://a> _:p <http://c> .", "blank node _:p in predicate position"),
    ("<http://a> <http://b> <http://c> . junk", "unexpected text after the final '.': 'junk'"),
    ("<http://a> <http://b> <http://c> <http://d> .", "expected ' .' after the object, found '<http://d> .'"),
    ("<http://a> <http://b> <http://c d> .", "malformed object"),
])
def test_malformed_static_or_schema_lines(tmp_path, name, line, problem):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA)
    (directory / name).write_text(f"# comment\n<http://a> <http://b> <http://c> .\n\n{line}\n")
    with pytest.raises(TermError) as caught:
        read_stream(directory)
    assert f"{name} line 4: " in str(caught.value) and problem in str(caught.value)


def test_static_that_is_not_utf8(tmp_path):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA)
    (directory / "static.nt").write_bytes(b'<http://a> <http://b> "\xff" .\n')
    with pytest.raises(StreamError, match=r"static\.nt is not UTF-8 text"):
        read_stream(directory)


DELETING = Stream(events=(Event(0, 5, (Update(INSERT, S, P, OBJ),)), Event(1, 7, (Update(DELETE, S, P, OBJ),))))


@pytest.mark.parametrize("window", [Window.sliding(10, 1), Window.tumbling(10), Window("event")])
def test_deletions_under_a_window_that_is_not_unbounded(window):
    with pytest.raises(StreamError) as caught:
        check_window(DELETING, window)
    assert f"event 1 (ts 7) deletes {S} {P} {OBJ}" in str(caught.value)
    assert f"deletions are allowed with an unbounded window only, not {window.spec()}" in str(caught.value)


def test_deletions_under_an_unbounded_window_are_fine(tmp_path):
    check_window(DELETING, Window("unbounded"))
    write_stream(DELETING, tmp_path / "d")
    assert read_stream(tmp_path / "d", window=Window("unbounded")) == DELETING
    with pytest.raises(StreamError, match="deletions are allowed with an unbounded window only"):
        read_stream(tmp_path / "d", window=Window.sliding(5, 5))


def test_writing_an_empty_event_is_refused(tmp_path):
    stream = Stream(events=(Event(0, 1, (Update(INSERT, S, P, OBJ),)), Event(1, 2, ())))
    with pytest.raises(StreamError, match="event 1 \\(ts 2\\) has no updates"):
        write_stream(stream, tmp_path / "s")
    assert not (tmp_path / "s").exists()


def test_writing_a_stream_that_breaks_the_rules_is_refused(tmp_path):
    backwards = Stream(events=(Event(0, 9, (Update(INSERT, S, P, OBJ),)), Event(1, 2, (Update(INSERT, S, P, OBJ),))))
    with pytest.raises(StreamError, match="timestamp 2 is before the previous event's 9"):
        write_stream(backwards, tmp_path / "s")
    bad_op = Stream(events=(Event(0, 9, (Update(3, S, P, OBJ),)),))
    with pytest.raises(StreamError, match="op 3 is neither"):
        write_stream(bad_op, tmp_path / "s")
    bad_term = Stream(events=(Event(0, 9, (Update(INSERT, '"x"', P, OBJ),)),))
    with pytest.raises(TermError, match="literal \"x\" in subject position"):
        write_stream(bad_term, tmp_path / "s")
    assert not (tmp_path / "s").exists()
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- text imports


def nt_events_error(tmp_path, text: str, error=StreamError) -> str:
    path = tmp_path / "in.nte"
    path.write_text(text)
    with pytest.raises(error) as caught:
        import_nt_events(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    return str(caught.value)


TRIPLE = f"{S} {P} {OBJ} ."


def test_nt_events_triple_before_any_ts_line(tmp_path):
    message = nt_events_error(tmp_path, f"# header\n{TRIPLE}\n")
    assert "line 2: triple outside an event: start each group of lines with '@ts MILLISECONDS'" in message


def test_nt_events_triple_after_a_blank_line_without_a_new_ts(tmp_path):
    message = nt_events_error(tmp_path, f"@ts 1\n{TRIPLE}\n\n{TRIPLE}\n")
    assert "line 4: triple outside an event" in message and "a blank line ends an event" in message


@pytest.mark.parametrize("directive", ["@ts", "@ts 1.5", "@ts ten", "@time 10", "@ts 10 extra"])
def test_nt_events_malformed_directive(tmp_path, directive):
    message = nt_events_error(tmp_path, f"@ts 1\n{TRIPLE}\n\n{directive}\n{TRIPLE}\n")
    assert "line 4: malformed directive" in message and "expected '@ts MILLISECONDS'" in message


def test_nt_events_decreasing_timestamps(tmp_path):
    message = nt_events_error(tmp_path, f"@ts 100\n{TRIPLE}\n\n@ts 100\n{TRIPLE}\n\n@ts 99\n{TRIPLE}\n")
    assert "line 7: event 2 has timestamp 99, before the previous event's 100" in message


def test_nt_events_event_without_triples(tmp_path):
    message = nt_events_error(tmp_path, f"@ts 1\n{TRIPLE}\n\n@ts 2\n\n@ts 3\n{TRIPLE}\n")
    assert "line 4: event 1 (ts 2) has no triples" in message


@pytest.mark.parametrize(("line", "problem"), [
    (f"{S} {P} <bad iri> .", "malformed object"),
    (f'"lit" {P} {OBJ} .', 'literal "lit" in subject position'),
    (f"{S} _:b {OBJ} .", "blank node _:b in predicate position"),
    (f"{S} {P} {OBJ}", "missing the final ' .'"),
    (f"- {S} {P} .", "the object is missing"),
])
def test_nt_events_malformed_triples(tmp_path, line, problem):
    message = nt_events_error(tmp_path, f"@ts 1\n{TRIPLE}\n\n@ts 5\n{TRIPLE}\n{line}\n", error=TermError)
    assert "line 6 (event 1, ts 5): " in message and problem in message


def test_nt_events_sign_without_space(tmp_path):
    message = nt_events_error(tmp_path, f"@ts 1\n-{TRIPLE}\n")
    assert "line 2: expected a space after '-'" in message


def test_nt_events_missing_file(tmp_path):
    with pytest.raises(StreamError, match="cannot read .*missing.nte"):
        import_nt_events(tmp_path / "missing.nte")


def trig_error(tmp_path, text: str, error=StreamError) -> str:
    path = tmp_path / "in.trig"
    path.write_text("@prefix prov: <http://www.w3.org/ns/prov#> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n" + text)
    with pytest.raises(error) as caught:
        import_trig(path)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    return str(caught.value)


def stamp(graph: str, value: str) -> str:
    return f'{graph} prov:generatedAtTime "{value}"^^xsd:dateTime .\n'


def test_trig_graph_without_timestamp(tmp_path):
    message = trig_error(tmp_path, stamp("<http://g1>", "2020-01-01T00:00:00Z") + f"<http://g1> {{ {TRIPLE} }}\n<http://g2> {{ {TRIPLE} }}\n")
    assert "graph <http://g2> (event 1) has no timestamp" in message


def test_trig_graph_with_two_timestamps(tmp_path):
    text = stamp("<http://g1>", "2020-01-01T00:00:00Z") + stamp("<http://g1>", "2020-01-01T00:00:01Z") + f"<http://g1> {{ {TRIPLE} }}\n"
    assert "graph <http://g1> has two timestamps" in trig_error(tmp_path, text)


@pytest.mark.parametrize(("value", "problem"), [
    ("yesterday", "not an xsd:dateTime"),
    ("2020-01-01T00:00:00.0001Z", "finer than a millisecond"),
    ("2020-13-01T00:00:00Z", "month must be in 1..12"),
])
def test_trig_bad_timestamp(tmp_path, value, problem):
    message = trig_error(tmp_path, stamp("<http://g1>", value) + f"<http://g1> {{ {TRIPLE} }}\n")
    assert "bad timestamp" in message and "for graph <http://g1>" in message and problem in message


def test_trig_timestamp_of_a_wrong_datatype(tmp_path):
    text = '<http://g1> prov:generatedAtTime "10" .\n' + f"<http://g1> {{ {TRIPLE} }}\n"
    assert "neither xsd:dateTime nor an xsd integer type" in trig_error(tmp_path, text)


def test_trig_decreasing_timestamps(tmp_path):
    text = (stamp("<http://g1>", "2020-01-01T00:00:01Z") + stamp("<http://g2>", "2020-01-01T00:00:00Z")
            + f"<http://g1> {{ {TRIPLE} }}\n<http://g2> {{ {TRIPLE} }}\n")
    message = trig_error(tmp_path, text)
    assert "graph <http://g2>: event 1 has timestamp 1577836800000, before the previous event's 1577836801000" in message


def test_trig_syntax_error_names_the_line(tmp_path):
    message = trig_error(tmp_path, stamp("<http://g1>", "2020-01-01T00:00:00Z") + f"<http://g1> {{ {S} {P} \"open }}\n")
    assert "line 4:" in message


def test_trig_literal_subject_is_a_syntax_error(tmp_path):
    message = trig_error(tmp_path, stamp("<http://g1>", "2020-01-01T00:00:00Z") + f'<http://g1> {{ "x" {P} {OBJ} . }}\n')
    assert "line 4:" in message and "subject" in message


def test_trig_term_that_engines_terms_rejects_names_the_graph(tmp_path):
    lang_string = '"x"^^<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>'
    message = trig_error(tmp_path, stamp("<http://g1>", "2020-01-01T00:00:00Z") + f"<http://g1> {{ {S} {P} {OBJ} . {S} {P} {lang_string} . }}\n", error=TermError)
    assert "graph <http://g1> (event 0): rdf:langString literal without a language tag" in message


def test_trig_plain_turtle_is_not_a_stream(tmp_path):
    assert "holds no named graph" in trig_error(tmp_path, f"{TRIPLE}\n")


def test_trig_missing_file(tmp_path):
    with pytest.raises(StreamError, match="cannot read .*nothing.trig: no such file"):
        import_trig(tmp_path / "nothing.trig")


def test_json_provenance_is_read(tmp_path):
    directory = make_stream_dir(tmp_path, rows(*GOOD), schema=SCHEMA, provenance=json.dumps({"seed": 7}))
    assert read_stream(directory).provenance == {"seed": 7}
