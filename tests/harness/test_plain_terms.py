"""The reader's column-wise shortcut never changes a term: what it calls plain, parse_term keeps unchanged in that position."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.errors import TermError
from harness.streams.plain_terms import plain_terms
from harness.streams.table import _canonical_term

XSD = "http://www.w3.org/2001/XMLSchema#"

# Pieces that reach every branch of the patterns: IRI characters allowed and not, escapes, quotes, tags in both cases.
_PIECES = st.sampled_from(["a", "Z", "0", ".", "-", "_", ":", "/", "#", " ", "<", ">", '"', "\\", "\\u0041", "\\n",
                           "\n", "\r", "\t", "^", "{", "|", "`", "é", "\U0001f600", "@", "en", "EN", "-us"])
_BODIES = st.lists(_PIECES, max_size=6).map("".join)
_DATATYPES = st.sampled_from([f"{XSD}string", f"{XSD}integer", "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString",
                              "http://ex/t", "http://ex/\\u0041"])


@st.composite
def stored_terms(draw):
    """Strings shaped like stored terms, often malformed or not canonical, sometimes plain."""
    body = draw(_BODIES)
    kind = draw(st.sampled_from(["iri", "bnode", "literal", "typed", "tagged", "raw"]))
    if kind == "iri":
        return f"<{body}>"
    if kind == "bnode":
        return f"_:{body}"
    if kind == "literal":
        return f'"{body}"'
    if kind == "typed":
        return f'"{body}"^^<{draw(_DATATYPES)}>'
    if kind == "tagged":
        return f'"{body}"@{draw(st.sampled_from(["en", "EN", "en-us", "en-US", "x-1", "1", ""]))}'
    return body


def _unchanged(text: str, column: str) -> bool:
    try:
        return _canonical_term(text, column) == text
    except TermError:
        return False


@pytest.mark.parametrize("column", ["s", "p", "o"])
@given(terms=st.lists(stored_terms(), min_size=1, max_size=20))
def test_a_plain_term_is_its_own_canonical_form_in_its_position(column, terms):
    for text, plain in zip(terms, plain_terms(pa.array(terms, pa.string()), column).tolist(), strict=True):
        if plain:
            assert _unchanged(text, column), f"{text!r} called plain in column {column}"


@pytest.mark.parametrize(("text", "column", "plain"), [
    ("<http://ex/a>", "s", True), ("<http://ex/a>", "p", True), ("_:b0", "s", True), ("_:b0", "p", False),
    ('"1.5"^^<http://www.w3.org/2001/XMLSchema#decimal>', "o", True), ('"x"', "s", False),
    ('"x"@en', "o", True), ('"x"@EN', "o", False), (f'"x"^^<{XSD}string>', "o", False),
    ('"a\\"b"', "o", False), ("<http://ex/\\u0041>", "o", False), ("<a b>", "o", False),
])
def test_the_common_stored_terms_take_the_shortcut_and_the_rest_do_not(text, column, plain):
    # the shortcut must also pay: a stream's usual terms take it (else the reader is no faster)
    assert plain_terms(pa.array([text]), column).tolist() == [plain]
    assert not plain or _unchanged(text, column)


def test_a_null_is_never_plain():
    assert plain_terms(pa.array([None, "<http://ex/a>"], pa.string()), "o").tolist() == [False, True]
