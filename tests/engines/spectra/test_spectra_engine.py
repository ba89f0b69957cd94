"""Named behaviours of the SPECTRA engines: the protocol, window edges, duplicates, static data, pruning, refusals."""

from __future__ import annotations

import pytest

from common.errors import ConfigError, EngineError, StreamError
from engines.model.query import parse_query
from engines.model.stream import Event, Update, Window
from engines.protocol import Engine
from engines.spectra import SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine

ENGINES = [SpectraEngine, SpectraRevEngine, SpectraRevOnChangeEngine]
EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


def event(index: int, ts: int, *triples: str) -> Event:
    return Event(index, ts, tuple(Update(1, *(iri(t) for t in triple.split())) for triple in triples))


def query(text: str, window) -> object:
    return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {text} }}", window=window)


def mapping(*names: str) -> tuple:
    return tuple(iri(n) for n in names)


CHAIN = "?x :p ?y . ?y :q ?z"


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_follows_the_engine_protocol(engine_cls):
    engine = engine_cls(query(CHAIN, "sliding:10:1"))
    assert isinstance(engine, Engine)
    assert engine_cls.capabilities.windows == frozenset({"sliding", "event"})
    assert not engine_cls.capabilities.deletions
    assert engine_cls.capabilities.entailment == frozenset({"none"})
    assert engine_cls.capabilities.static and engine_cls.capabilities.filters
    assert engine_cls.capabilities.output == "delta"
    assert all(isinstance(value, int) for value in engine.stats().values())
    assert {SpectraEngine.name, SpectraRevEngine.name, SpectraRevOnChangeEngine.name} == {
        "spectra",
        "spectra-rev",
        "spectra-rev-onchange",
    }


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_window_includes_its_current_instant_and_start(engine_cls):
    # sliding(4, 1) at τ = 5 holds ts in [2, 5]: the triple at 1 has left, the one at 2 has not
    engine = engine_cls(query(CHAIN, "sliding:4:1"))
    engine.push(event(0, 1, "a p b"))
    engine.push(event(1, 2, "c p b"))
    assert engine.push(event(2, 5, "b q d")).added == [mapping("c", "b", "d")]
    assert engine.push(event(3, 6)).removed == [mapping("c", "b", "d")]


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_duplicate_triple_leaves_with_its_last_occurrence(engine_cls):
    engine = engine_cls(query(CHAIN, "sliding:3:1"))
    engine.push(event(0, 0, "a p b"))
    assert engine.push(event(1, 1, "b q c")).added == [mapping("a", "b", "c")]
    assert not engine.push(event(2, 2, "a p b"))  # seen again: nothing new, but re-stamped
    assert not engine.push(event(3, 3))  # the first occurrence (ts 0) left; the second keeps the match
    assert engine.push(event(4, 4)).removed == [mapping("a", "b", "c")]  # b q c (ts 1) left
    assert engine.stats()["window_triples"] == 1


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_tumbling_window_empties_at_each_boundary(engine_cls):
    engine = engine_cls(query(CHAIN, "tumbling:4"))
    engine.push(event(0, 2, "a p b"))
    assert engine.push(event(1, 3, "b q c")).added == [mapping("a", "b", "c")]
    assert engine.push(event(2, 4, "b q d")).removed == [mapping("a", "b", "c")]
    assert engine.answers() == {}


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_event_window_holds_the_current_event_even_with_equal_timestamps(engine_cls):
    engine = engine_cls(query(CHAIN, Window("event")))
    assert engine.push(event(0, 7, "a p b", "b q c", "a p b")).added == [mapping("a", "b", "c")]
    delta = engine.push(event(1, 7, "a p b"))
    assert delta.removed == [mapping("a", "b", "c")] and not delta.added
    assert not engine.push(event(2, 7, "b q c"))  # a p b left with the event before
    assert engine.push(event(3, 7, "b q c", "a p b")).added == [mapping("a", "b", "c")]


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_static_data_joins_and_never_expires(engine_cls):
    static = [(iri("b"), iri("q"), iri("c")), (iri("s"), iri("p"), iri("t")), (iri("t"), iri("q"), iri("u"))]
    engine = engine_cls(query(CHAIN, "sliding:2:1"), static=static)
    # the static-only match is reported with the first instant, like every other answer
    assert engine.push(event(0, 0)).added == [mapping("s", "t", "u")]
    assert engine.push(event(1, 1, "a p b", "b q c")).added == [mapping("a", "b", "c")]
    assert engine.push(event(2, 5)).removed == [mapping("a", "b", "c")]
    assert set(engine.answers()) == {mapping("s", "t", "u")}
    assert engine.stats()["window_triples"] == 0 and engine.stats()["static_triples"] == 3


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_summary_prunes_by_predicate_constant_repetition_and_atomic_filter(engine_cls):
    text = '?x :p ?x . ?x :q ?n FILTER(?n > 2) FILTER(?x != ?n)'
    engine = engine_cls(parse_query(
        f"PREFIX : <{EX}>\nSELECT * WHERE {{ {text} }}", window="sliding:10:1"))
    two = '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'
    five = '"5"^^<http://www.w3.org/2001/XMLSchema#integer>'
    updates = (
        Update(1, iri("a"), iri("p"), iri("a")), Update(1, iri("a"), iri("p"), iri("b")),  # kept / not s = o
        Update(1, iri("a"), iri("q"), two), Update(1, iri("a"), iri("q"), five),  # pruned by ?n > 2 / kept
        Update(1, iri("a"), iri("r"), iri("a")),  # no pattern has :r
    )
    delta = engine.push(Event(0, 0, updates))
    assert delta.added == [(iri("a"), five)]
    assert engine.stats()["window_triples"] == 2


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_dictionary_forgets_terms_that_left_the_window(engine_cls):
    static = [(iri("b"), iri("q"), iri("c"))]
    engine = engine_cls(query(CHAIN, "sliding:2:1"), static=static)
    engine.push(event(0, 0, "a p b", "x p y", "y q z"))
    assert engine.stats()["dictionary_terms"] == 8
    engine.push(event(1, 9, "d p b"))  # the first event left; its terms go unless static or held again
    assert engine.stats()["dictionary_terms"] == 5  # b q c, and d p
    assert set(engine.answers()) == {mapping("d", "b", "c")}
    engine.push(event(2, 20, "e p f", "f q g"))  # ids freed above are reused for new terms
    assert set(engine.answers()) == {mapping("e", "f", "g")}


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_variable_predicate_keeps_every_triple(engine_cls):
    engine = engine_cls(query("?s ?p ?o", "sliding:10:1"))
    delta = engine.push(event(0, 0, "a p b", "a q b", "a p b"))
    assert sorted(delta.added) == [mapping("a", "p", "b"), mapping("a", "q", "b")]


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_refusals_name_the_problem(engine_cls):
    with pytest.raises(EngineError, match="unbounded"):
        engine_cls(query(CHAIN, "unbounded"))
    with pytest.raises(EngineError, match="entailment"):
        engine_cls(query(CHAIN, "sliding:2:1").with_entailment("rdfs"))
    with pytest.raises(ConfigError, match="has no option plan"):
        engine_cls(query(CHAIN, "sliding:2:1"), plan="greedy")
    engine = engine_cls(query(CHAIN, "sliding:2:1"))
    with pytest.raises(EngineError, match=f"engine '{engine_cls.name}' does not support deletions"):
        engine.push(Event(0, 0, (Update(-1, iri("a"), iri("p"), iri("b")),)))
    engine.push(event(1, 5))
    with pytest.raises(StreamError, match="timestamp 4"):
        engine.push(event(2, 4))


def test_incremental_engine_does_not_reevaluate_and_onchange_rev_skips_unchanged_windows():
    q = query(CHAIN, "sliding:100:1")
    inc, lazy = SpectraEngine(q), SpectraRevOnChangeEngine(q)
    events = [event(0, 0, "a p b"), event(1, 1, "b q c"), event(2, 2, "z r z"), event(3, 3, "a p b")]
    for e in events:
        assert inc.push(e) == lazy.push(e)
    assert lazy.stats()["evaluations"] == 2  # the pruned and the re-stamped triple change no view
    assert inc.stats()["matches"] == 1 and "evaluations" not in inc.stats()
    for always in (SpectraRevEngine(q), SpectraRevOnChangeEngine(q, reevaluate="every-instant")):
        twin = SpectraEngine(q)
        for e in events:
            assert always.push(e) == twin.push(e)
        assert always.stats()["evaluations"] == 4  # the paper's S-Rev: every instant
        assert set(always.answers()) == set(inc.answers())
    assert SpectraRevEngine(q, reevaluate="on-change").stats()["evaluations"] == 0
    with pytest.raises(ConfigError, match="reevaluate"):
        SpectraRevEngine(q, reevaluate="sometimes")


# ------------------------------------------------------------ the conductor's invariants


def test_a_released_id_decodes_until_recycled_and_is_reused_only_after():
    from engines.spectra.dictionary import TermDictionary

    dictionary = TermDictionary()
    old = dictionary.encode_triple(iri("a"), iri("p"), iri("b"))
    dictionary.hold(old)
    dictionary.release(old)
    new = dictionary.encode_triple(iri("c"), iri("p"), iri("d"))  # same event: the released ids must not be reused
    assert not set(new) & set(old)
    assert dictionary.decoder()(old) == mapping("a", "p", "b") and iri("a") not in dictionary
    dictionary.recycle()
    reused = dictionary.encode(iri("e"))
    assert reused in old and dictionary.decode(reused) == iri("e")


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
@pytest.mark.parametrize("window", ["event", "sliding:2:1"])
def test_expired_answers_decode_to_their_own_terms_while_new_terms_take_freed_ids(engine_cls, window):
    """Every event brings new terms and expires old ones, so ids are freed and reused all along the stream."""
    engine = engine_cls(query(CHAIN, window))
    previous = set()
    for i in range(12):
        expected = {mapping(f"a{j}", f"b{j}", f"c{j}") for j in range(i + 1) if (window == "event" and j == i) or (window != "event" and i - j < 2)}
        delta = engine.push(event(i, i, f"a{i} p b{i}", f"b{i} q c{i}"))
        assert set(delta.added) == expected - previous and set(delta.removed) == previous - expected, i
        previous = expected
    assert engine.conductor.dictionary._terms.__len__() <= 4 * 3 + 2  # ids are reused, not grown per event


def test_the_no_change_results_of_advance_are_shared_and_read_only():
    engine = SpectraEngine(query(CHAIN, "sliding:10:1"))
    first = engine.conductor.advance(event(0, 0, "x r y"))  # routed nowhere: no row, no eviction
    second = engine.conductor.advance(event(1, 1, "x r z"))
    assert first == second and not first[0] and not first[1]
    assert first[0] is second[0] and first[1] is second[1]
    new_rows, evicted = first
    with pytest.raises(TypeError):
        new_rows[0] = ["corrupted"]
    with pytest.raises(TypeError):
        evicted[0] = ["corrupted"]
    assert engine.conductor.advance(event(2, 2, "x r w")) == ({}, {})


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_pattern_of_three_variables_all_bound_by_the_others_joins_in_every_arrival_order(engine_cls):
    """?x ?y ?z is the wide view (arity 3); arriving last, its step has every slot bound and adds no value."""
    from itertools import permutations

    from engines.model.stream import Stream
    from harness.verify import verify

    triples = ["a p b", "b q c", "a b c"]
    q = query("?x :p ?y . ?y :q ?z . ?x ?y ?z", "sliding:100:1")
    for order in permutations(triples):
        stream = Stream(tuple(event(i, i, t) for i, t in enumerate(order)))
        result = verify(engine_cls, q, stream)
        assert result.agrees, (order, result.first)
    engine = engine_cls(q)
    for i, t in enumerate(triples):
        engine.push(event(i, i, t))
    assert set(engine.answers()) == {mapping("a", "b", "c")}


@pytest.mark.parametrize("engine_cls", ENGINES, ids=lambda c: c.name)
def test_a_pattern_bound_by_the_ones_before_is_a_check_wherever_the_bgp_lists_it(engine_cls):
    """Once ?x :a ?y or ?x :c ?y is joined, the other has every variable bound: the planner takes it first, as a pure check.

    A BGP is a set of patterns: the answers depend neither on the order it lists them in nor on the triples' arrival order.
    """
    from dataclasses import replace
    from itertools import permutations

    base = query("?x :a ?y . ?x :b ?z . ?x :c ?y", "sliding:100:1")
    triples = ["s a o", "s b t", "s c o", "s c p"]  # s c p: no s a p, so the check must reject ?y = p
    for patterns in permutations(base.patterns):
        q = replace(base, patterns=patterns)
        for arrival in permutations(triples):
            engine = engine_cls(q)
            added = [m for i, t in enumerate(arrival) for m in engine.push(event(i, i, t)).added]
            assert added == [mapping("s", "o", "t")], (patterns, arrival)
            assert set(engine.answers()) == {mapping("s", "o", "t")}


def test_an_unknown_reevaluation_mode_is_named_with_the_known_ones():
    with pytest.raises(ConfigError) as error:
        SpectraRevEngine(query(CHAIN, "sliding:10:1"), reevaluate="never")
    assert str(error.value) == "engine 'spectra-rev': reevaluate must be one of on-change, every-instant, not 'never'"


def test_eviction_joins_only_from_rows_a_current_match_holds(monkeypatch):
    """S-Inc stores no match: an evicted row seeds a join through the views only while its anchor value (?y) is matched."""
    engine = SpectraEngine(query(CHAIN, "sliding:3:1"))
    seeded = []
    extend = engine.conductor.planner.extend
    monkeypatch.setattr(engine.conductor.planner, "extend", lambda order, seeds: seeded.append(seeds) or extend(order, seeds))
    engine.push(event(0, 0, "a p b", "b q c", "d p e"))
    assert engine.stats()["matches"] == 1
    seeded.clear()
    delta = engine.push(event(1, 3, "f q g"))  # evicts all three rows: the match leaves through its p row
    assert delta.removed == [mapping("a", "b", "c")] and delta.added == []
    decode = engine.conductor.decode
    # d p e is in no match and b q c in none once a p b is gone: neither seeds a join
    assert [[decode(row) for row in seeds] for seeds in seeded] == [[mapping("a", "b")]]
    assert engine.stats()["matches"] == 0 and engine.stats()["matched_values"] == 0
