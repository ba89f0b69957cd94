"""The oxigraph baseline and oracle copy their live quads into a fresh store as removals pile up, and answer as before.

pyoxigraph's in-memory store keeps removed quads as old versions that every scan walks, so without the copy an
event's query costs O(stream). Here the copy is made at every event that removed a quad: every named check
(deletions, sliding and event windows, static data, rdfs, named windows) must agree with reeval at every event,
the copied store must hold what the old one held, and the answers must keep their input spelling. The oxigraph
oracle, whose store follows M's graph instant by instant, must still agree with the rdflib oracle.
"""

from __future__ import annotations

import pytest
from pyoxigraph import DefaultGraph, NamedNode, Quad

from common import oxigraph_store
from engines.baselines.oxigraph_engine import OxigraphEngine
from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.stream import INSERT, Event, Update
from oracles.evaluate import oracle_answers
from tests.conformance.checks import CHECKS, build_stream
from tests.conformance.streams_checks import STREAMS_CHECKS
from tests.engines.test_oxigraph_divergence import ONE, ZERO_ONE, spellings_after_each_event

SKIPPED = {"numeric-term-identity"}  # the known divergence (test_oxigraph_divergence.py), not the copy's
P = "<http://ex/p>"


@pytest.fixture
def copy_at_every_removal(monkeypatch):
    monkeypatch.setattr(oxigraph_store, "COPY_FLOOR", 1)
    monkeypatch.setattr(oxigraph_store, "COPY_FACTOR", 0)


def _engines(check):
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    stream = check.stream()
    options = {"static": stream.static, "schema": stream.schema}
    return OxigraphEngine(query, **options), ReevalEngine(query, **options), stream


# the oxigraph oracle takes one window (it refuses named windows)
ORACLE_CHECKS = [c for c in CHECKS if c.name not in SKIPPED]


def _oxigraph_runs(check) -> bool:
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    kind = query.window.kind if not query.named_windows else "sliding"
    return check.name not in SKIPPED and (query.named_windows or kind in OxigraphEngine.capabilities.windows)


@pytest.mark.parametrize("check", [c for c in CHECKS + STREAMS_CHECKS if _oxigraph_runs(c)], ids=lambda c: c.name)
def test_every_check_agrees_with_reeval_when_the_store_is_copied_at_every_removal(check, copy_at_every_removal):
    oxigraph, reeval, stream = _engines(check)
    for event in stream.events:
        mine, theirs = oxigraph.push(event), reeval.push(event)
        assert (set(mine.added), set(mine.removed)) == (set(theirs.added), set(theirs.removed)), \
            f"{check.name}: event {event.index}"
        assert oxigraph.answers() == reeval.answers()
        assert oxigraph.store.removed_since_copy == 0  # only a copy resets it: every event that removed a quad copied


def test_a_copy_holds_the_live_quads_and_waits_for_twice_as_many_removals(monkeypatch):
    monkeypatch.setattr(oxigraph_store, "COPY_FLOOR", 4)
    query = parse_query("PREFIX : <http://ex/> SELECT * WHERE { ?s :p ?o }", window="sliding:3s:1s")
    engine = OxigraphEngine(query)
    removed_before_copy = []
    for second in range(40):
        # three triples an event, each kept three seconds: the window holds 9, and from the fourth event 3 leave
        removed_before = engine.store.removed_since_copy
        copies = engine.store.copies
        engine.push(Event(second, second * 1000, tuple(Update(INSERT, f"<http://ex/s{second}-{k}>", P, "<http://ex/o>")
                                                        for k in range(3))))
        if engine.store.copies > copies:
            removed_before_copy.append(removed_before + 3)
        held = {(q.subject, q.predicate, q.object) for q in engine.store}
        assert len(held) == engine.store.live == len(engine.window)
        assert engine.store.removed_since_copy < engine.store.copy_after == max(4, 2 * len(engine.window))
    # 111 removals, a copy each time they reach twice the 9 quads held: 18 = 6 events of 3
    assert removed_before_copy == [18] * 6
    assert len(engine.answers()) == 9


def test_the_first_copy_waits_for_twice_the_live_quads_not_only_the_floor(monkeypatch):
    # a large window removes a few quads an event: copying it at the floor would cost O(window) every few events
    monkeypatch.setattr(oxigraph_store, "COPY_FLOOR", 4)
    store = oxigraph_store.CopyingStore()
    quads = [Quad(NamedNode(f"http://ex/s{n}"), NamedNode("http://ex/p"), NamedNode("http://ex/o"), DefaultGraph())
             for n in range(100)]
    store.extend(quads)
    for quad in quads[:50]:
        store.remove(quad)
        assert store.copy_if_due() is None  # 50 removals < 2 x 50 live
    store.extend(quads[:50])
    for quad in quads[:67]:
        store.remove(quad)
    live = store.copy_if_due()  # 117 removals >= 2 x 33 live
    assert live is not None and set(live) == set(quads[67:]) and store.live == 33 and store.removed_since_copy == 0


def test_a_merged_literal_keeps_its_latest_spelling_across_copies(copy_at_every_removal):
    stream = build_stream([(0, ['+ :a :v "01"^^xsd:integer', "+ :x :w :y"]), (1, ['+ :b :v "1"^^xsd:integer']),
                           (2, ["- :x :w :y"]), (3, ['+ :c :v "01"^^xsd:integer']), (4, ["+ :x :w :y"]),
                           (5, ["- :x :w :y"])])
    query = parse_query("PREFIX : <http://ex/> SELECT * WHERE { ?s :v ?n }", window="unbounded")
    engine = OxigraphEngine(query)
    spelled = spellings_after_each_event(engine, stream)
    assert engine.store.copies == 2
    assert spelled == [{ZERO_ONE}, {ONE}, {ONE}, {ZERO_ONE}, {ZERO_ONE}, {ZERO_ONE}]


@pytest.mark.parametrize("check", ORACLE_CHECKS, ids=lambda c: c.name)
def test_the_oxigraph_oracle_agrees_with_rdflib_when_its_store_is_copied_at_every_removal(check, copy_at_every_removal):
    query = parse_query(check.query_text(), window=check.window, entailment=check.entailment, name=check.name)
    stream = check.stream()
    assert list(oracle_answers(query, stream, oracle="oxigraph")) == list(oracle_answers(query, stream, oracle="rdflib"))
