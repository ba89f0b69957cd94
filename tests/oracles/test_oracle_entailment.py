"""The owlrl-based closure equals a plain forward chainer of exactly the named rules (rdfs2/3/7/9, inv2, sym)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.entailment import (
    DOMAIN,
    INVERSE_OF,
    RANGE,
    SUB_CLASS_OF,
    SUB_PROPERTY_OF,
    SYMMETRIC_PROPERTY,
    Entailer,
    owlrl_closure,
)
from oracles.nterms import OWL, RDF_TYPE, RDFS

TYPE = RDF_TYPE


def x(name: str) -> str:
    return f"<http://x/{name}>"


def forward_chain(data, schema) -> frozenset:
    """The named rules, obviously: schema closed under rdfs5, rdfs11, inv1; data under the six rules to a fixpoint."""

    def transitive(pairs):
        pairs = set(pairs)
        while True:
            more = {(a, d) for a, b in pairs for c, d in pairs if b == c} - pairs
            if not more:
                return pairs
            pairs |= more

    sub_class = transitive((s, o) for s, p, o in schema if p == SUB_CLASS_OF)  # rdfs11
    sub_property = transitive((s, o) for s, p, o in schema if p == SUB_PROPERTY_OF)  # rdfs5
    inverse = {(s, o) for s, p, o in schema if p == INVERSE_OF}
    inverse |= {(o, s) for s, o in inverse}  # inv1
    domain = {(s, o) for s, p, o in schema if p == DOMAIN}
    range_ = {(s, o) for s, p, o in schema if p == RANGE}
    symmetric = {s for s, p, o in schema if p == TYPE and o == SYMMETRIC_PROPERTY}
    graph = set(data)
    while True:
        new = set()
        for s, p, o in graph:
            new |= {(s, TYPE, c) for q, c in domain if q == p}  # rdfs2
            new |= {(o, TYPE, c) for q, c in range_ if q == p}  # rdfs3
            new |= {(s, q, o) for r, q in sub_property if r == p}  # rdfs7
            new |= {(o, q, s) for r, q in inverse if r == p}  # inv2
            if p in symmetric:
                new.add((o, p, s))  # sym
            if p == TYPE:
                new |= {(s, TYPE, d) for c, d in sub_class if c == o}  # rdfs9
        new -= graph
        if not new:
            break
        graph |= new
    # Generalized triples chain; the closure keeps the RDF ones.
    return frozenset(triple for triple in graph if triple[0][0] != '"' and triple[1][0] == "<")


def closures(data, schema):
    return owlrl_closure(data, schema), Entailer(schema).close(data)


SCHEMA = [
    (x("Student"), SUB_CLASS_OF, x("Person")),
    (x("Person"), SUB_CLASS_OF, x("Agent")),
    (x("takes"), DOMAIN, x("Student")),
    (x("takes"), RANGE, x("Course")),
    (x("takes"), SUB_PROPERTY_OF, x("attends")),
    (x("attends"), SUB_PROPERTY_OF, x("relatedTo")),
    (x("teaches"), INVERSE_OF, x("taughtBy")),
    (x("taughtBy"), RANGE, x("Teacher")),
    (x("knows"), TYPE, SYMMETRIC_PROPERTY),
]


def test_hand_case_every_rule():
    data = [
        (x("ann"), x("takes"), x("db")),
        (x("bob"), x("teaches"), x("db")),
        (x("ann"), x("knows"), x("bob")),
        (x("cid"), TYPE, x("Student")),
    ]
    expected = set(data) | {
        (x("ann"), TYPE, x("Student")), (x("ann"), TYPE, x("Person")), (x("ann"), TYPE, x("Agent")),  # rdfs2, rdfs9
        (x("db"), TYPE, x("Course")),  # rdfs3
        (x("ann"), x("attends"), x("db")), (x("ann"), x("relatedTo"), x("db")),  # rdfs7 over rdfs5
        (x("db"), x("taughtBy"), x("bob")),  # inv2
        (x("bob"), TYPE, x("Teacher")),  # rdfs3 on the inverse
        (x("bob"), x("knows"), x("ann")),  # sym
        (x("cid"), TYPE, x("Person")), (x("cid"), TYPE, x("Agent")),  # rdfs9 over rdfs11
    }
    assert forward_chain(data, SCHEMA) == expected
    for closure in closures(data, SCHEMA):
        assert closure == expected


def test_inverse_works_both_ways():
    data = [(x("db"), x("taughtBy"), x("eve"))]
    for closure in closures(data, SCHEMA):
        assert (x("eve"), x("teaches"), x("db")) in closure


def test_schema_triples_are_not_data_and_data_never_acts_as_schema():
    data = [(x("Course"), SUB_CLASS_OF, x("Thing")), (x("zed"), TYPE, x("Course")), (x("knows"), TYPE, x("Class"))]
    for closure in closures(data, SCHEMA):
        assert closure == frozenset(data)  # no schema triple shows up, and Course ⊑ Thing in the data adds nothing


def test_no_axioms_resource_typing_or_reflexive_schema_triples():
    data = [(x("ann"), x("takes"), x("db"))]
    rdfs_owl = (RDFS, OWL, "http://www.w3.org/1999/02/22-rdf-syntax-ns#")
    for closure in closures(data, SCHEMA):
        for s, p, o in closure:
            assert not any(term.startswith(f"<{ns}") for term in (s, o) for ns in rdfs_owl)
            assert p == TYPE or not any(p.startswith(f"<{ns}") for ns in rdfs_owl)


def test_literal_objects_chain_through_generalized_triples_but_never_become_subjects():
    data = [(x("ann"), x("teaches"), '"maths"')]
    expected = {
        (x("ann"), x("teaches"), '"maths"'),
        (x("ann"), TYPE, x("Teacher")),  # "maths" taughtBy ann (generalized), then the range of taughtBy
    }
    assert forward_chain(data, SCHEMA) == expected
    for closure in closures(data, SCHEMA):
        assert closure == expected


def test_literals_with_equal_values_are_not_merged():
    integer = "<http://www.w3.org/2001/XMLSchema#integer>"
    data = [(x("a"), x("takes"), f'"01"^^{integer}'), (x("b"), x("takes"), f'"1"^^{integer}')]
    for closure in closures(data, SCHEMA):
        assert (x("a"), x("takes"), f'"1"^^{integer}') not in closure
        assert (x("a"), x("attends"), f'"01"^^{integer}') in closure


def test_schema_vocabulary_used_as_data_terms():
    schema = [(SUB_CLASS_OF, DOMAIN, x("Classy")), (x("p"), SUB_PROPERTY_OF, TYPE), (x("C"), SUB_CLASS_OF, x("D"))]
    data = [(x("a"), SUB_CLASS_OF, x("b")), (x("i"), x("p"), x("C"))]
    expected = forward_chain(data, schema)
    assert (x("a"), TYPE, x("Classy")) in expected and (x("i"), TYPE, x("D")) in expected
    for closure in closures(data, schema):
        assert closure == expected


def test_rdf_type_under_and_over_sub_property_of():
    # issue 21: isA ⊑ rdf:type ⊑ cat; x isA A gives x rdf:type A (rdfs7), then C by rdfs9, and both types as cat
    schema = [(x("A"), SUB_CLASS_OF, x("C")), (x("isA"), SUB_PROPERTY_OF, TYPE), (TYPE, SUB_PROPERTY_OF, x("cat"))]
    data = [(x("u"), x("isA"), x("A"))]
    expected = set(data) | {
        (x("u"), TYPE, x("A")), (x("u"), TYPE, x("C")), (x("u"), x("cat"), x("A")), (x("u"), x("cat"), x("C")),
    }
    assert forward_chain(data, schema) == expected
    for closure in closures(data, schema):
        assert closure == expected


@pytest.mark.parametrize(
    "rule", [(TYPE, DOMAIN, x("D")), (TYPE, RANGE, x("D")), (TYPE, SUB_PROPERTY_OF, x("p")), (x("p"), INVERSE_OF, TYPE),
             (TYPE, TYPE, SYMMETRIC_PROPERTY)]
)
def test_rules_on_rdf_type_itself_see_the_users_type_triples_and_never_owlrls(rule):
    # owlrl types classes with rdf:type internally (C rdf:type owl:Class): none of that may reach these rules
    schema = [rule, (x("C"), SUB_CLASS_OF, x("E")), (x("q"), DOMAIN, x("C")), (x("p"), DOMAIN, x("F"))]
    data = [(x("a"), TYPE, x("C")), (x("b"), x("q"), x("c")), (x("d"), TYPE, x("G"))]
    expected = forward_chain(data, schema)
    for closure in closures(data, schema):
        assert closure == expected
    for closure in closures([], schema):
        assert closure == frozenset()  # owlrl's own typing of the schema's classes and properties never shows


def test_entailer_runs_owlrl_once_per_triple_shape():
    entailer = Entailer(SCHEMA)
    entailer.close([(x(f"s{i}"), x("takes"), x(f"o{i}")) for i in range(20)])
    entailer.close([(x(f"s{i}"), x("unrelated"), x(f"o{i}")) for i in range(20)])
    assert entailer.owlrl_runs == 1


# ---------------------------------------------------------------- Hypothesis: random small graphs and schemas

NAMES = [x(n) for n in ("a", "b", "c")]
PROPERTIES = [x(n) for n in ("p", "q", "r")]
CLASSES = [x(n) for n in ("C", "D", "E")]
LITERALS = ['"v"', '"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"w"@en']
VOCABULARY = [TYPE, SUB_CLASS_OF, SUB_PROPERTY_OF, f"<{OWL}sameAs>", f"<{OWL}Thing>", f"<{RDFS}Resource>"]
SCHEMA_PREDICATES = [SUB_CLASS_OF, SUB_PROPERTY_OF, DOMAIN, RANGE, INVERSE_OF]

terms = st.sampled_from(NAMES + PROPERTIES + CLASSES + ["_:n1"])
schema_terms = st.sampled_from(PROPERTIES + CLASSES + [VOCABULARY[0], VOCABULARY[1], VOCABULARY[3], VOCABULARY[4]])
schema_triples = st.one_of(
    st.tuples(schema_terms, st.sampled_from(SCHEMA_PREDICATES), schema_terms),  # rdf:type among them, either side
    st.tuples(st.sampled_from(PROPERTIES + [TYPE]), st.just(TYPE), st.just(SYMMETRIC_PROPERTY)),
    st.tuples(terms, st.sampled_from(PROPERTIES + [TYPE]), terms),  # not one of the six kinds: ignored
)
data_triples = st.tuples(
    st.sampled_from(NAMES + CLASSES + ["_:n1"]),
    st.sampled_from(PROPERTIES + VOCABULARY[:3] + [VOCABULARY[3]]),
    st.sampled_from(NAMES + CLASSES + LITERALS + VOCABULARY[4:]),
)


@given(data=st.lists(data_triples, max_size=6), schema=st.lists(schema_triples, max_size=7))
def test_owlrl_closures_equal_the_forward_chainer(data, schema):
    expected = forward_chain(data, schema)
    whole, per_shape = closures(data, schema)
    assert whole == expected
    assert per_shape == expected
