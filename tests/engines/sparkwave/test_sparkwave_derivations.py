"""Derived triples are counted: a triple streamed and derived, derived twice, or also static, stays while any source does."""

from __future__ import annotations

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Update
from engines.sparkwave import SparkwaveEngine
from engines.sparkwave.beta import INF

EX = "http://ex/"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SCHEMA = [
    (f"<{EX}Student>", f"<{RDFS}subClassOf>", f"<{EX}Person>"),
    (f"<{EX}Teacher>", f"<{RDFS}subClassOf>", f"<{EX}Person>"),
    (f"<{EX}teaches>", f"<{RDFS}domain>", f"<{EX}Teacher>"),
]


def x(name: str) -> str:
    return f"<{EX}{name}>"


def person_query(window: str):
    text = f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?p a :Person . ?p :name ?n }}"
    return parse_query(text, window=window, entailment="rdfs")


def push(engine, index, ts, *updates):
    return engine.push(Event(index, ts, tuple(Update(op, *t) for op, t in updates)))


ANN_PERSON = (x("ann"), TYPE, x("Person"))
NAME = (x("ann"), x("name"), '"Ann"')


def test_windowed_derived_twice_and_streamed_leaves_with_its_last_source():
    engine = SparkwaveEngine(person_query("sliding:5:1"), schema=SCHEMA)
    push(engine, 0, 0, (INSERT, (x("ann"), TYPE, x("Student"))), (INSERT, NAME))
    push(engine, 1, 2, (INSERT, (x("ann"), x("teaches"), x("math"))))  # derives Person again via Teacher
    push(engine, 2, 3, (INSERT, ANN_PERSON), (INSERT, NAME))  # streamed too
    assert engine.graphs[0].wmes[ANN_PERSON] == 7  # in the window until its last source's ts 3 + 5 - 1
    assert push(engine, 3, 5, ).removed == []  # the Student source left; the later ones hold it
    assert ANN_PERSON in engine.graphs[0].wmes
    delta = push(engine, 4, 8)
    assert delta.removed == [(x("ann"), '"Ann"')]
    assert ANN_PERSON not in engine.graphs[0].wmes


def test_static_source_keeps_a_triple_the_stream_also_derives():
    engine = SparkwaveEngine(person_query("sliding:2:1"), schema=SCHEMA, static=[(x("ann"), TYPE, x("Teacher"))])
    assert engine.graphs[0].wmes[ANN_PERSON] == INF
    assert push(engine, 0, 0, (INSERT, (x("ann"), TYPE, x("Student"))), (INSERT, NAME)).added == [(x("ann"), '"Ann"')]
    assert engine.graphs[0].wmes[ANN_PERSON] == INF  # a stream source never stamps a static triple
    assert push(engine, 1, 9).removed == [(x("ann"), '"Ann"')]  # the name left; the static type stays
    assert ANN_PERSON in engine.graphs[0].wmes


def test_unbounded_deletions_count_derivations():
    engine = SparkwaveEngine(person_query("unbounded"), schema=SCHEMA, static=[(x("bob"), TYPE, x("Teacher"))])
    student, teaches = (x("ann"), TYPE, x("Student")), (x("ann"), x("teaches"), x("math"))
    assert push(engine, 0, 0, (INSERT, student), (INSERT, teaches), (INSERT, ANN_PERSON), (INSERT, NAME)).added
    assert engine.graphs[0].support[ANN_PERSON] == 3
    assert push(engine, 1, 1, (DELETE, student), (DELETE, ANN_PERSON)) .removed == []
    assert engine.graphs[0].support[ANN_PERSON] == 1
    assert push(engine, 2, 2, (INSERT, teaches)).added == []  # already present: nothing changes
    assert engine.graphs[0].support[ANN_PERSON] == 1
    assert push(engine, 3, 3, (DELETE, teaches)).removed == [(x("ann"), '"Ann"')]
    assert ANN_PERSON not in engine.graphs[0].wmes
    assert engine.stats()["tokens"] == 1  # only bob's partial match (static) is left: ann's were retracted
    bob = (x("bob"), TYPE, x("Person"))
    assert push(engine, 4, 4, (INSERT, (x("bob"), x("name"), '"Bob"'))).added == [(x("bob"), '"Bob"')]
    push(engine, 5, 5, (DELETE, (x("bob"), TYPE, x("Teacher"))))  # a static triple: the stream cannot delete it
    assert engine.graphs[0].support[bob] == 1 and engine.answers()


def test_retraction_removes_every_dependent_token():
    text = f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?a :p ?b . ?b :p ?c . ?c :p ?d }}"
    engine = SparkwaveEngine(parse_query(text, window="unbounded"))
    chain = [(x("n1"), x("p"), x("n2")), (x("n2"), x("p"), x("n3")), (x("n3"), x("p"), x("n4")), (x("n4"), x("p"), x("n5"))]
    assert len(push(engine, 0, 0, *((INSERT, t) for t in chain)).added) == 2
    tokens = engine.stats()["tokens"]
    assert tokens == 4 + 3 + 2
    assert len(push(engine, 1, 1, (DELETE, chain[1])).removed) == 2
    assert engine.stats()["tokens"] == 3 + 1 + 0  # level 1: 3 triples; level 2: n3-n4-n5; level 3: none


def test_a_subproperty_inherits_the_domain_of_its_superproperty():
    """(ann lectures math) entails (ann teaches math), hence (ann a Teacher), hence (ann a Person): a property useful
    only through its domain still takes part in the flattened hierarchy."""
    schema = [*SCHEMA, (x("lectures"), f"<{RDFS}subPropertyOf>", x("teaches"))]
    engine = SparkwaveEngine(person_query("sliding:5:1"), schema=schema)
    delta = push(engine, 0, 0, (INSERT, (x("ann"), x("lectures"), x("math"))), (INSERT, NAME))
    assert delta.added == [(x("ann"), '"Ann"')]
    assert ANN_PERSON in engine.graphs[0].wmes
    assert push(engine, 1, 9).removed == [(x("ann"), '"Ann"')]
