"""engines.model.terms: every accepted term comes out in one canonical spelling, every malformed one is refused by name."""

from __future__ import annotations

import pytest
import rdflib
from hypothesis import given
from hypothesis import strategies as st

from common.errors import TermError
from engines.model.terms import (
    RDF_LANGSTRING,
    XSD,
    XSD_STRING,
    bnode,
    check_triple,
    escape_lexical,
    iri,
    literal,
    literal_parts,
    parse_term,
    term_kind,
    unescape,
)

INT = f"<{XSD}integer>"


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("<http://example.org/a>", "<http://example.org/a>"),
        ("<http://example.org/a#b?c=d&e>", "<http://example.org/a#b?c=d&e>"),
        ("<urn:isbn:0451450523>", "<urn:isbn:0451450523>"),
        ("<http://example.org/\u00e9t\u00e9>", "<http://example.org/\u00e9t\u00e9>"),
        ("<http://example.org/\\u0041>", "<http://example.org/A>"),
        ("<http://example.org/\\U00000041>", "<http://example.org/A>"),
        ("<http://example.org/\\u00E9>", "<http://example.org/\u00e9>"),
        # A character that may not stand raw in an IRI stays escaped, in one spelling.
        ("<http://example.org/a\\u0020b>", "<http://example.org/a\\u0020b>"),
        ("<http://example.org/a\\U00000020b>", "<http://example.org/a\\u0020b>"),
        ("<http://example.org/\\u003e>", "<http://example.org/\\u003E>"),
        ("<http://example.org/\\u0041\\u0020>", "<http://example.org/A\\u0020>"),
    ],
)
def test_valid_iris_are_canonical(text, canonical):
    assert parse_term(text) == canonical
    assert parse_term(canonical) == canonical
    assert term_kind(canonical) == "iri"


@pytest.mark.parametrize(
    "text",
    [
        "<http://example.org/a b>",
        "<http://example.org/a>b>",
        "<http://example.org/<a>",
        '<http://example.org/"a">',
        "<http://example.org/{a}>",
        "<http://example.org/a|b>",
        "<http://example.org/a^b>",
        "<http://example.org/a`b>",
        "<http://example.org/a\\b>",
        "<http://example.org/\\u00G0>",
        "<http://example.org/\\n>",
        "<http://example.org/a",
        "http://example.org/a>",
        "<http://example.org/a> ",
        " <http://example.org/a>",
        "<http://example.org/\\U00110000>",
        "<http://example.org/\\uD800>",
    ],
)
def test_malformed_iris_are_refused(text):
    with pytest.raises(TermError, match="IRI|Unicode|expected <iri>"):
        parse_term(text)


@pytest.mark.parametrize("text", ["_:b0", "_:a", "_:0", "_:_x", "_:a.b", "_:a-b", "_:a\u00b7b", "_:\u00e9", "_:a:b"])
def test_valid_blank_nodes_are_kept(text):
    assert parse_term(text) == text
    assert term_kind(text) == "bnode"
    assert bnode(text[2:]) == text


@pytest.mark.parametrize("text", ["_:", "_:a.", "_:-a", "_:.a", "_:a b", "_:a/b", "_a", "_:a\u00d7"])
def test_malformed_blank_nodes_are_refused(text):
    with pytest.raises(TermError, match="blank node"):
        parse_term(text)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ('"plain"', '"plain"'),
        ('""', '""'),
        ('"x"^^<http://www.w3.org/2001/XMLSchema#string>', '"x"'),
        ('"x"^^<http://www.w3.org/2001/XMLSchema\\u0023string>', '"x"'),
        ('"01"^^<http://www.w3.org/2001/XMLSchema#integer>', f'"01"^^{INT}'),
        ('" 1 "^^<http://www.w3.org/2001/XMLSchema#integer>', f'" 1 "^^{INT}'),
        ('"abc"^^<http://www.w3.org/2001/XMLSchema#integer>', f'"abc"^^{INT}'),
        ('"x"^^<http://example.org/\\u0041>', '"x"^^<http://example.org/A>'),
        ('"chat"@fr', '"chat"@fr'),
        ('"chat"@FR', '"chat"@fr'),
        ('"colour"@en-GB', '"colour"@en-gb'),
        ('"x"@de-1996', '"x"@de-1996'),
        # Escapes: one spelling of the same characters.
        ('"\\u0041"', '"A"'),
        ('"\\U0001F600"', '"\U0001f600"'),
        ('"a\\tb"', '"a\tb"'),
        ('"a\\bb\\fc"', '"a\bb\fc"'),
        ("\"it\\'s\"", "\"it's\""),
        ('"a\\nb"', '"a\\nb"'),
        ('"a\\rb"', '"a\\rb"'),
        ('"a\\u000Ab"', '"a\\nb"'),
        ('"say \\"hi\\""', '"say \\"hi\\""'),
        ('"say \\u0022hi\\u0022"', '"say \\"hi\\""'),
        ('"back\\\\slash"', '"back\\\\slash"'),
        ('"back\\u005Cslash"', '"back\\\\slash"'),
        ('"\u00e9t\u00e9"', '"\u00e9t\u00e9"'),
    ],
)
def test_valid_literals_are_canonical(text, canonical):
    assert parse_term(text) == canonical
    assert parse_term(canonical) == canonical
    assert term_kind(canonical) == "literal"


@pytest.mark.parametrize(
    "text",
    [
        '"unterminated',
        '"a"b"',
        '"line\nbreak"',
        '"carriage\rreturn"',
        '"bad \\escape"',
        '"bad \\u12"',
        '"x"@',
        '"x"@en-',
        '"x"@-en',
        '"x"@e n',
        '"x"@en_GB',
        '"x"^^',
        '"x"^^xsd:integer',
        '"x"^^<http://a b>',
        '"x"^^<http://example.org/t>@en',
        '"x"@en^^<http://example.org/t>',
        "'single'",
        '"""long"""',
        '"x" ',
        '"\\U00110000"',
        '"\\uDC00"',
    ],
)
def test_malformed_literals_are_refused(text):
    with pytest.raises(TermError):
        parse_term(text)


def test_lang_string_datatype_without_a_tag_is_refused():
    with pytest.raises(TermError, match="langString"):
        parse_term(f'"x"^^{RDF_LANGSTRING}')


@pytest.mark.parametrize("text", ["", "x", "?x", "42", "true", "a:b", "[]"])
def test_other_text_is_not_a_term(text):
    with pytest.raises(TermError):
        parse_term(text)


def test_literal_builds_canonical_terms():
    assert literal("x") == '"x"'
    assert literal("x", XSD + "string") == '"x"'
    assert literal("1", XSD + "integer") == f'"1"^^{INT}'
    assert literal("x", lang="EN-us") == '"x"@en-us'
    assert literal('a"b\\c\nd\re') == '"a\\"b\\\\c\\nd\\re"'
    assert iri("http://a/") == "<http://a/>"
    assert XSD_STRING == f"<{XSD}string>"


@pytest.mark.parametrize(
    "term, parts",
    [
        ('"x"', ("x", None, None)),
        ('"x"@en', ("x", None, "en")),
        (f'"01"^^{INT}', ("01", XSD + "integer", None)),
        ('"a\\"b\\\\c\\nd"', ('a"b\\c\nd', None, None)),
        ('"say \\"@en\\""@fr', ('say "@en"', None, "fr")),
        ('"^^<x>"^^<http://t/>', ("^^<x>", "http://t/", None)),
    ],
)
def test_literal_parts(term, parts):
    assert literal_parts(term) == parts
    lexical, datatype, lang = parts
    assert literal(lexical, datatype, lang) == term


def test_unescape_and_escape():
    assert unescape("a\\u0041\\t") == "aA\t"
    assert unescape("plain") == "plain"
    assert escape_lexical("plain") == "plain"
    assert escape_lexical('"') == '\\"'


def test_check_triple_canonicalises_every_position():
    s, p, o = check_triple("<http://a/\\u0041>", "<http://a/p>", '"x"^^<http://www.w3.org/2001/XMLSchema#string>')
    assert (s, p, o) == ("<http://a/A>", "<http://a/p>", '"x"')
    assert check_triple("_:b", "<http://a/p>", "_:c") == ("_:b", "<http://a/p>", "_:c")
    assert check_triple("<http://a/s>", "<http://a/p>", '"v"@EN')[2] == '"v"@en'


@pytest.mark.parametrize(
    "s, p, o, message",
    [
        ('"lit"', "<http://a/p>", "<http://a/o>", "subject"),
        ("<http://a/s>", '"lit"', "<http://a/o>", "literal .* predicate"),
        ("<http://a/s>", "_:p", "<http://a/o>", "blank node .* predicate"),
        ("<http://a/s>", "<http://a/p>", "<bad iri>", "IRI"),
        ("<http://a/s>", "<http://a/p>", '"x"@', "literal"),
    ],
)
def test_check_triple_refuses_terms_out_of_place(s, p, o, message):
    with pytest.raises(TermError, match=message):
        check_triple(s, p, o)


# ---------------------------------------------------------------- properties

_lexical = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
_lang = st.from_regex(r"[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8}){0,2}", fullmatch=True)
_datatype = st.sampled_from([None, XSD + "integer", XSD + "string", "http://example.org/t\u00e9"])


@given(_lexical, _datatype, st.one_of(st.none(), _lang))
def test_literal_round_trips_through_parse_term(lexical, datatype, lang):
    term = literal(lexical, datatype, lang)
    assert parse_term(term) == term
    assert literal_parts(term)[0] == lexical


@given(_lexical, st.one_of(st.none(), _lang))
def test_canonical_literals_read_like_rdflib(lexical, lang):
    """rdflib's N-Triples reader sees the same literal as ours (an independent parser)."""
    term = literal(lexical, None, lang)
    node = rdflib.util.from_n3(term)
    assert str(node) == lexical
    assert (node.language or None) == (lang.lower() if lang else None)


@given(_lexical)
def test_any_escape_spelling_gives_the_same_term(lexical):
    escaped = "".join(f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08X}" for c in lexical)
    assert parse_term(f'"{escaped}"') == literal(lexical)
