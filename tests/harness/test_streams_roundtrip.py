"""Round trips: write→read (Parquet) and export→import (nt-events, TriG) give back the same stream, terms canonical."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.model.stream import DELETE, INSERT, Event, Stream, Update
from engines.model.terms import XSD, literal, parse_term
from harness.streams import (
    export_nt_events,
    export_trig,
    import_nt_events,
    import_trig,
    read_stream,
    write_stream,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Escapes stand for characters an IRI may not hold raw (space, >, ") and for ones it may (A, é).
_IRI_CHARS = st.sampled_from(
    list("abcxyzABZ019-._~/#?=&%:@!$()*+,;") + ["é", "ß", "中", "😀", "\\u0020", "\\u003e", "\\u0022", "\\u0041", "\\u00E9"]
)
iris = st.lists(_IRI_CHARS, max_size=12).map(lambda path: parse_term(f"<http://ex.org/{''.join(path)}>"))
bnodes = st.from_regex(r"[A-Za-z_][A-Za-z0-9_\-]{0,5}(\.[A-Za-z0-9_]{1,3})?", fullmatch=True).map(lambda label: f"_:{label}")
lexical_forms = st.one_of(
    st.text(max_size=12),  # any characters: quotes, backslashes, newlines, control characters, astral planes
    st.sampled_from(["", " ", "01", "+1", "1.0", "1e3", "-0", "NaN", "true", "\\u0041", '"', "\\", "\r\n", "\t"]),
)
language_tags = st.from_regex(r"[a-zA-Z]{2,8}(-[a-zA-Z0-9]{2,8}){0,2}", fullmatch=True)
datatypes = st.sampled_from([XSD + "integer", XSD + "decimal", XSD + "string", XSD + "dateTime", "http://ex.org/dt"])
literals = st.one_of(
    lexical_forms.map(literal),
    st.builds(lambda lex, tag: literal(lex, None, tag), lexical_forms, language_tags),
    st.builds(lambda lex, dt: literal(lex, dt), lexical_forms, datatypes),
)
subjects = st.one_of(iris, bnodes)
objects = st.one_of(iris, bnodes, literals)


def updates(ops):
    return st.builds(Update, ops, subjects, iris, objects)


BOTH_OPS = st.sampled_from([INSERT, DELETE])


def event_lists(ops=BOTH_OPS, min_ts=-(10**12), max_ts=10**12):
    batch = st.lists(updates(ops), min_size=1, max_size=4)
    return st.lists(st.tuples(st.integers(min_ts, max_ts), batch), max_size=8).map(
        lambda items: tuple(
            Event(index, ts, tuple(batch)) for index, (ts, batch) in enumerate(sorted(items, key=lambda item: item[0]))
        )
    )


triples = st.tuples(subjects, iris, objects)


@SETTINGS
@given(
    events=event_lists(min_ts=-(2**62), max_ts=2**62),
    static=st.lists(triples, max_size=4),
    schema=st.lists(triples, max_size=3),
    provenance=st.dictionaries(st.text(max_size=5), st.one_of(st.integers(), st.text(max_size=5)), max_size=3),
)
def test_write_then_read_gives_the_same_stream(events, static, schema, provenance):
    stream = Stream(events=events, static=tuple(static), schema=tuple(schema), provenance=provenance)
    with tempfile.TemporaryDirectory() as folder:
        write_stream(stream, Path(folder) / "stream")
        assert read_stream(Path(folder) / "stream") == stream


@SETTINGS
@given(events=event_lists())
def test_nt_events_export_then_import_gives_the_same_events(events):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stream.nte"
        export_nt_events(Stream(events=events), path)
        assert import_nt_events(path).events == events


@SETTINGS
@given(events=event_lists(ops=st.just(INSERT), min_ts=-62_135_596_800_000 - 10**6, max_ts=253_402_300_800_000 + 10**6))
def test_trig_export_then_import_gives_the_same_events(events):
    # Timestamps span the years 1-9999 (written as xsd:dateTime) and a little beyond (written as integer ms).
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stream.trig"
        export_trig(Stream(events=events), path)
        assert import_trig(path).events == events


def test_terms_are_canonicalised_on_the_way_in(tmp_path):
    raw = Event(0, 1, (Update(INSERT, "<http://ex.org/\\u0061>", "<http://ex.org/p>", '"\\u0041b"@EN-gb'),
                       Update(INSERT, "_:b0", "<http://ex.org/p>", f'"x"^^<{XSD}string>')))
    write_stream(Stream(events=(raw,)), tmp_path / "s")
    read = read_stream(tmp_path / "s").events[0].updates
    assert read[0] == Update(INSERT, "<http://ex.org/a>", "<http://ex.org/p>", '"Ab"@en-gb')
    assert read[1].o == '"x"'
    assert all(term == parse_term(term) for update in read for term in update[1:])


def test_odd_lexical_forms_are_kept_exactly(tmp_path):
    forms = [literal("01", XSD + "integer"), literal("1.0", XSD + "integer"), literal(" 1", XSD + "integer"), '"a\\nb"']
    stream = Stream(events=(Event(0, 0, tuple(Update(INSERT, "<http://s>", "<http://p>", o) for o in forms)),))
    write_stream(stream, tmp_path / "s")
    assert [u.o for u in read_stream(tmp_path / "s").events[0].updates] == forms
    export_nt_events(stream, tmp_path / "s.nte")
    assert import_nt_events(tmp_path / "s.nte").events == stream.events
    export_trig(stream, tmp_path / "s.trig")
    assert import_trig(tmp_path / "s.trig").events == stream.events
