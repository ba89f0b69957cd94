"""Many queries in one engine: every query registered together gives, at every instant, its one-instance answers.

Conformance: for every engine whose capabilities cover a named check, the check's query is
registered with variants of it in one engine (an identical copy, which a sharing engine shares
whole; a copy with renamed variables; the query under another window and, where the engine
takes it, another entailment), and each query's answers after every event must equal those of
an instance holding that query alone. Differential: 2-5 random queries over one random stream.
The one-instance answers are checked against the oracle by test_conformance and test_differential.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import EngineError
from engines.model.query import parse_query
from engines.model.stream import Delta
from engines.protocol import MultiDelta, per_query
from engines.registry import get_engine, known_engines
from harness.engines_setup import build_engine, build_query_set, engine_class_for
from tests.conformance.checks import CHECKS
from tests.strategies import queries, query_texts, streams, windows

MATCHERS = [name for name in known_engines() if get_engine(name).capabilities.matches and name != "oxigraph"]
SHARING = [name for name in MATCHERS if get_engine(name).capabilities.shares]
OTHER_WINDOWS = ("event", "sliding:2:1", "tumbling:3", "unbounded")
VIEW_SHARING = {"tpjoin-lazy": "view_triples", "tpjoin-eager": "view_triples", "spectra": "view_rows"}  # what counts rows


def _held_after_each_event(engine, stream, count: int):
    """Per event, each query's answers built from its deltas."""
    held = [set() for _ in range(count)]
    for event in stream.events:
        result = engine.push(event)
        assert isinstance(result, Delta if count == 1 else MultiDelta)
        deltas = per_query(result)
        assert len(deltas) == count
        for query_id, delta in enumerate(deltas):
            assert len(set(delta.added)) == len(delta.added), f"query {query_id}: an answer added twice"
            held[query_id] = (held[query_id] - set(delta.removed)) | set(delta.added)
        yield [frozenset(answers) for answers in held]


def _assert_each_as_alone(engine_name: str, queries_list, stream, *, share: bool = True) -> None:
    together = build_query_set(engine_name, queries_list, stream, share=share)
    traces = list(_held_after_each_event(together, stream, len(queries_list)))
    for query_id, query in enumerate(queries_list):
        alone = build_engine(engine_name, query, stream)
        for index, (held, (want,)) in enumerate(zip(traces, _held_after_each_event(alone, stream, 1), strict=True)):
            got = held[query_id]
            assert got == want, f"query {query_id} at event {index}: missing {want - got}, extra {got - want}"
        assert set(together.answers(query_id)) == set(alone.answers())


def _variants(engine_name: str, check) -> list:
    stream = check.stream()
    text = check.query_text()
    base = parse_query(text, window=check.window, entailment=check.entailment, name=check.name)
    renamed = parse_query(re.sub(r"\?(\w+)", r"?\1_r", text), window=check.window, entailment=check.entailment)
    found = [base, base, renamed]
    for spec in () if stream.has_deletions else OTHER_WINDOWS:  # deletions: unbounded windows only
        other = parse_query(text, window=spec, entailment=check.entailment)
        if other.window != base.window and _runs(engine_name, other, stream):
            found.append(other)
            break
    if check.schema or check.entailment == "rdfs":
        other = parse_query(text, window=check.window, entailment="none" if check.entailment == "rdfs" else "rdfs")
        if _runs(engine_name, other, stream):
            found.append(other)
    return found


def _runs(engine_name: str, query, stream) -> bool:
    try:
        engine_class_for(engine_name, query, stream)
    except EngineError:
        return False
    return True


CASES = [
    pytest.param(name, check, id=f"{name}:{check.name}")
    for name in MATCHERS
    for check in CHECKS
    if _runs(name, parse_query(check.query_text(), window=check.window, entailment=check.entailment), check.stream())
]


@pytest.mark.parametrize(("engine_name", "check"), CASES)
def test_queries_together_answer_as_alone(engine_name, check):
    _assert_each_as_alone(engine_name, _variants(engine_name, check), check.stream())


def test_sharing_engines_say_what_they_share():
    assert {"reeval", "sparkwave", "tpjoin-event", "tpjoin-lazy", "tpjoin-eager", "spectra"} <= set(SHARING)
    assert not get_engine("tpjoin-event-nopart").capabilities.shares


def test_an_engine_that_cannot_share_runs_one_instance_per_query():
    check = CHECKS[0]
    query = parse_query(check.query_text(), window=check.window)
    engine = build_query_set("spectra-rev", [query, query], check.stream())
    assert engine.name == "spectra-rev+perquery" and engine.capabilities.shares == ""
    assert engine.stats()["instances"] == 2


def test_one_query_is_the_engine_itself():
    check = CHECKS[0]
    query = parse_query(check.query_text(), window=check.window)
    engine = build_query_set("reeval", [query], check.stream())
    assert engine.name == "reeval" and isinstance(engine.push(check.stream().events[0]), Delta)


@pytest.mark.parametrize("engine_name", ["reeval", "sparkwave", "tpjoin-lazy"])
def test_queries_are_registered_before_the_first_event(engine_name):
    check = CHECKS[0]
    query = parse_query(check.query_text(), window=check.window)
    stream = check.stream()
    engine = build_query_set(engine_name, [query, query], stream)
    engine.push(stream.events[0])
    with pytest.raises(EngineError, match="before the first event"):
        engine.add_query(query)


@st.composite
def many_query_cases(draw):
    window = draw(windows())
    stream = draw(streams(deletions=window.kind == "unbounded", static=draw(st.booleans())))
    count = draw(st.integers(2, 5))
    drawn = []
    for _ in range(count):
        # mostly the shared window, sometimes another: a sharing engine groups by window
        own = window if window.kind == "unbounded" or draw(st.integers(0, 3)) else draw(windows(("sliding", "event")))
        drawn.append(draw(queries(own)))
    return drawn, stream


@st.composite
def renamed_query_cases(draw):
    """Queries sharing every pattern up to renaming: each drawn query and a copy with its variables renamed."""
    window = draw(windows())
    stream = draw(streams(deletions=window.kind == "unbounded", static=draw(st.booleans())))
    drawn = []
    for _ in range(draw(st.integers(1, 2))):
        text = draw(query_texts())
        drawn += [parse_query(text, window=window), parse_query(re.sub(r"\?(\w+)", r"?\1_r", text), window=window)]
    return drawn, stream


@pytest.mark.parametrize("engine_name", sorted(VIEW_SHARING))
@settings(max_examples=120, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=renamed_query_cases())
def test_random_queries_sharing_their_patterns_answer_as_alone(engine_name, case):
    drawn, stream = case
    if not all(_runs(engine_name, query, stream) for query in drawn):
        return
    _assert_each_as_alone(engine_name, drawn, stream)


@pytest.mark.parametrize("engine_name", SHARING)
@settings(max_examples=120, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(case=many_query_cases())
def test_random_queries_together_answer_as_alone(engine_name, case):
    drawn, stream = case
    if not all(_runs(engine_name, query, stream) for query in drawn):
        return  # outside this engine's capabilities (a refusal, tested in the conformance suite)
    _assert_each_as_alone(engine_name, drawn, stream)


@pytest.mark.parametrize(("engine_name", "held"), VIEW_SHARING.items())
def test_one_view_per_distinct_pattern_across_the_query_set(engine_name, held):
    """Copies differing in their course, and one with its variables renamed: the Student pattern is one view.

    At every event the set's views hold exactly the triples one query over every course holds
    (``?s :takes ?c . ?s a :Student``): each Student triple once, however many copies read it."""
    from tests.conformance.checks import PREFIXES, build_stream

    stream = build_stream([
        (0, ["+ :s1 a :Student", "+ :s2 a :Student"]), (1, ["+ :s1 :takes :c1"]), (2, ["+ :s3 a :Student"]),
        (3, ["+ :s3 :takes :c2", "+ :s2 :takes :c1"]), (7, ["+ :s9 a :Student"]), (8, ["+ :s1 a :Student"]),
        (9, ["+ :s1 :takes :c2"]),
    ])
    text = PREFIXES + "SELECT * WHERE {{ ?s :takes <http://ex/{}> . ?s a :Student }}"
    drawn = [parse_query(text.format(course), window="sliding:4:1") for course in ("c1", "c2", "c3")]
    drawn.append(parse_query(text.format("c1").replace("?s", "?student"), window="sliding:4:1"))
    _assert_each_as_alone(engine_name, drawn, stream)
    engine = build_query_set(engine_name, drawn, stream)
    every_course = build_engine(engine_name, parse_query(text.format("c1").replace("<http://ex/c1>", "?c"),
                                                           window="sliding:4:1"), stream)
    for event in stream.events:
        engine.push(event)
        every_course.push(event)
        stats = engine.stats()
        assert stats["views"] == 4  # Student, and takes c1, c2, c3
        assert stats[held] == every_course.stats()[held]
        assert stats["window_triples"] == every_course.stats()["window_triples"]


@pytest.mark.parametrize("engine_name", VIEW_SHARING)
def test_views_are_shared_with_filters_and_repeated_patterns_exactly(engine_name):
    """A pattern's atomic FILTER is part of what its view holds; a pattern twice in a query reads a copy of its view."""
    from tests.conformance.checks import PREFIXES, build_stream

    stream = build_stream([
        (0, ['+ :a :age "4"^^xsd:integer', "+ :a :knows :b"]), (1, ["+ :b :knows :c", '+ :b :age "7"^^xsd:integer']),
        (2, ["+ :c :knows :a", "+ :a :knows :c"]), (4, ['+ :c :age "2"^^xsd:integer', "+ :c :knows :b"]),
        (6, ["+ :b :knows :a"]), (9, ['+ :a :age "9"^^xsd:integer']),
    ])
    texts = [
        "SELECT * WHERE { ?x :age ?a FILTER(?a > 3) }",
        "SELECT * WHERE { ?y :age ?b FILTER(?b > 5) }",
        "SELECT * WHERE { ?z :age ?c . ?z :knows ?w FILTER(?c > 3) }",
        "SELECT * WHERE { ?x :knows ?y . ?y :knows ?z }",
        "SELECT * WHERE { ?p :knows ?q . ?q :knows ?p . ?p :age ?n }",
    ]
    drawn = [parse_query(PREFIXES + text, window="sliding:5:1") for text in texts]
    _assert_each_as_alone(engine_name, drawn, stream)
    engine = build_query_set(engine_name, drawn, stream)
    engine.push(stream.events[0])
    # age > 3 (queries 0 and 2), age > 5, knows (three queries) and its copy (two of them twice), age unfiltered
    assert engine.stats()["views"] == 5
