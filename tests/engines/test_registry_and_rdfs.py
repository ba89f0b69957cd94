"""The registry finds engines by name and lists the known ones otherwise; the RDFS subset derives exactly its rules."""

from __future__ import annotations

import inspect

import pytest

from common.errors import EngineError
from engines.rdfs import RDF_TYPE, ClosureCounter, Schema
from engines.registry import get_engine, known_engines
from tests.conformance.checks import triple


def test_unknown_engine_lists_the_known_ones():
    with pytest.raises(EngineError) as error:
        get_engine("no-such-engine")
    for name in ("reeval", "oxigraph", "scan"):
        assert name in str(error.value)


@pytest.mark.parametrize("name", known_engines())
def test_registered_engines_follow_the_protocol(name):
    engine_cls = get_engine(name)
    assert engine_cls.name == name or engine_cls.name.startswith(name)
    for method in ("push", "answers", "stats"):
        assert callable(getattr(engine_cls, method))
    assert isinstance(engine_cls.capabilities.as_json()["windows"], list)
    parameters = inspect.signature(engine_cls.__init__).parameters
    assert {"query", "static", "schema"} <= set(parameters), "constructor must take (query, *, static, schema)"


SCHEMA = [triple(t) for t in (
    ":A rdfs:subClassOf :B", ":B rdfs:subClassOf :C", ":p rdfs:subPropertyOf :q", ":q rdfs:subPropertyOf :r",
    ":p rdfs:domain :A", ":r rdfs:range :D", ":p owl:inverseOf :pinv", ":s a owl:SymmetricProperty",
)]


def test_each_rule_fires():
    schema = Schema(SCHEMA)
    closed = schema.close([triple(":x :p :y"), triple(":u :s :v"), triple(':x :r "lit"')])
    expected = {triple(t) for t in (
        ":x :p :y", ":x :q :y", ":x :r :y",  # rdfs7 with rdfs5
        ":x a :A", ":x a :B", ":x a :C",  # rdfs2 then rdfs9 with rdfs11
        ":y a :D",  # rdfs3 through the superproperty
        ":y :pinv :x",  # inv2
        ":u :s :v", ":v :s :u",  # sym
        ':x :r "lit"',  # rdfs3 would type a literal: not an RDF triple, left out
    )}
    assert closed == expected


def test_rules_chain_through_generalized_triples():
    schema = Schema([triple(":p owl:inverseOf :q"), triple(":q rdfs:range :C")])
    assert schema.close([triple(':x :p "v"')]) == {triple(':x :p "v"'), triple(":x a :C")}


def test_inverse_is_symmetric():
    schema = Schema(SCHEMA)
    assert triple(":y :p :x") in schema.close([triple(":x :pinv :y")])


def test_closure_counter_keeps_shared_consequences():
    counter = ClosureCounter(Schema(SCHEMA))
    counter.add([triple(":x :p :y"), triple(":x a :A")])
    vanished = counter.remove([triple(":x :p :y")])
    assert (triple(":x a :A")[0], RDF_TYPE, triple(":x a :A")[2]) not in vanished  # still entailed by the other
    assert triple(":x :q :y") in vanished
