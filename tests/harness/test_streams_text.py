"""The two text formats read what docs/streams.md says they read, and timestamps convert exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from harness.streams import export_nt_events, export_trig, import_nt_events, import_trig
from harness.streams.ntriples import parse_triple_line
from harness.streams.trig import TIMESTAMP_MS, datetime_to_ms, ms_to_datetime

A, B, C, P = "<http://x/alice>", "<http://x/bob>", "<http://x/carol>", "<http://x/knows>"


def test_nt_events_as_documented(tmp_path):
    path = tmp_path / "doc.nte"
    path.write_text(
        "# comments and blank lines are free\n"
        "@ts 1000\n"
        f"{A} {P} {B} .\n"
        f'{A} <http://x/age> "42"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
        "\n\n"
        "@ts 1000   # same instant\n"
        f"- {A} {P} {C} .\n"
        "# a comment inside the group does not end it\n"
        f"+\t{A} {P} {C} .\n"
        "@ts -5000\n".replace("-5000", "2500")
        + f"{A}{P}{C}.\r\n"
    )
    events = import_nt_events(path).events
    assert [(e.index, e.ts, [u.op for u in e.updates]) for e in events] == [
        (0, 1000, [INSERT, INSERT]), (1, 1000, [DELETE, INSERT]), (2, 2500, [INSERT])]
    assert events[2].updates[0] == Update(INSERT, A, P, C)


def test_nt_events_export_marks_deletions_and_separates_events(tmp_path):
    stream = Stream(events=(Event(0, -3, (Update(INSERT, A, P, B), Update(DELETE, A, P, C))), Event(1, 7, (Update(INSERT, A, P, C),))))
    export_nt_events(stream, tmp_path / "out.nte")
    lines = (tmp_path / "out.nte").read_text().splitlines()
    assert lines[1:] == ["", "@ts -3", f"{A} {P} {B} .", f"- {A} {P} {C} .", "", "@ts 7", f"{A} {P} {C} ."]
    assert lines[0].startswith("#")


def test_an_empty_nt_events_file_is_an_empty_stream(tmp_path):
    (tmp_path / "empty.nte").write_text("# nothing yet\n")
    assert import_nt_events(tmp_path / "empty.nte").events == ()


@pytest.mark.parametrize(("line", "triple"), [
    (f"{A} {P} {B} .", (A, P, B)),
    (f"{A}{P}{B}.", (A, P, B)),
    (f"\t_:b.1 {P} _:c .  # trailing comment", ("_:b.1", P, "_:c")),
    (f'{A} {P} "say \\"hi\\"\\u0021"@EN .', (A, P, '"say \\"hi\\"!"@en')),
    (f'{A} {P} "x"^^<http://www.w3.org/2001/XMLSchema#string> .', (A, P, '"x"')),
])
def test_ntriples_lines(line, triple):
    assert parse_triple_line(line) == triple


def test_trig_as_documented_with_both_timestamp_forms(tmp_path):
    path = tmp_path / "doc.trig"
    path.write_text(
        "@prefix prov: <http://www.w3.org/ns/prov#> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        "@prefix : <http://x/> .\n"
        ':g1 prov:generatedAtTime "1970-01-01T01:00:01.5+01:00"^^xsd:dateTime .\n'
        f':g2 <{TIMESTAMP_MS}> "2000"^^xsd:long .\n'
        ':stream prov:generatedAtTime "2030-01-01T00:00:00Z"^^xsd:dateTime .\n'  # not a graph: metadata
        ":stream :source :sensor1 .\n"
        ":g1 { :alice :knows :bob , :carol . }\n"
        "_:g2 { :alice :knows :carol . }\n".replace("_:g2", ":g2")
        + ":g1 { :alice :knows :dave . }\n"
    )
    events = import_trig(path).events
    assert [(e.ts, [u.o for u in e.updates]) for e in events] == [
        (1500, [B, C, "<http://x/dave>"]), (2000, [C])]


def test_trig_iris_are_checked_by_engines_terms_rules(tmp_path):
    # pyoxigraph runs lenient (relative IRIs and any well-formed language tag stay as written); a character an
    # IRI may not hold raw comes back in the canonical \\uXXXX spelling, escaped or not in the file.
    path = tmp_path / "lenient.trig"
    path.write_text('<g> <urn:cgpm-bench:timestampMs> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
                    '<g> { <s> <http://x/p> "y"@en-12 . <http://x/a\\u0020b> <http://x/p> <http://x/c d> . }\n')
    updates = import_trig(path).events[0].updates
    assert updates[0] == Update(INSERT, "<s>", "<http://x/p>", '"y"@en-12')
    assert updates[1] == Update(INSERT, "<http://x/a\\u0020b>", "<http://x/p>", "<http://x/c\\u0020d>")


def test_trig_export_writes_datetimes_and_falls_back_to_milliseconds(tmp_path):
    far = 400_000_000_000_000  # beyond the year 9999
    stream = Stream(events=(Event(0, 1500, (Update(INSERT, A, P, B),)), Event(1, far, (Update(INSERT, A, P, C),))))
    export_trig(stream, tmp_path / "out.trig")
    text = (tmp_path / "out.trig").read_text()
    assert '<urn:cgpm-bench:event:0> prov:generatedAtTime "1970-01-01T00:00:01.500Z"^^xsd:dateTime .' in text
    assert f'<urn:cgpm-bench:event:1> <{TIMESTAMP_MS}> "{far}"^^xsd:integer .' in text
    assert import_trig(tmp_path / "out.trig").events == stream.events


def test_trig_export_refuses_deletions(tmp_path):
    from common.errors import StreamError

    stream = Stream(events=(Event(0, 1, (Update(DELETE, A, P, B),)),))
    with pytest.raises(StreamError, match="event 0 \\(ts 1\\) deletes .* holds inserts only; export with --format nt-events"):
        export_trig(stream, tmp_path / "out.trig")
    assert not (tmp_path / "out.trig").exists()


@pytest.mark.parametrize(("text", "ms"), [
    ("1970-01-01T00:00:00Z", 0),
    ("1970-01-01T00:00:00", 0),
    ("1970-01-01T00:00:00.1Z", 100),
    ("1970-01-01T00:00:00.123000Z", 123),
    ("1969-12-31T23:59:59.999Z", -1),
    ("2020-02-29T12:00:00-05:30", 1582997400000),
    ("1999-12-31T24:00:00Z", 946684800000),
])
def test_datetime_to_ms(text, ms):
    assert datetime_to_ms(text) == ms


@given(st.integers(-62_135_596_800_000, 253_402_300_799_999))
def test_ms_to_datetime_and_back(ms):
    assert datetime_to_ms(ms_to_datetime(ms)) == ms


def test_ms_to_datetime_out_of_range():
    assert ms_to_datetime(253_402_300_800_000) is None
    assert ms_to_datetime(-62_135_596_800_001) is None
