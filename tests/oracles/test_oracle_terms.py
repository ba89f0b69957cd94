"""The oracles' own term reading agrees with the model's canonical form, and their literal values with XSD."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engines.model import terms
from oracles import nterms, values

XSD = nterms.XSD

lexical_forms = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8)
datatypes = st.sampled_from([None, XSD + "integer", XSD + "string", "http://x/t", XSD + "dateTime"])
languages = st.sampled_from([None, "en", "EN-gb", "fr"])


@given(lexical=lexical_forms, datatype=datatypes, lang=languages)
def test_canonical_literals_survive_the_oracles_readers(lexical, datatype, lang):
    term = terms.literal(lexical, None if lang else datatype, lang)
    assert nterms.canonical(nterms.split(term)) == term
    assert nterms.from_rdflib(nterms.to_rdflib(term)) == term
    if datatype is None or not datatype.startswith(XSD) or lang:
        assert nterms.from_oxigraph(nterms.to_oxigraph(term)) == term


@given(st.sampled_from(["<http://x/a>", "<http://x/\u00e9>", "_:b1", '"x"^^<http://www.w3.org/2001/XMLSchema#string>']))
def test_iris_and_blank_nodes(term):
    canonical = terms.parse_term(term)
    assert nterms.canonical(nterms.split(term)) == canonical
    assert nterms.from_rdflib(nterms.to_rdflib(canonical)) == canonical


def literal(lexical: str, local: str) -> str:
    return terms.literal(lexical, XSD + local)


def test_numeric_values_follow_xsd():
    assert values.literal_value(literal("01", "integer")).value == 1
    assert values.literal_value(literal(" 7 ", "int")).value == 7  # whitespace collapses
    assert values.literal_value(literal("300", "byte")).space is None  # out of range
    assert values.literal_value(literal("abc", "integer")).space is None
    assert values.literal_value(literal("1.", "decimal")).value == 1
    single = values.literal_value(literal("1.1", "float")).value
    assert single != 1.1 and abs(single - 1.1) < 1e-7  # float is 32 bits
    assert values.literal_value(literal("INF", "double")).value == float("inf")


def test_date_time_values_follow_xsd():
    midnight = values.literal_value(literal("1999-12-31T24:00:00", "dateTime"))
    next_day = values.literal_value(literal("2000-01-01T00:00:00", "dateTime"))
    assert values.order(midnight, next_day) == 0
    zoned = values.literal_value(literal("2002-04-02T23:00:00+06:00", "dateTime"))
    local = values.literal_value(literal("2002-04-02T23:00:00", "dateTime"))
    assert values.order(local, zoned) is None  # within 14 hours: indeterminate
    far = values.literal_value(literal("2002-04-05T00:00:00Z", "dateTime"))
    assert values.order(local, far) == -1
    assert values.literal_value(literal("2002-02-30T00:00:00", "dateTime")).space is None


def test_effective_boolean_values():
    assert values.effective_boolean_value('""') is False
    assert values.effective_boolean_value('"a"@en') is True
    assert values.effective_boolean_value(literal("0.0", "decimal")) is False
    assert values.effective_boolean_value(literal("NaN", "double")) is False
    assert values.effective_boolean_value(literal("abc", "integer")) is False  # invalid numeric: false
    assert values.effective_boolean_value(literal("1", "boolean")) is True
    assert values.effective_boolean_value(literal("2020-01-01T00:00:00Z", "dateTime")) is None  # an error
    assert values.effective_boolean_value("<http://x/a>") is None
