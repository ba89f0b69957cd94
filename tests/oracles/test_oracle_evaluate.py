"""oracle_answers over streams: windows, static data, entailment, chosen instants, both oracles."""

from __future__ import annotations

import pytest

from common.errors import ConfigError, StreamError, WindowError
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Stream, Update, Window
from oracles.entailment import DOMAIN, INVERSE_OF, SUB_CLASS_OF
from oracles.evaluate import answers_over_graph, oracle_answers
from oracles.nterms import RDF_TYPE

ORACLES = ["rdflib", "oxigraph"]


def x(name: str) -> str:
    return f"<http://x/{name}>"


def insert(index: int, ts: int, *triples) -> Event:
    return Event(index, ts, tuple(Update(INSERT, *triple) for triple in triples))


KNOWS = "PREFIX : <http://x/> SELECT * WHERE { ?a :knows ?b . ?b :knows ?c }"


@pytest.mark.parametrize("oracle", ORACLES)
def test_sliding_window_answers_appear_and_expire(oracle):
    stream = Stream((
        insert(0, 0, (x("a"), x("knows"), x("b"))),
        insert(1, 5, (x("b"), x("knows"), x("c"))),
        insert(2, 10, (x("c"), x("knows"), x("d"))),
        insert(3, 16, (x("d"), x("knows"), x("e"))),
    ))
    query = parse_query(KNOWS, window=Window.sliding(10, 1))
    answers = [(index, ts, set(m)) for index, ts, m in oracle_answers(query, stream, oracle=oracle)]
    assert answers == [
        (0, 0, set()),
        (1, 5, {(x("a"), x("b"), x("c"))}),
        (2, 10, {(x("b"), x("c"), x("d"))}),  # (0, 10]: the event at ts 0 has left
        (3, 16, {(x("c"), x("d"), x("e"))}),
    ]


@pytest.mark.parametrize("oracle", ORACLES)
def test_static_data_joins_every_window(oracle):
    stream = Stream(
        (insert(0, 0, (x("a"), x("knows"), x("b"))), insert(1, 1, (x("z"), x("knows"), x("y")))),
        static=((x("b"), x("knows"), x("s")),),
    )
    query = parse_query(KNOWS, window=Window("event"))
    answers = [set(m) for _, _, m in oracle_answers(query, stream, oracle=oracle)]
    assert answers == [{(x("a"), x("b"), x("s"))}, set()]


@pytest.mark.parametrize("oracle", ORACLES)
def test_unbounded_deletions_and_chosen_instants(oracle):
    stream = Stream((
        insert(0, 0, (x("a"), x("knows"), x("b")), (x("b"), x("knows"), x("c"))),
        Event(1, 1, (Update(DELETE, x("b"), x("knows"), x("c")),)),
        insert(2, 2, (x("b"), x("knows"), x("c"))),
    ))
    query = parse_query(KNOWS, window="unbounded")
    answers = list(oracle_answers(query, stream, instants=[2, 1], oracle=oracle))
    assert [(index, set(m)) for index, _, m in answers] == [(1, set()), (2, {(x("a"), x("b"), x("c"))})]
    with pytest.raises(WindowError):
        list(oracle_answers(query, stream, instants=[7], oracle=oracle))
    with pytest.raises(StreamError):
        list(oracle_answers(query.with_window(Window("event")), stream, oracle=oracle))


@pytest.mark.parametrize("oracle", ORACLES)
def test_rdfs_entailment_uses_the_schema_and_never_matches_it(oracle):
    schema = (
        (x("teaches"), DOMAIN, x("Teacher")),
        (x("Teacher"), SUB_CLASS_OF, x("Person")),
        (x("teaches"), INVERSE_OF, x("taughtBy")),
    )
    stream = Stream((insert(0, 0, (x("ann"), x("teaches"), x("db"))),), static=((x("bob"), RDF_TYPE, x("Teacher")),), schema=schema)
    people = parse_query("PREFIX : <http://x/> SELECT * WHERE { ?p a :Person }", window="unbounded", entailment="rdfs")
    [(_, _, answers)] = oracle_answers(people, stream, oracle=oracle)
    assert answers == {(x("ann"),), (x("bob"),)}
    inverse = parse_query("PREFIX : <http://x/> SELECT * WHERE { ?c :taughtBy ?t }", window="unbounded", entailment="rdfs")
    assert answers_over_graph(inverse, [(x("ann"), x("teaches"), x("db"))], oracle=oracle, schema=schema) == {(x("db"), x("ann"))}
    schema_pattern = parse_query("SELECT * WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#subClassOf> ?o }", window="unbounded", entailment="rdfs")
    [(_, _, answers)] = oracle_answers(schema_pattern, stream, oracle=oracle)
    assert answers == set()
    plain = people.with_entailment("none")
    [(_, _, answers)] = oracle_answers(plain, stream, oracle=oracle)
    assert answers == set()


def test_unknown_oracle_is_a_config_error():
    query = parse_query(KNOWS, window="unbounded")
    with pytest.raises(ConfigError):
        answers_over_graph(query, [], oracle="nope")
