"""engines.model.filters: FILTER expressions hold exactly when SPARQL 1.1 operator rules say they are true.

Cases come from the SPARQL 1.1 operator mapping, EBV, cast table and the W3C tests under
/work/shared/w3c-sparql10 (expr-equals, expr-ops, expr-builtin, type-promotion,
boolean-effective-value, cast, regex). Each expression is read with the project's own query
reader, then classified three ways: true (the filter holds), false (its negation holds) or an
error (neither holds).
"""

from __future__ import annotations

import datetime
import math
import operator
from decimal import Decimal
from functools import cache

import numpy
import pyoxigraph
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from common.errors import QueryError
from engines.model import values
from engines.model.filters import compile_filter, compile_filters, expression_term, filter_holds
from engines.model.query import parse_query
from engines.model.stream import And, Arith, Call, Compare, Not, Or, TermExpr, Unary, VarExpr
from engines.model.terms import literal, parse_term
from engines.model.values import term_value

pytestmark = pytest.mark.filterwarnings("ignore:Parsing weird boolean")  # rdflib, reading "yes"^^xsd:boolean

ERROR = "error"
XSD = "http://www.w3.org/2001/XMLSchema#"
INT, DBL = f"<{XSD}integer>", f"<{XSD}double>"
PREFIXES = (
    "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> PREFIX : <http://example.org/> "
    "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> "
)


@cache
def parse_filter(text: str):
    query = parse_query(f"{PREFIXES} SELECT * WHERE {{ ?s ?p ?o FILTER({text}) }}", window="unbounded")
    return query.filters[0]


def outcome(expr, binding=None):
    """True, False or ERROR: the three values of a SPARQL boolean expression."""
    binding = binding or {}
    if filter_holds(expr, binding):
        return True
    if filter_holds(Not(expr), binding):
        return False
    return ERROR


def check(text, expected, binding=None):
    assert outcome(parse_filter(text), binding) == expected, text


EQUALITY = [
    # numerics compare by value after promotion
    ('"1"^^xsd:integer = "1.0"^^xsd:decimal', True),
    ('"01"^^xsd:integer = "1"^^xsd:integer', True),
    ('"+1"^^xsd:integer = 1', True),
    ('"-0"^^xsd:integer = 0', True),
    ('"1"^^xsd:float = "1"^^xsd:double', True),
    ('"1.5"^^xsd:float = "1.5"^^xsd:double', True),
    ('"1.1"^^xsd:float = "1.1"^^xsd:double', False),  # single precision is kept
    ('"1.1"^^xsd:float = "1.1"^^xsd:float', True),
    ('1 = 1.0e0', True),
    ('"1.0e0"^^xsd:double = "1"^^xsd:double', True),
    ('"1E2"^^xsd:double = 100', True),
    ('".5"^^xsd:decimal = 0.5', True),
    ('"1."^^xsd:decimal = 1', True),
    ('"1"^^xsd:int = "1"^^xsd:short', True),
    ('"1"^^xsd:byte = 1.0', True),
    ('"1"^^xsd:unsignedByte != 2', True),
    ('"16777217"^^xsd:integer = "16777216"^^xsd:float', True),  # promoted to float first
    ('"9007199254740993"^^xsd:integer = "9007199254740992"^^xsd:double', True),
    ('"9007199254740993"^^xsd:integer = "9007199254740992"^^xsd:decimal', False),
    ('"9007199254740993"^^xsd:integer = "9007199254740992"^^xsd:integer', False),
    ('"-0"^^xsd:double = "0"^^xsd:double', True),
    ('"NaN"^^xsd:double = "NaN"^^xsd:double', False),
    ('"NaN"^^xsd:double != "NaN"^^xsd:double', True),
    ('"NaN"^^xsd:float != "NaN"^^xsd:double', True),
    ('"INF"^^xsd:float = "INF"^^xsd:double', True),
    ('"+INF"^^xsd:double = "INF"^^xsd:double', True),
    ('"-INF"^^xsd:double != "INF"^^xsd:double', True),
    # ill-typed literals have no value: only term identity is decided
    ('"abc"^^xsd:integer = 1', ERROR),
    ('"abc"^^xsd:integer != 1', ERROR),
    ('"abc"^^xsd:integer = "abc"^^xsd:integer', True),
    ('"abc"^^xsd:integer != "abc"^^xsd:integer', False),
    ('"abc"^^xsd:integer = "abd"^^xsd:integer', ERROR),
    ('"300"^^xsd:byte = 300', ERROR),
    ('"-1"^^xsd:positiveInteger = -1', ERROR),
    ('"0"^^xsd:nonNegativeInteger = 0', True),
    ('"-1"^^xsd:nonPositiveInteger = -1', True),
    ('"0"^^xsd:negativeInteger = 0', ERROR),
    ('" 1"^^xsd:integer = 1', ERROR),
    ('"1_000"^^xsd:integer = 1000', ERROR),
    ('"\u0661"^^xsd:integer = 1', ERROR),  # Arabic-Indic digit: Python's int() would take it
    ('"1e5"^^xsd:decimal = 100000', ERROR),
    ('"inf"^^xsd:double > 0', ERROR),
    ('"Infinity"^^xsd:double > 0', ERROR),
    ('"-NaN"^^xsd:double = 0', ERROR),
    ('"yes"^^xsd:boolean = true', ERROR),
    # strings, language-tagged strings
    ('"a" = "a"', True),
    ('"a" = "b"', False),
    ('"a" != "b"', True),
    ('"a" = "a"^^xsd:string', True),
    # a language-tagged literal equals no other term (W3C open-eq-08..11; rdflib and oxigraph agree)
    ('"a" = "a"@en', False),
    ('"a" != "a"@en', True),
    ('"a"@en = "a"@EN', True),
    ('"a"@en != "a"@EN', False),
    ('"a"@en = "b"@en', False),
    ('"a"@en = "a"@fr', False),
    ('"1" = 1', False),  # valid values of different known types are unequal (W3C KnownTypesDefault2Neq)
    ('"1" != 1', True),
    # booleans
    ('true = "1"^^xsd:boolean', True),
    ('false = "0"^^xsd:boolean', True),
    ('true != false', True),
    ('true = 1', False),
    # IRIs and other terms: RDFterm-equal
    ("<http://a> = <http://a>", True),
    ("<http://a> = <http://b>", False),
    ('<http://a> = "http://a"', False),
    ('<http://a> != "http://a"', True),
    ('"zzz"^^:t = "zzz"^^:t', True),
    ('"zzz"^^:t != "zzz"^^:t', False),
    ('"zzz"^^:t = "zzz"^^:u', ERROR),
    ('"zzz"^^:t != "yyy"^^:t', ERROR),
    ('"zzz"^^:t = "zzz"', ERROR),
    ('"zzz"^^:t = <http://example.org/zzz>', False),
    # dateTimes (expr-equals/data-eq-dateTime.ttl and more)
    ('"2008-04-01T00:00:00Z"^^xsd:dateTime = "2008-04-01T00:00:00Z"^^xsd:dateTime', True),
    ('"2002-04-02T12:00:00"^^xsd:dateTime = "2002-04-02T12:00:00"^^xsd:dateTime', True),
    ('"2002-04-02T23:00:00-04:00"^^xsd:dateTime = "2002-04-03T02:00:00-01:00"^^xsd:dateTime', True),
    ('"2002-04-02T23:00:00"^^xsd:dateTime = "2002-04-02T23:00:00+06:00"^^xsd:dateTime', ERROR),
    ('"1999-12-31T24:00:00"^^xsd:dateTime = "2000-01-01T00:00:00"^^xsd:dateTime', True),
    ('"2005-04-04T24:00:00"^^xsd:dateTime = "2005-04-04T00:00:00"^^xsd:dateTime', False),
    ('"2008-04-01T00:00:00.00Z"^^xsd:dateTime = "2008-04-01T00:00:00Z"^^xsd:dateTime', True),
    ('"2008-04-01T00:00:00Z"^^xsd:dateTime = "2008-04-01T00:00:00+00:00"^^xsd:dateTime', True),
    ('"2008-04-01T00:00:00Z"^^xsd:dateTime = "2008-04-01T00:00:00-00:00"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime = "2008-10-03T00:00:00"^^xsd:dateTime', False),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime != "2008-10-03T00:00:00"^^xsd:dateTime', True),
    ('"2000-02-29T00:00:00"^^xsd:dateTime = "2000-02-29T00:00:00"^^xsd:dateTime', True),
    ('"2001-02-29T00:00:00"^^xsd:dateTime = "2001-03-01T00:00:00"^^xsd:dateTime', ERROR),
    ('"1900-02-29T00:00:00"^^xsd:dateTime = "1900-03-01T00:00:00"^^xsd:dateTime', ERROR),
    ('"2008-10-01T25:00:00"^^xsd:dateTime = "2008-10-02T01:00:00"^^xsd:dateTime', ERROR),
    ('"2008-10-01T24:00:01"^^xsd:dateTime = "2008-10-02T00:00:01"^^xsd:dateTime', ERROR),
    ('"2008-10-01T00:00:00+15:00"^^xsd:dateTime = "2008-10-01T00:00:00Z"^^xsd:dateTime', ERROR),
    ('"2008-10-01"^^xsd:dateTime = "2008-10-01"^^xsd:dateTime', True),  # ill-typed, same term
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime = "2008-10-01T00:00:00Z"', False),  # known types, different kinds: unequal
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime = 0', False),
]

ORDERING = [
    ('"2"^^xsd:integer < "10"^^xsd:integer', True),  # by value, not by lexical form
    ('"10"^^xsd:integer < "9.5"^^xsd:decimal', False),
    ('"10"^^xsd:integer >= "10.0"^^xsd:decimal', True),
    ('"1"^^xsd:short <= "1"^^xsd:float', True),
    ("1 > 0.5e0", True),
    ('"NaN"^^xsd:double < 1', False),
    ('"NaN"^^xsd:double > 1', False),
    ('"NaN"^^xsd:double <= "NaN"^^xsd:double', False),
    ('"NaN"^^xsd:double >= 1', False),
    ('"INF"^^xsd:double > 1e308', True),
    ('"-INF"^^xsd:float < -1e308', True),
    ('"INF"^^xsd:double >= "INF"^^xsd:float', True),
    ('"-0"^^xsd:double < 0', False),
    ('"abc"^^xsd:integer > 1', ERROR),
    ('"abc"^^xsd:integer < 1', ERROR),
    ('"a" < "b"', True),
    ('"B" < "a"', True),  # code points
    ('"a" < "ab"', True),
    ('"\u00e9" > "z"', True),
    ('"\U0001f600" > "\uffff"', True),  # code points, not UTF-16 units
    ('"abc" <= "abc"', True),
    ('"a" >= "a"^^xsd:string', True),
    ('"a"@en < "b"@en', ERROR),
    ('"a" < "b"@en', ERROR),
    ('"a" < 1', ERROR),
    ("false < true", True),
    ("true > false", True),
    ('true >= "1"^^xsd:boolean', True),
    ("true < 1", ERROR),
    ("<http://a> < <http://b>", ERROR),
    ('"x"^^:t < "y"^^:t', ERROR),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime < "2008-10-03T00:00:00Z"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00"^^xsd:dateTime < "2008-10-03T00:00:00"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime < "2008-10-03T00:00:00"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00"^^xsd:dateTime < "2008-10-03T00:00:00Z"^^xsd:dateTime', True),
    ('"2008-10-03T00:00:00"^^xsd:dateTime >= "2008-10-01T00:00:00Z"^^xsd:dateTime', True),
    ('"2008-10-03T00:00:00Z"^^xsd:dateTime <= "2008-10-01T00:00:00"^^xsd:dateTime', False),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime < "2008-10-01T10:00:00"^^xsd:dateTime', ERROR),  # within 14h
    ('"2008-10-01T12:00:00+02:00"^^xsd:dateTime < "2008-10-01T11:00:00Z"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00.5Z"^^xsd:dateTime > "2008-10-01T00:00:00Z"^^xsd:dateTime', True),
    ('"-0001-01-01T00:00:00"^^xsd:dateTime < "0001-01-01T00:00:00"^^xsd:dateTime', True),
    ('"10000-01-01T00:00:00"^^xsd:dateTime > "9999-12-31T23:59:59"^^xsd:dateTime', True),
    ('"2008-10-01T00:00:00Z"^^xsd:dateTime < 1', ERROR),
]

ARITHMETIC = [
    ("1 + 2 = 3", True),
    ("3 - 5 = -2", True),
    ("2 * 3.5 = 7", True),
    ("7 / 2 = 3.5", True),
    ("1 / 2 = 0.5", True),
    ("(+1 + -1 + +2.0 + -2.0 + +3e0 + -3e0) = 0", True),  # expr-ops add-literals
    ("-(1) = -1", True),
    ('+"1"^^xsd:short = 1', True),
    ('-"2"^^xsd:integer = -2', True),
    ("0.1 + 0.2 = 0.3", True),  # decimals are exact
    ("12345678901234567890.123456789012345 + 0.000000000000000000001 = 12345678901234567890.123456789012345000001",
     True),
    ("12345678901234567890.5 * 2 = 24691357802469135781", True),
    ("0.1e0 + 0.2e0 = 0.3e0", False),  # doubles are not
    ("1 / 3 * 3 = 1", False),
    ('"1"^^xsd:float / 3 = "0.33333334"^^xsd:float', True),
    ('"16777216"^^xsd:float + "1"^^xsd:float = "16777216"^^xsd:float', True),  # rounded to single
    ("99999999999999999999999 + 1 = 100000000000000000000000", True),  # integers are unbounded
    ("1/0", ERROR),
    ("1/0 = 1/0", ERROR),
    ("1.0/0", ERROR),
    ("1/0.0", ERROR),
    ('1e0/0 = "INF"^^xsd:double', True),
    ('-1e0/0 = "-INF"^^xsd:double', True),
    ('1e0/-0e0 = "-INF"^^xsd:double', True),
    ("0e0/0 != 0e0/0", True),
    ('"1"^^xsd:float / 0 = "INF"^^xsd:float', True),
    ('"a" + 1', ERROR),
    ('-"a"', ERROR),
    ('+"a"', ERROR),
    ('"abc"^^xsd:integer + 1 = 1', ERROR),
    ("<http://a> * 2 = 2", ERROR),
    ("true + 1 = 2", ERROR),
    # result datatypes (type-promotion tests)
    ("datatype(1 + 2) = xsd:integer", True),
    ("datatype(1 / 2) = xsd:decimal", True),
    ("datatype(4 / 2) = xsd:decimal", True),
    ("datatype(1 + 1.0) = xsd:decimal", True),
    ("datatype(1.0 + 1e0) = xsd:double", True),
    ('datatype("1"^^xsd:float + 1) = xsd:float', True),
    ('datatype("1"^^xsd:float + 1.5) = xsd:float', True),
    ('datatype("1"^^xsd:float + 1e0) = xsd:double', True),
    ('datatype("1"^^xsd:short + "1"^^xsd:short) = xsd:integer', True),
    ('datatype("1"^^xsd:byte + "1"^^xsd:short) = xsd:short', False),
    ('datatype("1"^^xsd:nonNegativeInteger * "1"^^xsd:short) = xsd:integer', True),
    ('datatype("1"^^xsd:unsignedLong - "1"^^xsd:short) = xsd:integer', True),
    ('datatype("1"^^xsd:short + 1.0) = xsd:decimal', True),
    ('datatype("1"^^xsd:short + 1e0) = xsd:double', True),
    ('datatype(-"1"^^xsd:float) = xsd:float', True),
    # new literals are canonical terms
    ("sameTerm(1 + 1, 2)", True),
    ('sameTerm("01"^^xsd:integer + 0, 1)', True),
    ("sameTerm(1.5 + 1, 2.5)", True),
    ('sameTerm(1.0 + 1, "2"^^xsd:decimal)', True),
    ("sameTerm(0.50 * 1, 0.5)", True),
    ('sameTerm(1e0 + 1, "2.0E0"^^xsd:double)', True),
    ('sameTerm(1e0 / 3e-7, "3.3333333333333335E6"^^xsd:double)', True),
    ('sameTerm(-0.0e0 * 1, "-0.0E0"^^xsd:double)', True),
    ('sameTerm("0.1"^^xsd:float * 1, "1.0E-1"^^xsd:float)', True),
    ('str(1e0/0) = "INF"', True),
    ('str(0e0/0) = "NaN"', True),
]

# N-Triples terms, bound to ?o and filtered by FILTER(?o): rdflib's translation drops a constant
# FILTER that Python finds falsy (FILTER(0), FILTER("")), so constants cannot be read as text here.
EFFECTIVE_BOOLEAN_VALUE = [
    ('"abc"', True),
    ('""', False),
    ('"chat"@fr', True),  # SPARQL 1.1 17.2.2: a plain literal, language tag or not, by its length
    ('""@fr', False),
    (f'"1"^^{INT}', True),
    (f'"0"^^{INT}', False),
    (f'"-0"^^{INT}', False),
    (f'"0.0"^^<{XSD}decimal>', False),
    (f'"0.01"^^{DBL}', True),
    (f'"0e0"^^{DBL}', False),
    (f'"-0"^^{DBL}', False),
    (f'"NaN"^^{DBL}', False),
    (f'"INF"^^<{XSD}float>', True),
    (f'"true"^^<{XSD}boolean>', True),
    (f'"false"^^<{XSD}boolean>', False),
    (f'"0"^^<{XSD}boolean>', False),
    (f'"abc"^^{INT}', False),  # an ill-typed numeric or boolean is false
    (f'"yes"^^<{XSD}boolean>', False),
    (f'"1.5"^^<{XSD}byte>', False),
    ("<http://a>", ERROR),
    ("_:b", ERROR),
    ('"x"^^<http://example.org/t>', ERROR),
    (f'"2008-10-01T00:00:00Z"^^<{XSD}dateTime>', ERROR),
    (f'"2008-10-01"^^<{XSD}dateTime>', ERROR),
]

LOGIC = [
    ("true || 1/0", True),
    ("1/0 || true", True),
    ("false && 1/0", False),
    ("1/0 && false", False),
    ("true && 1/0", ERROR),
    ("1/0 && true", ERROR),
    ("false || 1/0", ERROR),
    ("1/0 || 1/0", ERROR),
    ("1/0 && 1/0", ERROR),
    ("!(1/0)", ERROR),
    ("!(!true)", True),
    ('!("a" = "a"@en)', True),
    ("true && true && false", False),
    ("false || false || true", True),
    ("false || 1/0 || true", True),
    ("true && 1/0 && false", False),
    ("!(true && false)", True),
]

BUILTINS = [
    ("isIRI(<http://a>)", True),
    ("isURI(<http://a>)", True),
    ('isIRI("http://a")', False),
    ("isBlank(<http://a>)", False),
    ('isLiteral("a")', True),
    ('isLiteral("a"@en)', True),
    ("isLiteral(<http://a>)", False),
    ('isLiteral("abc"^^xsd:integer)', True),
    ("isNumeric(1)", True),
    ("isNumeric(1.5e0)", True),
    ('isNumeric("1")', False),
    ('isNumeric("1200"^^xsd:byte)', False),
    ('isNumeric("abc"^^xsd:integer)', False),
    ('isNumeric("1"^^xsd:unsignedShort)', True),
    ('str(<http://a>) = "http://a"', True),
    ('str(1) = "1"', True),
    ('str("01"^^xsd:integer) = "01"', True),  # the lexical form, kept
    ('str("a"@en) = "a"', True),
    ('str("zzz"^^:t) = "zzz"', True),
    ('str("a\\"b") = "a\\"b"', True),
    ('lang("a"@EN) = "en"', True),
    ('lang("a") = ""', True),
    ('lang(1) = ""', True),
    ("lang(<http://a>)", ERROR),
    ('datatype("a") = xsd:string', True),
    ('datatype("a"^^xsd:string) = xsd:string', True),
    ('datatype("a"@en) = rdf:langString', True),
    ('datatype("abc"^^xsd:integer) = xsd:integer', True),
    ('datatype("1"^^xsd:short) = xsd:short', True),
    ('datatype("x"^^:t) = :t', True),
    ("datatype(<http://a>) = xsd:string", ERROR),
    ('sameTerm("01"^^xsd:integer, "1"^^xsd:integer)', False),
    ("sameTerm(1, 1)", True),
    ('sameTerm("a", "a"^^xsd:string)', True),
    ('sameTerm("a"@EN, "a"@en)', True),
    ('sameTerm("abc"^^xsd:integer, "abc"^^xsd:integer)', True),
    ("sameTerm(<http://a>, <http://a>)", True),
    ('sameTerm("NaN"^^xsd:double, "NaN"^^xsd:double)', True),
    ('langMatches("en-GB", "en")', True),
    ('langMatches("en", "en-GB")', False),
    ('langMatches("EN", "en")', True),
    ('langMatches("english", "en")', False),
    ('langMatches("fr", "*")', True),
    ('langMatches("", "*")', False),
    ('langMatches(lang("a"@de-DE), "de-de")', True),
    ('langMatches(lang("a"), "en")', False),
    ('langMatches("en"@en, "en")', ERROR),
    ('langMatches(<http://a>, "*")', ERROR),
]

# Flags are always given: engines/model/query.py reads a two-argument REGEX as a three-argument one whose
# flags are None (rdflib's CompValue.get returns the key when it is missing); see test_regex_without_flags.
REGEX = [
    ('regex("abcDEF", "def", "i")', True),
    ('regex("abcDEF", "def", "")', False),
    ('regex("abc", "a.c", "")', True),
    (r'regex("a\nc", "a.c", "")', False),
    (r'regex("a\rc", "a.c", "")', False),
    (r'regex("a\nc", "a.c", "s")', True),
    (r'regex("a\nb\nc", "^b$", "m")', True),
    (r'regex("a\nb\nc", "^b$", "")', False),
    (r'regex("b\n", "^b$", "")', False),  # $ is the very end without m
    (r'regex("b\n", "^b$", "m")', True),
    ('regex("b", "^b$", "")', True),
    ('regex("ac", " a b? c ", "x")', True),  # regex/regex-ignore-whitespaces
    (r'regex("a\nc", " a\n\r\t[\\n]c ", "x")', True),
    ('regex("a b", "[ ]", "x")', True),  # whitespace inside a class is kept
    ('regex("a#b", "a#b", "x")', True),  # # is not a comment
    ('regex("a?+*.{}()[]c", "a?+*.{}()[]C", "iq")', True),
    ('regex("abc", "a.c", "q")', False),
    (r'regex("abc", "a[b\\n]c", "")', True),
    ('regex("abc", "a[^b]c", "")', False),
    ('regex("abbc", "ab{2}c", "")', True),
    ('regex("abc", "ab{2}c", "")', False),
    ('regex("abbbc", "ab{1,}c", "")', True),
    ('regex("ac", "ab?c", "")', True),
    (r'regex("a b", "a\\sb", "")', True),
    ('regex("a\u00a0b", "a\\\\sb", "")', False),  # XPath \s is space, tab, CR, LF only
    (r'regex("a b", "a[\\s]b", "")', True),
    (r'regex("aa", "(a)\\1", "")', True),
    ('regex("abc", "(?:b)", "")', True),
    ('regex("abc", "", "")', True),
    ('regex("chat"@fr, "^ch", "")', True),
    ('regex(str(<http://example.com/>), "example\\\\.com", "")', True),
    ('regex(<http://example.com/>, "example", "")', ERROR),
    ('regex(1, "1", "")', ERROR),
    ('regex("abc", "b"@en, "")', ERROR),
    ('regex("abc", "b", "z")', ERROR),
    ('regex("abc", "(", "")', ERROR),
    ('regex("b", "^[a-z-[b]]$", "")', False),  # class subtraction (elementpath translates the whole XPath syntax)
    ('regex("c", "^[a-z-[b]]$", "")', True),
    ('regex("e", "^[a-z-[aeiou]]$", "")', False),
    (r'regex("abc", "\\p{L}", "")', True),  # Unicode categories and blocks
    (r'regex("123", "\\p{L}", "")', False),
    ('regex("\u00e9", "^\\\\p{Ll}$", "")', True),
    (r'regex("abc", "^\\P{Lu}+$", "")', True),
    (r'regex("abc", "\\p{Xx}", "")', ERROR),  # no such category
    (r'regex("_a-1", "^\\i\\c*$", "")', True),  # XML name characters
    (r'regex("1a", "^\\i", "")', False),
    ('regex("$", "^\\\\w$", "")', True),  # XPath \w excludes punctuation, separators and others only; Python's excludes symbols
    ('regex("-", "^\\\\w$", "")', False),
    ('regex("$", "^\\\\W$", "")', False),
    ('regex("a\u00a0b", "a\\\\Sb", "")', True),  # U+00A0 is not XPath whitespace
    ('regex("\u0663", "^\\\\d$", "")', True),  # Arabic-Indic three is a decimal digit (Nd)
    (r'regex("abc", "\\bb", "")', ERROR),
    ('regex("ab", "(?i)AB", "")', ERROR),
    ('regex("ab", "a{99999999999}", "")', ERROR),
    ('regex("a|b", "a|b", "") && regex("b", "a|b", "")', True),
]

CASTS = [
    ('xsd:integer("13") = 13', True),
    ('xsd:integer(" 12 ") = 12', True),
    ('xsd:integer("1.5")', ERROR),
    ('xsd:integer("-10.2E3")', ERROR),
    ('xsd:integer("+33.3300")', ERROR),
    ("xsd:integer(1.5) = 1", True),
    ("xsd:integer(-1.5) = -1", True),
    ("xsd:integer(1e10) = 10000000000", True),
    ('xsd:integer("NaN"^^xsd:double)', ERROR),
    ('xsd:integer("INF"^^xsd:float)', ERROR),
    ("xsd:integer(true) = 1", True),
    ("xsd:integer(<http://a>)", ERROR),
    ('xsd:integer("a"@en)', ERROR),
    ('xsd:integer("2002-10-10T17:00:00Z"^^xsd:dateTime)', ERROR),
    ('xsd:integer("abc"^^xsd:integer)', ERROR),
    ('xsd:integer("1"^^:t)', ERROR),
    ('sameTerm(xsd:integer("01"), 1)', True),
    ('xsd:short("300") = 300', True),
    ('xsd:byte("300")', ERROR),
    ('xsd:positiveInteger(0)', ERROR),
    ("datatype(xsd:short(1)) = xsd:short", True),
    ('xsd:decimal("+33.3300") = 33.33', True),
    ('xsd:decimal("-10.2E3")', ERROR),
    ('xsd:decimal("13") = 13', True),
    ("xsd:decimal(1e0) = 1", True),
    ("xsd:decimal(0.1e0) = 0.1", True),
    ('xsd:decimal("INF"^^xsd:double)', ERROR),
    ("xsd:decimal(false) = 0", True),
    ("datatype(xsd:decimal(1)) = xsd:decimal", True),
    ('xsd:double("-10.2E3") = -10200', True),
    ('xsd:double("+33.3300") = 33.33e0', True),
    ('xsd:double("13") = 13', True),
    ('xsd:double("abc")', ERROR),
    ('xsd:double("2002-10-10T17:00:00Z")', ERROR),
    ("xsd:double(true) = 1", True),
    ('xsd:float("0.1") = "0.1"^^xsd:float', True),
    ("xsd:float(0.1) = 0.1e0", False),
    ('xsd:float("INF") > 0', True),
    ("datatype(xsd:float(1)) = xsd:float", True),
    ('xsd:boolean("true")', True),
    ('xsd:boolean("1") = true', True),
    ('xsd:boolean("0") = false', True),
    ('xsd:boolean("yes")', ERROR),
    ('xsd:boolean("13")', ERROR),
    ("xsd:boolean(0.0) = false", True),
    ("xsd:boolean(2) = true", True),
    ('xsd:boolean("NaN"^^xsd:double) = false', True),
    ("xsd:boolean(<http://a>)", ERROR),
    ('xsd:dateTime("2002-10-10T17:00:00Z") = "2002-10-10T17:00:00Z"^^xsd:dateTime', True),
    ('datatype(xsd:dateTime("2002-10-10T17:00:00Z")) = xsd:dateTime', True),
    ('xsd:dateTime("13")', ERROR),
    ("xsd:dateTime(1)", ERROR),
    ('xsd:string(<http://a>) = "http://a"', True),
    ('xsd:string(1.0e0) = "1"', True),
    ('xsd:string(1.5e0) = "1.5"', True),
    ('xsd:string(1e20) = "1.0E20"', True),
    ('xsd:string(1.0e-7) = "1.0E-7"', True),
    ('xsd:string(0.000001e0) = "0.000001"', True),
    ('xsd:string(-0.0e0) = "-0"', True),
    ('xsd:string("NaN"^^xsd:double) = "NaN"', True),
    ('xsd:string("-INF"^^xsd:double) = "-INF"', True),
    ('xsd:string("0.1"^^xsd:float) = "0.1"', True),
    ('xsd:string("01"^^xsd:integer) = "1"', True),
    ('xsd:string(1.50) = "1.5"', True),
    ('xsd:string(2.0) = "2"', True),
    ('xsd:string("1"^^xsd:boolean) = "true"', True),
    ('xsd:string("2002-10-10T17:00:00Z"^^xsd:dateTime) = "2002-10-10T17:00:00Z"', True),
    ('xsd:string("a") = "a"', True),
    ('xsd:string("a"@en)', ERROR),
    ('xsd:string("x"^^:t)', ERROR),
    ('xsd:string("abc"^^xsd:integer)', ERROR),
    ("datatype(xsd:string(1)) = xsd:string", True),
]


@pytest.mark.parametrize("text, expected", EQUALITY)
def test_equality(text, expected):
    check(text, expected)


@pytest.mark.parametrize("text, expected", ORDERING)
def test_ordering(text, expected):
    check(text, expected)


@pytest.mark.parametrize("text, expected", ARITHMETIC)
def test_arithmetic(text, expected):
    check(text, expected)


@pytest.mark.parametrize("term, expected", EFFECTIVE_BOOLEAN_VALUE)
def test_effective_boolean_value(term, expected):
    check("?o", expected, {"?o": term})
    check("?o && true", expected, {"?o": term})


@pytest.mark.parametrize("text, expected", LOGIC)
def test_three_valued_logic(text, expected):
    check(text, expected)


@pytest.mark.parametrize("text, expected", BUILTINS)
def test_builtins(text, expected):
    check(text, expected)


@pytest.mark.parametrize("text, expected", REGEX)
def test_regex(text, expected):
    check(text, expected)


@pytest.mark.parametrize("text, expected", CASTS)
def test_casts(text, expected):
    check(text, expected)


def test_integers_beyond_pythons_string_conversion_limit():
    huge = f'"1{"0" * 5000}"^^{INT}'
    assert outcome(Call("sameterm", (Arith("*", TermExpr(huge), TermExpr(f'"1"^^{INT}')), TermExpr(huge)))) is True
    assert outcome(Compare(">", TermExpr(huge), TermExpr(f'"1e300"^^{DBL}'))) is True


@pytest.mark.parametrize(
    "text, term",
    [
        ("1 / 3", f'"0.3333333333333333333333333333"^^<{XSD}decimal>'),
        ("2 * 0.50", f'"1"^^<{XSD}decimal>'),
        ("-(0.5)", f'"-0.5"^^<{XSD}decimal>'),
        ('"01"^^xsd:integer + "02"^^xsd:short', f'"3"^^<{XSD}integer>'),
        ("1e0 * 100", f'"1.0E2"^^<{XSD}double>'),
        ('"1.5"^^xsd:float + 0', f'"1.5E0"^^<{XSD}float>'),
        ("str(<http://a/b>)", '"http://a/b"'),
        ('str("x"@en)', '"x"'),
        ('lang("x"@EN-gb)', '"en-gb"'),
        ('datatype("x"@en)', "<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>"),
        ('xsd:string("say \\"hi\\"")', '"say \\"hi\\""'),
        ('xsd:dateTime(" 2002-10-10T17:00:00Z ")', f'"2002-10-10T17:00:00Z"^^<{XSD}dateTime>'),
        ("1 = 1", f'"true"^^<{XSD}boolean>'),
        ("1/0", None),
    ],
)
def test_expressions_make_canonical_terms(text, term):
    assert expression_term(parse_filter(text), {}) == term


# ---------------------------------------------------------------- with variables

# expr-equals/data-eq.ttl
EQ_DATA = {
    "xi1": f'"1"^^{INT}', "xi3": f'"01"^^{INT}', "xd1": f'"1.0e0"^^{DBL}', "xd2": f'"1.0"^^{DBL}',
    "xd3": f'"1"^^{DBL}', "xt1": '"zzz"^^<http://example.org/things#myType>', "xp1": '"zzz"', "xp2": '"1"',
    "xu": "<http://example.org/things#z>",
}
NUMBERS = {"xi1", "xi3", "xd1", "xd2", "xd3"}


@pytest.mark.parametrize(
    "constant, matches",
    [
        ("1", NUMBERS),
        ("1.0e0", NUMBERS),
        ('"1"', {"xp2"}),
        ('"zzz"', {"xp1"}),
        ("<http://example.org/things#z>", {"xu"}),
    ],
)
def test_w3c_expr_equals_against_constants(constant, matches):
    expr = parse_filter(f"?o = {constant}")
    assert {name for name, term in EQ_DATA.items() if filter_holds(expr, {"?o": term})} == matches


def test_w3c_expr_equals_pairs():
    """expr-equals eq-2-1 and eq-2-2: which pairs are =, which are != and which are neither."""
    equal_expr, unequal_expr = parse_filter("?s = ?o"), parse_filter("?s != ?o")
    for left, left_term in EQ_DATA.items():
        for right, right_term in EQ_DATA.items():
            binding = {"?s": left_term, "?o": right_term}
            expected_equal = left == right or (left in NUMBERS and right in NUMBERS)
            # valid values of known types (numbers, strings) are unequal across types; the unknown
            # datatype (xt1) against another literal is an error, so neither = nor != holds
            expected_unequal = not expected_equal and ("xu" in (left, right) or "xt1" not in (left, right))
            assert filter_holds(equal_expr, binding) == expected_equal, (left, right)
            assert filter_holds(unequal_expr, binding) == expected_unequal, (left, right)


def test_unbound_variables_are_errors_except_for_bound():
    check("?o = 1", ERROR, {})
    check("!bound(?o)", True, {})
    check("bound(?o)", True, {"?o": '"x"'})
    check("isIRI(?o)", ERROR, {})
    check("bound(?o) || ?o = 1", ERROR, {})
    check("bound(?o) && ?o = 1", False, {})
    check("!bound(?o) || ?o = 1", True, {})


def test_blank_nodes():
    check("isBlank(?o)", True, {"?o": "_:b1"})
    check("isLiteral(?o)", False, {"?o": "_:b1"})
    check("str(?o)", ERROR, {"?o": "_:b1"})
    check("?o = ?s", True, {"?o": "_:b1", "?s": "_:b1"})
    check("?o = ?s", False, {"?o": "_:b1", "?s": "_:b2"})
    check('?o = "b1"', False, {"?o": "_:b1"})
    check("sameTerm(?o, ?s)", False, {"?o": "_:b1", "?s": "_:b2"})


def test_regex_without_flags():
    assert outcome(Call("regex", (TermExpr('"abc"'), TermExpr('"B"')))) is False
    assert outcome(Call("regex", (TermExpr('"abc"'), TermExpr('"b"')))) is True
    assert outcome(Call("regex", (VarExpr("?o"), VarExpr("?p"))), {"?o": '"abc"', "?p": '"^a"'}) is True


def test_regex_with_variable_pattern_and_flags():
    expr = parse_filter("regex(?s, ?p, ?o)")
    assert outcome(expr, {"?s": '"ABC"', "?p": '"b"', "?o": '"i"'}) is True
    assert outcome(expr, {"?s": '"ABC"', "?p": '"b"', "?o": '""'}) is False
    assert outcome(expr, {"?s": '"ABC"', "?p": '"("', "?o": '""'}) == ERROR
    assert outcome(expr, {"?s": '"ABC"', "?p": '"b"', "?o": '"k"'}) == ERROR
    assert outcome(expr, {"?s": '"ABC"', "?p": "<http://b>", "?o": '""'}) == ERROR


# ---------------------------------------------------------------- compile_filters


def test_compile_filters_reads_tuple_positions():
    query = parse_query(f"{PREFIXES} SELECT * WHERE {{ ?a :p ?b . ?b :q ?c FILTER(?a != ?c) FILTER(?b > 1) }}",
                        window="unbounded")
    holds = compile_filters(query.filters, query.variables)
    assert query.variables == ("?a", "?b", "?c")
    two, one = f'"2"^^{INT}', f'"1"^^{INT}'
    assert holds(("<http://x>", two, "<http://y>"))
    assert not holds(("<http://x>", two, "<http://x>"))
    assert not holds(("<http://x>", one, "<http://y>"))
    assert not holds(("<http://x>", '"two"', "<http://y>"))  # an error in one filter is false
    assert not holds(("<http://x>", None, "<http://y>"))


def test_compile_filters_without_filters_is_none():
    assert compile_filters((), ("?a",)) is None


def test_variables_outside_the_mapping_are_unbound():
    holds = compile_filter(parse_filter("!bound(?z) && ?s = 1"), ("?s",))
    assert holds((f'"1"^^{INT}',))
    assert not compile_filter(parse_filter("?z = 1"), ("?s",))((f'"1"^^{INT}',))


def test_constant_subexpressions_are_folded_but_errors_stay_errors():
    holds = compile_filter(parse_filter("?s = 1 + 1 || 1/0"), ("?s",))
    assert holds((f'"2"^^{INT}',))
    assert not holds((f'"3"^^{INT}',))


@pytest.mark.parametrize(
    "expr, message",
    [
        (Call("<http://www.w3.org/2001/XMLSchema#date>", (TermExpr('"2002-10-10"'),)), "cast"),
        (Call("<http://www.w3.org/2001/XMLSchema#integer>", ()), "one argument"),
        (Call("regex", (TermExpr('"a"'),)), "arguments"),
        (Call("bound", (TermExpr('"a"'),)), "variable"),
        (Call("ucase", (TermExpr('"a"'),)), "not supported"),
    ],
)
def test_unsupported_expressions_are_query_errors(expr, message):
    with pytest.raises(QueryError, match=message):
        compile_filter(expr, ())


def test_filter_holds_agrees_with_the_closure_on_a_given_expression():
    expr = Compare("<", VarExpr("?x"), TermExpr(f'"10"^^{INT}'))
    assert filter_holds(expr, {"?x": f'"9"^^{INT}'})
    assert not filter_holds(expr, {"?x": f'"10"^^{INT}'})
    assert not filter_holds(expr, {})


# ---------------------------------------------------------------- properties

FLOAT, DECIMAL = f"<{XSD}float>", f"<{XSD}decimal>"


def _float_lexical(number: float) -> str:
    if number != number:
        return "NaN"
    if number in (math.inf, -math.inf):
        return "INF" if number > 0 else "-INF"
    return repr(number)


def _numeric_term(number, rank: int):
    """(term, reference value, rank) for a number read at a rank: 0 integer, 1 decimal, 2 float, 3 double."""
    finite = isinstance(number, int) or (number == number and not math.isinf(number))
    if rank == 0 and finite:
        value = int(number)
        return f'"{value}"^^{INT}', value, 0
    if rank == 1 and finite:
        value = Decimal(number)
        return f'"{value:f}"^^{DECIMAL}', value, 1
    try:
        value = float(number)
    except OverflowError:
        value = math.inf if number > 0 else -math.inf
    if rank == 2:
        value = float(numpy.float32(value)) if abs(value) <= 3.4028235e38 else math.copysign(math.inf, value)
        return f'"{_float_lexical(value)}"^^{FLOAT}', value, 2
    return f'"{_float_lexical(value)}"^^{DBL}', value, 3


_EDGES = st.sampled_from([16777216, 2**53, 10**400, 0.1, 1.1, 0.5, 3.4028235e38, -0.0, math.nan, math.inf, -math.inf])
_SEEDS = st.one_of(
    _EDGES,
    _EDGES,
    st.integers(-(10**20), 10**20),
    st.decimals(allow_nan=False, allow_infinity=False, places=3, min_value=-(10**9), max_value=10**9),
    st.floats(width=32),
    st.floats(),
)


@st.composite
def numeric_terms(draw, seed=None):
    number = seed if seed is not None else draw(_SEEDS)
    if isinstance(number, int):
        number += draw(st.integers(-1, 1))
    return _numeric_term(number, draw(st.integers(0, 3)))


@st.composite
def numeric_pairs(draw):
    """Two numbers read from one seed at random ranks, so that near and exact ties are common."""
    seed = draw(_SEEDS)
    return draw(numeric_terms(seed)), draw(numeric_terms(seed if draw(st.booleans()) else None))


def _reference_promote(number, rank, to_rank):
    if to_rank == 0:
        return number
    if to_rank == 1:
        return Decimal(number)
    try:
        double = float(number)
    except OverflowError:
        double = math.inf if number > 0 else -math.inf
    if to_rank == 2 and rank < 2:
        with numpy.errstate(over="ignore"):
            return float(numpy.float32(double))  # numpy rounds independently of engines.model.values
    return double


@settings(max_examples=400)
@given(numeric_pairs(), st.sampled_from(["=", "!=", "<", ">", "<=", ">="]))
def test_numeric_comparison_agrees_with_python_after_promotion(pair, op):
    left, right = pair
    (left_term, left_number, left_rank), (right_term, right_number, right_rank) = left, right
    rank = max(left_rank, right_rank)
    first = _reference_promote(left_number, left_rank, rank)
    second = _reference_promote(right_number, right_rank, rank)
    expected = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt,
                "<=": operator.le, ">=": operator.ge}[op](first, second)
    assert filter_holds(Compare(op, TermExpr(left_term), TermExpr(right_term)), {}) == expected


@given(numeric_pairs(), st.sampled_from(["+", "-", "*", "/"]))
def test_arithmetic_results_are_canonical_terms_holding_their_value(pair, op):
    left, right = pair
    term = expression_term(Arith(op, TermExpr(left[0]), TermExpr(right[0])), {})
    if term is None:  # an error: integer or decimal division by zero, nothing else
        assert op == "/" and max(left[2], right[2]) < 2 and right[1] == 0
        return
    assert parse_term(term) == term
    value = term_value(term)
    assert value.kind == values.NUMERIC and value.rank == max(left[2], right[2], 1 if op == "/" else 0)
    same = Compare("=", TermExpr(term), Arith(op, TermExpr(left[0]), TermExpr(right[0])))
    assert filter_holds(same, {}) == (value.value == value.value)  # NaN is never equal


# Terms for random expressions: numbers, strings, an IRI, a blank node, ill-typed and unknown literals.
ATOMS = [f'"1"^^{INT}', f'"01"^^{INT}', f'"-2"^^{INT}', f'"0"^^{INT}', f'"1.5"^^{DECIMAL}', f'"0.0"^^{DECIMAL}',
         f'"1"^^{FLOAT}', f'"NaN"^^{DBL}', f'"-INF"^^{DBL}', f'"2.5E0"^^{DBL}', '"a"', '"b"', '""', '"a"@en',
         f'"true"^^<{XSD}boolean>', f'"false"^^<{XSD}boolean>', f'"abc"^^{INT}', '"z"^^<http://example.org/t>',
         "<http://example.org/a>", "_:b", f'"2008-10-01T00:00:00Z"^^<{XSD}dateTime>']
VARIABLES = ("?a", "?b", "?c")


def expressions(depth: int = 3):
    leaves = st.one_of(st.sampled_from(ATOMS).map(TermExpr), st.sampled_from(VARIABLES + ("?z",)).map(VarExpr))
    if depth == 0:
        return leaves
    sub = expressions(depth - 1)
    return st.one_of(
        leaves,
        st.builds(Compare, st.sampled_from(["=", "!=", "<", ">", "<=", ">="]), sub, sub),
        st.builds(Arith, st.sampled_from(["+", "-", "*", "/"]), sub, sub),
        st.builds(lambda args: And(tuple(args)), st.lists(sub, min_size=2, max_size=3)),
        st.builds(lambda args: Or(tuple(args)), st.lists(sub, min_size=2, max_size=3)),
        st.builds(Not, sub),
        st.builds(Unary, st.sampled_from(["-", "+"]), sub),
        st.builds(lambda name, arg: Call(name, (arg,)),
                  st.sampled_from(["isiri", "isblank", "isliteral", "isnumeric", "str", "lang", "datatype"]), sub),
        st.builds(lambda name, arg: Call(name, (arg,)), st.sampled_from(
            [f"<{XSD}integer>", f"<{XSD}decimal>", f"<{XSD}double>", f"<{XSD}string>", f"<{XSD}boolean>"]), sub),
        st.builds(lambda a, b: Call("sameterm", (a, b)), sub, sub),
        st.builds(lambda v: Call("bound", (VarExpr(v),)), st.sampled_from(VARIABLES + ("?z",))),
    )


@given(expressions(), st.lists(st.one_of(st.none(), st.sampled_from(ATOMS)), min_size=3, max_size=3))
def test_compile_filter_and_filter_holds_agree(expr, row):
    binding = {name: term for name, term in zip(VARIABLES, row) if term is not None}
    compiled = compile_filter(expr, VARIABLES)(tuple(row))
    assert compiled == filter_holds(expr, binding)
    assert compiled == compile_filters([expr], VARIABLES)(tuple(row))
    # A filter and its negation never both hold; an error makes both false.
    assert not (compiled and filter_holds(Not(expr), binding))


# Where SPARQL leaves no room for choice, agree with an independent engine: oxigraph on numeric
# expressions (promotion, exact decimals, single-precision floats) and string comparisons. Left out
# on purpose, because oxigraph departs from SPARQL 1.1 there (docs/filters.md): comparisons across
# datatypes, ill-typed literals, NaN ordering, booleans ordered, language-tagged EBV; and division,
# whose decimal precision XPath leaves to the implementation.
NUMBER_ATOMS = [f'"{lexical}"^^{INT}' for lexical in ("0", "1", "01", "-2", "7", "+3")] + [
    f'"{lexical}"^^{DECIMAL}' for lexical in ("0.0", "1.5", "-2.25", "0.1", ".5")] + [
    f'"{lexical}"^^{FLOAT}' for lexical in ("1.1", "0.1", "-3", "2.5")] + [
    f'"{lexical}"^^{DBL}' for lexical in ("1.1", "0.1", "-0.0", "1e1")] + [
    f'"1"^^<{XSD}short>', f'"2"^^<{XSD}nonNegativeInteger>']
STRING_ATOMS = ['"a"', '"b"', '""', '"ab"', '"B"', '"\u00e9"']


def _numeric_expressions(depth: int):
    leaves = st.sampled_from(NUMBER_ATOMS).map(TermExpr)
    if depth == 0:
        return leaves
    sub = _numeric_expressions(depth - 1)
    return st.one_of(leaves, st.builds(Arith, st.sampled_from(["+", "-", "*"]), sub, sub),
                     st.builds(Unary, st.sampled_from(["-", "+"]), sub))


def _boolean_expressions(depth: int):
    comparisons = st.sampled_from(["=", "!=", "<", ">", "<=", ">="])
    leaves = st.one_of(
        st.builds(Compare, comparisons, _numeric_expressions(2), _numeric_expressions(2)),
        st.builds(Compare, comparisons, st.sampled_from(STRING_ATOMS).map(TermExpr),
                  st.sampled_from(STRING_ATOMS).map(TermExpr)),
        _numeric_expressions(1),  # by its effective boolean value
    )
    if depth == 0:
        return leaves
    sub = _boolean_expressions(depth - 1)
    return st.one_of(leaves, st.builds(lambda a, b: And((a, b)), sub, sub),
                     st.builds(lambda a, b: Or((a, b)), sub, sub), st.builds(Not, sub))


def _sparql(expr) -> str:
    if isinstance(expr, TermExpr):
        return expr.term
    if isinstance(expr, (Compare, Arith)):
        return f"({_sparql(expr.left)} {expr.op} {_sparql(expr.right)})"
    if isinstance(expr, Unary):
        return f"({expr.op}{_sparql(expr.arg)})"
    if isinstance(expr, Not):
        return f"(!{_sparql(expr.arg)})"
    joiner = " && " if isinstance(expr, And) else " || "
    return "(" + joiner.join(_sparql(arg) for arg in expr.args) + ")"


_OXIGRAPH = pyoxigraph.Store()


@settings(max_examples=200)
@given(_boolean_expressions(2))
def test_numeric_and_string_filters_agree_with_oxigraph(expr):
    text = _sparql(expr)
    if _OXIGRAPH.query(f"ASK {{ FILTER({text}) }}"):
        expected = True
    elif _OXIGRAPH.query(f"ASK {{ FILTER(!{text}) }}"):
        expected = False
    else:
        expected = ERROR
    assert outcome(expr) == expected, text


@given(st.text(st.sampled_from("ab.\\[]^$-(){}?*+|:,0123 \nsSdDwWpq"), max_size=12),
       st.text(st.sampled_from("smixqz"), max_size=3), st.text(st.sampled_from("ab \n\r"), max_size=6))
def test_any_regex_matches_or_is_an_error(pattern, flags, text):
    """No pattern or flag string escapes as anything but a SPARQL error."""
    expr = Call("regex", (TermExpr(literal(text)), TermExpr(literal(pattern)), TermExpr(literal(flags))))
    assert outcome(expr) in (True, False, ERROR)


_ZONES = st.sampled_from([None, datetime.UTC, datetime.timezone(datetime.timedelta(hours=14)),
                          datetime.timezone(datetime.timedelta(hours=-5, minutes=-30))])


@given(st.datetimes(), st.datetimes(), _ZONES, _ZONES, st.sampled_from(["=", "<", ">="]))
def test_datetime_order_agrees_with_python_datetime(first, second, first_zone, second_zone, op):
    """Both with a timezone or both without: the instant decides, as Python's datetime says."""
    if (first_zone is None) != (second_zone is None):
        second_zone = first_zone
    first, second = first.replace(tzinfo=first_zone), second.replace(tzinfo=second_zone)
    left, right = (TermExpr(literal(moment.isoformat(), XSD + "dateTime")) for moment in (first, second))
    expected = {"=": operator.eq, "<": operator.lt, ">=": operator.ge}[op](first, second)
    assert outcome(Compare(op, left, right)) is expected


@pytest.mark.parametrize(("text", "expected"), [
    ('"2006-08-23"^^xsd:date = "2006-08-23+00:00"^^xsd:date', ERROR),  # zoned vs unzoned, within 14 hours
    ('"2006-08-23Z"^^xsd:date = "2006-08-23+00:00"^^xsd:date', True),
    ('"2006-08-23"^^xsd:date > "2006-08-22"^^xsd:date', True),
    ('"2001-01-01Z"^^xsd:date != "2006-08-23"^^xsd:date', True),
    ('"2006-08-23T09:00:00+01:00"^^xsd:dateTime > "2006-08-22"^^xsd:date', ERROR),
    ('"2006-08-23T09:00:00+01:00"^^xsd:dateTime != "2006-08-23"^^xsd:date', True),
    ('"2006-02-30"^^xsd:date = "2006-02-30"^^xsd:date', True),  # ill-typed, but the same term
    ('"2006-02-30"^^xsd:date < "2006-03-01"^^xsd:date', ERROR),
])
def test_dates(text, expected):
    assert outcome(parse_filter(text), None) == expected
