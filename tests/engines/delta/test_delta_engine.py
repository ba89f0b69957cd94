"""Named cases for the delta engines: each query class, set semantics, batches, static data, FILTERs and refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from common.errors import EngineError, StreamError
from engines.delta import DeltaEngine, DeltaGenericEngine
from engines.model.stream import DELETE, INSERT, Event, Update, Window
from tests.engines.delta.brute import BruteForce
from tests.engines.delta.queries import load

ENGINES = [DeltaEngine, DeltaGenericEngine]
EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


def t(s: str, p: str, o: str) -> tuple[str, str, str]:
    return (iri(s), iri(p), o if o.startswith('"') else iri(o))


def run(engine_cls, query_name: str, batches: list[list[tuple[int, tuple]]], static=()):
    """Push the batches; check each Delta against the brute force; return the deltas as sets."""
    query = load(query_name)
    engine, brute = engine_cls(query, static=static), BruteForce(query, static)
    before: set = set()
    deltas = []
    for index, batch in enumerate(batches):
        event = Event(index, index, tuple(Update(op, *triple) for op, triple in batch))
        delta = engine.push(event)
        brute.push(event)
        after = brute.answers()
        assert sorted(delta.added) == sorted(after - before)
        assert sorted(delta.removed) == sorted(before - after)
        assert engine.answers() == Counter(after)
        deltas.append((set(delta.added), set(delta.removed)))
        before = after
    return engine, deltas


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_ground_query_turns_true_and_false(engine_cls):
    ab, bc = t("a", "p", "b"), t("b", "q", "c")
    _, deltas = run(engine_cls, "ground", [[(INSERT, ab)], [(INSERT, bc)], [(INSERT, bc)], [(DELETE, ab)], [(DELETE, ab)]])
    assert deltas == [(set(), set()), ({()}, set()), (set(), set()), (set(), {()}), (set(), set())]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_simple_star_with_repeated_inserts_and_absent_deletes(engine_cls):
    x = iri("x")
    _, deltas = run(engine_cls, "simple-star", [
        [(INSERT, t("x", "p", "a")), (INSERT, t("x", "q", "b"))],
        [(INSERT, t("c", "r", "x"))],
        [(INSERT, t("c", "r", "x"))],  # already present: nothing
        [(DELETE, t("y", "p", "a"))],  # absent: nothing
        [(DELETE, t("x", "q", "b")), (DELETE, t("x", "q", "b"))],
        [(INSERT, t("x", "q", "b"))],  # re-insert
    ])
    assert [d for d in deltas] == [
        (set(), set()), ({(x,)}, set()), (set(), set()), (set(), set()), (set(), {(x,)}), ({(x,)}, set()),
    ]


def test_simple_star_memory_is_one_record_per_central_instance():
    """Prop. 2: the list holds one record per instance of the central variable with a matching triple."""
    engine = DeltaEngine(load("simple-star"))
    updates = [Update(INSERT, *t(f"n{i}", "p", "a")) for i in range(50)]
    updates += [Update(INSERT, *t(f"n{i}", "q", "b")) for i in range(0, 50, 2)]
    engine.push(Event(0, 0, tuple(updates)))
    assert engine.stats()["star_records"] == 50
    assert engine.stats()["star_complete"] == 0  # no centre has (:c :r ?x) yet
    engine.push(Event(1, 1, tuple(Update(DELETE, *t(f"n{i}", "p", "a")) for i in range(1, 50, 2))))
    assert engine.stats()["star_records"] == 25  # all-zero records are removed (Algorithm 2, line 35)
    assert engine.stats()["star_complete"] == 0
    engine.push(Event(2, 2, tuple(Update(INSERT, *t("c", "r", f"n{i}")) for i in range(0, 10))))
    assert engine.stats()["star_complete"] == 5  # n0, n2, ..., n8 match all three patterns


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_one_triple_instantiating_two_patterns_of_a_star(engine_cls):
    """(:a :p :a) matches both ``?x :p :a`` and ``:a :p ?x`` with x = :a."""
    a = iri("a")
    _, deltas = run(engine_cls, "simple-star-both-ends", [[(INSERT, t("a", "p", "a"))], [(DELETE, t("a", "p", "a"))]])
    assert deltas == [({(a,)}, set()), (set(), {(a,)})]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_loosely_connected_product_grows_and_shrinks(engine_cls):
    batches = [
        [(INSERT, t("x1", "p", "a")), (INSERT, t("a", "q", "y1"))],
        [(INSERT, t("x2", "p", "a")), (INSERT, t("a", "q", "y2"))],
        [(DELETE, t("x1", "p", "a"))],
    ]
    _, deltas = run(engine_cls, "loosely-connected", batches)
    assert [len(added) for added, _ in deltas] == [1, 3, 0]
    assert [len(removed) for _, removed in deltas] == [0, 0, 2]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_ground_part_gates_the_product(engine_cls):
    batches = [
        [(INSERT, t("x", "p", "a")), (INSERT, t("y", "q", "b"))],
        [(INSERT, t("a", "r", "b"))],
        [(DELETE, t("a", "r", "b")), (INSERT, t("z", "q", "b"))],
        [(INSERT, t("a", "r", "b"))],
    ]
    _, deltas = run(engine_cls, "loosely-with-ground", batches)
    assert [(len(a), len(r)) for a, r in deltas] == [(0, 0), (1, 0), (0, 1), (2, 0)]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_triple_feeding_two_components_in_one_update(engine_cls):
    """(:b :p :a) is an instance of both ``?x :p :a`` and ``?y :p :a``: the components change one after the other."""
    _, deltas = run(engine_cls, "loosely-same-pattern", [[(INSERT, t("b", "p", "a"))], [(INSERT, t("c", "p", "a"))], [(DELETE, t("b", "p", "a"))]])
    assert [(len(a), len(r)) for a, r in deltas] == [(1, 0), (3, 0), (0, 3)]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_cycle_built_then_broken_at_once(engine_cls):
    edges = [t("a", "p", "b"), t("b", "p", "c"), t("c", "p", "a")]
    _, deltas = run(engine_cls, "cycle", [[(INSERT, e) for e in edges], [(DELETE, edges[0]), (DELETE, edges[1])]])
    assert len(deltas[0][0]) == 3 and len(deltas[1][1]) == 3  # the three rotations


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_self_join_edge_used_for_both_patterns(engine_cls):
    """(:a :p :a) alone embeds ``?x :p ?y . ?y :p ?x`` with x = y = :a: found once, not twice."""
    a = iri("a")
    engine, deltas = run(engine_cls, "self-join", [[(INSERT, t("a", "p", "a"))], [(INSERT, t("a", "p", "b")), (INSERT, t("b", "p", "a"))]])
    assert deltas[0] == ({(a, a)}, set())
    assert deltas[1][0] == {(a, iri("b")), (iri("b"), a)}


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_answer_added_and_removed_in_one_event_is_reported_nowhere(engine_cls):
    batch = [(INSERT, t("a", "p", "b")), (INSERT, t("b", "q", "c")), (DELETE, t("a", "p", "b"))]
    _, deltas = run(engine_cls, "chain", [batch])
    assert deltas == [(set(), set())]


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_answer_removed_and_restored_in_one_event_is_reported_nowhere(engine_cls):
    chain = [(INSERT, t("a", "p", "b")), (INSERT, t("b", "q", "c"))]
    _, deltas = run(engine_cls, "chain", [chain, [(DELETE, t("b", "q", "c")), (INSERT, t("b", "q", "c"))]])
    assert deltas[1] == (set(), set())


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_static_answers_come_with_the_first_event_and_static_triples_never_leave(engine_cls):
    static = [t("a", "p", "b"), t("b", "q", "c")]
    query = load("chain")
    engine = engine_cls(query, static=static)
    assert engine.answers() == Counter()  # nothing reported before the first event
    first = engine.push(Event(0, 0, ()))
    assert first.added == [(iri("a"), iri("b"), iri("c"))]
    second = engine.push(Event(1, 1, (Update(DELETE, *static[0]), Update(INSERT, *static[1]))))
    assert not second and engine.stats()["static_updates_ignored"] == 2
    assert engine.answers() == Counter({(iri("a"), iri("b"), iri("c")): 1})


@pytest.mark.parametrize("engine_cls", ENGINES)
@pytest.mark.parametrize("name", ["self-loop-alone", "self-loop-connected", "predicate-variable", "predicate-only", "all-variables"])
def test_shapes_outside_the_paper(engine_cls, name):
    batches = [
        [(INSERT, t("a", "p", "a")), (INSERT, t("a", "q", "a")), (INSERT, t("c", "p", "a")), (INSERT, t("a", "p", "b"))],
        [(INSERT, t("b", "q", "a")), (INSERT, t("c", "q", "a")), (INSERT, t("a", "r", "b"))],
        [(DELETE, t("a", "p", "a")), (DELETE, t("c", "q", "a"))],
    ]
    run(engine_cls, name, batches)


@pytest.mark.parametrize("engine_cls", ENGINES)
@pytest.mark.parametrize("name", ["filter-local", "filter-cross", "filter-star", "filter-numeric", "filter-constant", "filter-unbound"])
def test_filters(engine_cls, name):
    one, two = '"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"2"^^<http://www.w3.org/2001/XMLSchema#integer>'
    batches = [
        [(INSERT, t("a", "p", "b")), (INSERT, t("b", "q", "a")), (INSERT, t("b", "q", "c")), (INSERT, t("c", "p", "a"))],
        [(INSERT, t("a", "p", one)), (INSERT, t("b", "q", two)), (INSERT, t("x", "r", two)), (INSERT, t("y", "r", one))],
        [(INSERT, t("a", "q", "b")), (INSERT, t("c", "q", "b")), (DELETE, t("b", "q", two))],
    ]
    run(engine_cls, name, batches)


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_refuses_windows_entailment_and_options(engine_cls):
    query = load("chain")
    with pytest.raises(EngineError, match="window adapter"):
        engine_cls(query.with_window(Window.sliding(10, 1)))
    with pytest.raises(EngineError, match="entailment"):
        engine_cls(query.with_entailment("rdfs"))
    with pytest.raises(EngineError, match="no options"):
        engine_cls(query, speed=11)
    with pytest.raises(StreamError, match="op must be"):
        engine_cls(query).push(Event(0, 0, (Update(0, *t("a", "p", "b")),)))


def test_protocol_attributes():
    for engine_cls, name in ((DeltaEngine, "delta"), (DeltaGenericEngine, "delta-generic")):
        assert engine_cls.name == name
        caps = engine_cls.capabilities
        assert caps.windows == frozenset({"unbounded"}) and caps.deletions and caps.static and caps.filters
        assert caps.entailment == frozenset({"none"}) and caps.output == "delta"


# ------------------------------------------------------------ cost invariants of the product (Algorithm 3)

SEVERAL_PARTS = "?x :p ?y . ?y :q ?z . ?w :r :a . ?u :s ?v ."


def _several_parts_query():
    from engines.model.query import parse_query
    from tests.engines.delta.queries import PREFIX

    return parse_query(PREFIX + "SELECT * WHERE { " + SEVERAL_PARTS + " }", window="unbounded", name="several-parts")


def _component_triples(evaluator, seed: str) -> list[tuple[str, str, str]]:
    """One consistent match of every pattern of a component: each variable bound to an IRI named after it."""
    return [tuple(iri(f"{term[1:]}-{seed}") if term.startswith("?") else term for term in pattern) for pattern in evaluator.patterns]


def _count_materialisations(engine) -> Counter:
    calls: Counter = Counter()
    for number, (evaluator, _) in enumerate(engine.components):
        original = evaluator.answer_tuples

        def counted(number=number, original=original):
            calls[number] += 1
            return original()

        evaluator.answer_tuples = counted
    return calls


def test_a_change_is_not_combined_with_anything_while_another_component_is_empty():
    query = _several_parts_query()
    engine, brute = DeltaEngine(query), BruteForce(query, ())
    assert len(engine.components) >= 3
    *filled, empty = range(len(engine.components))
    index = 0

    def push(triples):
        nonlocal index
        event = Event(index, index, tuple(Update(INSERT, *triple) for triple in triples))
        index += 1
        before = brute.answers()
        delta = engine.push(event)
        brute.push(event)
        assert sorted(delta.added) == sorted(brute.answers() - before) and not delta.removed

    for number in filled:
        push(_component_triples(engine.components[number][0], "one"))
    calls = _count_materialisations(engine)  # after the first event, which reports the answers so far
    push(_component_triples(engine.components[filled[0]][0], "two"))
    assert not calls, f"components materialised while component {empty} is empty: {dict(calls)}"
    push(_component_triples(engine.components[empty][0], "one"))  # now the product is not empty
    assert calls and len(brute.answers()) == 2


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_static_data_is_loaded_without_forming_answers(engine_cls, monkeypatch):
    query = _several_parts_query()
    combined = []
    monkeypatch.setattr(engine_cls, "_combine", lambda self, number, partials: combined.append(number) or iter(()))
    probe = engine_cls(query)
    static = [t for number in range(len(probe.components)) for t in _component_triples(probe.components[number][0], "s")]
    engine = engine_cls(query, static=static)
    assert not combined, "loading static data formed full answers"
    monkeypatch.undo()
    event = Event(0, 0, (Update(INSERT, *t("n", "p", "m")),))
    brute = BruteForce(query, static)
    brute.push(event)
    assert set(engine.push(event).added) == brute.answers() and len(brute.answers()) == 1


@pytest.mark.parametrize("engine_cls", ENGINES)
def test_a_star_center_the_filter_rejects_leaves_without_a_removal(engine_cls):
    """:c completes the star but fails FILTER(?x != :c): it was never an answer, so breaking its star removes nothing."""
    _, deltas = run(engine_cls, "filter-star", [
        [(INSERT, t("c", "p", "a")), (INSERT, t("c", "q", "b"))],
        [(DELETE, t("c", "p", "a"))],
        [(INSERT, t("d", "p", "a")), (INSERT, t("d", "q", "b"))],
        [(DELETE, t("d", "q", "b"))],
    ])
    assert deltas == [(set(), set()), (set(), set()), ({(iri("d"),)}, set()), (set(), {(iri("d"),)})]


@pytest.mark.parametrize("name", ["general", "loosely-with-ground", "simple-star", "disconnected-chains", "filter-star"])
def test_each_component_s_answer_tuples_follow_its_variables_which_sit_at_its_positions(name):
    query = load(name)
    for evaluator, positions in DeltaEngine(query).components:
        assert evaluator.variables == tuple(query.variables[i] for i in positions)
