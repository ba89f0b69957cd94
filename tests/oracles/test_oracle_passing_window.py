"""The oracles hold the window, not the stream: D(τ) as the stream passes equals the definition, and nothing older stays.

The definition here is DESIGN.md section 2 written out per instant (every event of the window, its updates
applied in order to the empty set), against ``oracles.window.PassingWindow`` on seeded random streams. The
oracles' term dictionaries (rdflib's, oxigraph's) and the entailer's cache are held to the window's terms:
a stream of fresh terms every event leaves them the size of the last window's, not of the stream.
"""

from __future__ import annotations

import random

import pytest

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update, Window
from oracles import entailment
from oracles.entailment import SUB_CLASS_OF, Entailer
from oracles.evaluate import OracleRun, oracle_answers
from oracles.nterms import RDF_TYPE
from oracles.window import PassingWindow, window_start

WINDOWS = [Window.sliding(7, 1), Window.sliding(9, 3), Window.tumbling(5), Window("event"), Window("unbounded")]


def x(name: str) -> str:
    return f"<http://x/{name}>"


def random_stream(seed: int, events: int, deletes: bool) -> list[Event]:
    rng = random.Random(seed)
    ts, made = 0, []
    for index in range(events):
        ts += rng.choice((0, 0, 1, 2, 4))
        updates = tuple(
            Update(DELETE if deletes and rng.random() < 0.3 else INSERT, x(f"s{rng.randrange(4)}"), x("p"), x(f"o{rng.randrange(3)}"))
            for _ in range(rng.randrange(1, 4)))
        made.append(Event(index, ts, updates))
    return made


def defined(events: list[Event], window: Window, i: int) -> set:
    """D(τ_i) by the definition: the window's events, their updates applied in order to the empty set."""
    if window.kind == "event":
        inside = [events[i]]
    elif window.kind == "unbounded":
        inside = events[: i + 1]
    else:
        inside = [e for e in events[: i + 1] if e.ts >= window_start(window, events[i].ts)]
    content: set = set()
    for event in inside:
        for update in event.updates:
            (content.add if update.op == INSERT else content.discard)(update.triple)
    return content


@pytest.mark.parametrize("window", WINDOWS, ids=[w.spec() for w in WINDOWS])
@pytest.mark.parametrize("seed", range(6))
def test_the_passing_window_is_the_definition_at_every_instant(window, seed):
    events = random_stream(seed, 60, deletes=window.kind == "unbounded")
    state = PassingWindow(window)
    shown: set = set()
    for i, event in enumerate(events):
        state.push(event)
        assert set(state.content()) == defined(events, window, i), f"instant {i}"
        if i % 3 == 0:  # changes since the last time asked, applied to what was shown then, give D now
            entered, left = state.changes()
            shown = (shown - set(left)) | set(entered)
            assert shown == defined(events, window, i)


def fresh_terms_stream(events: int) -> Stream:
    """Every event brings a subject never seen before: the stream's terms grow with it, a window's do not."""
    return Stream(tuple(Event(i, i, (Update(INSERT, x(f"s{i}"), x("p"), x(f"o{i % 5}")),)) for i in range(events)))


@pytest.mark.parametrize("oracle", ["rdflib", "plain", "oxigraph"])
def test_an_oracle_holds_the_window_s_triples_and_terms_only(oracle, monkeypatch):
    from oracles import rdflib_oracle

    monkeypatch.setattr(rdflib_oracle, "COPY_AFTER", 16)
    query = parse_query("PREFIX : <http://x/> SELECT * WHERE { ?s :p ?o }", window=Window.sliding(10, 1))
    run = OracleRun(query, oracle=oracle)
    for event in fresh_terms_stream(500).events:
        run.push(event)
        run.answers()
    window_terms = {x(f"s{i}") for i in range(490, 500)} | {x("p")} | {x(f"o{i % 5}") for i in range(490, 500)}
    assert len(run.answers()) == 10 and len(run.window.held) == 10 and len(run.window.count) == 10
    evaluator = run.evaluator
    assert len(evaluator.content) == 10
    if oracle == "rdflib":
        assert set(evaluator.to_input.values()) == window_terms and set(evaluator.uses) == window_terms
        # rdflib's store keeps an empty index entry per subject it ever held: the oracle copies it before that grows
        assert len(evaluator.graph.store._Memory__spo) <= 10 + 16 + 1
    if oracle == "oxigraph":
        assert set(evaluator._stored_as) == window_terms and set(evaluator._uses) == window_terms


def test_a_static_triple_stays_while_a_window_triple_equal_to_it_comes_and_goes():
    static = ((x("a"), x("p"), x("b")),)
    events = [Event(0, 0, (Update(INSERT, *static[0]),)), Event(1, 50, (Update(INSERT, x("c"), x("p"), x("d")),))]
    query = parse_query("PREFIX : <http://x/> SELECT * WHERE { ?s :p ?o }", window=Window.sliding(10, 1))
    for oracle in ("rdflib", "plain"):
        answers = [m for _, _, m in oracle_answers(query, Stream(tuple(events), static=static), oracle=oracle)]
        assert answers == [{(x("a"), x("b"))}, {(x("a"), x("b")), (x("c"), x("d"))}]


def test_the_entailer_keeps_a_bounded_number_of_triple_closures(monkeypatch):
    monkeypatch.setattr(entailment, "PER_TRIPLE_CACHE", 8)
    entailer = Entailer(((x("Student"), SUB_CLASS_OF, x("Person")),))
    for i in range(100):
        closure = entailer.triple_closure((x(f"s{i}"), RDF_TYPE, x("Student")))
        assert (x(f"s{i}"), RDF_TYPE, x("Person")) in closure
    assert len(entailer._per_triple) <= 8 and entailer.owlrl_runs == 1
