"""The plain oracle's numeric results, casts and string functions, each written from SPARQL 1.1 and XPath, on canonical terms.

Everything here takes and returns canonical N-Triples term strings and raises ``ExpressionError``
for a SPARQL error (which makes the enclosing FILTER false, unless ``||``/``&&`` absorb it):

- ``numeric_term`` writes a computed numeric as a literal whose lexical form is XPath's
  ``fn:string`` of the value (``2`` for the decimal 2.0, ``1.0E7`` for the double 1e7): SPARQL
  gives arithmetic results as values, not lexical forms, so any valid form is allowed and this one
  agrees with the cast to xsd:string;
- ``cast`` follows the SPARQL 1.1 cast table (section 17.5) with XPath's casting rules: strings are
  whitespace-collapsed then read in the target's lexical space, numerics truncate to integer, NaN
  and infinities do not cast to integer or decimal, 0 and NaN cast to boolean false, and an
  ill-typed literal, a language-tagged literal or a blank node casts to nothing;
- ``regex`` is XPath ``fn:matches`` (flags ``s``, ``m``, ``i``, ``x``, ``q``) on top of Python ``re``;
- ``lang_matches`` is RFC 4647 basic filtering, as SPARQL's langMatches.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

from oracles import nterms, values

X = nterms.XSD
INTEGER, DECIMAL, FLOAT, DOUBLE = X + "integer", X + "decimal", X + "float", X + "double"
BOOLEAN, STRING, DATETIME = X + "boolean", X + "string", X + "dateTime"
PRECISION_RANK = {"integer": 0, "decimal": 1, "float": 2, "double": 3}


class ExpressionError(Exception):
    """A SPARQL expression error (type error, unbound variable, division by zero, ...)."""


def literal(lexical: str, datatype: str | None = None) -> str:
    return nterms.canonical(nterms.Parts("literal", lexical, datatype, None))


def boolean_term(truth: bool) -> str:
    return literal("true" if truth else "false", BOOLEAN)


to_float32 = values.to_float32


def numeric_term(number, precision: str) -> str:
    """The literal of a computed numeric value (``Decimal`` for integer/decimal, ``float`` otherwise)."""
    if precision == "integer":
        return literal(str(int(number)), INTEGER)
    if precision == "decimal":
        return literal(values.decimal_string(number), DECIMAL)
    return literal(values.floating_string(number, precision), FLOAT if precision == "float" else DOUBLE)


def numeric_value(term: str) -> values.Value:
    """The numeric value of a term, or an error (IRIs, strings, ill-typed numerics...)."""
    value = values.literal_value(term) if term[0] == '"' else values.Value(None)
    if value.space != values.NUMERIC:
        raise ExpressionError(f"{term} is not a valid numeric literal")
    return value


# ---------------------------------------------------------------- casts (SPARQL 1.1, 17.5)


def _string_cast_text(term: str, parts: nterms.Parts) -> str:
    """XPath's string of a literal's value (its canonical form), used by the cast to xsd:string."""
    value = values.literal_value(term)
    if value.space == values.NUMERIC:
        number = value.value
        return values.decimal_string(number) if value.precision in ("integer", "decimal") else values.floating_string(number, value.precision)
    if value.space == values.BOOLEAN:
        return "true" if value.value else "false"
    return parts.value  # strings; dateTimes keep their lexical form


def _from_string(text: str, target: str) -> str:
    """A string cast to ``target``: the collapsed text must be in the target's lexical space."""
    collapsed = " ".join(text.split()) if target != STRING else text
    if target == STRING:
        return literal(text)
    if target == BOOLEAN:
        if collapsed not in ("true", "false", "1", "0"):
            raise ExpressionError(f"cannot cast {text!r} to xsd:boolean")
        return boolean_term(collapsed in ("true", "1"))
    value = values.literal_value(literal(collapsed, target))
    if value.space is None:
        raise ExpressionError(f"cannot cast {text!r} to <{target}>")
    if target == DATETIME:
        return literal(collapsed, DATETIME)
    return numeric_term(value.value, value.precision)


def _from_number(value: values.Value, target: str) -> str:
    number = value.value
    finite = not isinstance(number, float) or math.isfinite(number)
    if target == BOOLEAN:
        return boolean_term(not (number != number or number == 0))
    if target in (INTEGER, DECIMAL):
        if not finite:
            raise ExpressionError(f"cannot cast {number} to <{target}>")
        exact = Decimal(number)  # a float converts exactly to the decimal it is
        return numeric_term(Decimal(int(exact)) if target == INTEGER else exact, target[len(X):])
    if target == FLOAT:
        return numeric_term(to_float32(float(number)), "float")
    if target == DOUBLE:
        return numeric_term(float(number), "double")
    raise ExpressionError(f"cannot cast a numeric to <{target}>")


CAST_TARGETS = frozenset({STRING, INTEGER, DECIMAL, FLOAT, DOUBLE, BOOLEAN, DATETIME})


def cast(target: str, term: str) -> str:
    """``xsd:T(term)`` for one of CAST_TARGETS (given as an IRI without brackets)."""
    parts = nterms.split(term)
    if parts.kind == "bnode":
        raise ExpressionError("a blank node cannot be cast")
    if parts.kind == "iri":
        if target != STRING:
            raise ExpressionError(f"an IRI can only be cast to xsd:string, not <{target}>")
        return literal(parts.value)
    if parts.lang is not None:
        raise ExpressionError("a language-tagged literal cannot be cast")
    if parts.datatype is None:
        return _from_string(parts.value, target)
    value = values.literal_value(term)
    if value.space is None:
        raise ExpressionError(f"{term} has no value the cast table knows")
    if target == STRING:
        return literal(_string_cast_text(term, parts))
    if value.space == values.NUMERIC:
        return _from_number(value, target)
    if value.space == values.BOOLEAN:
        if target == BOOLEAN:
            return boolean_term(value.value)
        if target == DATETIME:
            raise ExpressionError("a boolean cannot be cast to xsd:dateTime")
        return _from_number(values.Value(values.NUMERIC, Decimal(int(value.value)), "integer"), target)
    if value.space == values.DATETIME and target == DATETIME:
        return term
    raise ExpressionError(f"cannot cast {term} to <{target}>")


# ---------------------------------------------------------------- REGEX and langMatches


def xpath_regex(pattern: str, flags: str) -> re.Pattern:
    """A compiled Python pattern meaning what the XPath pattern means under the XPath flags."""
    if set(flags) - set("smixq"):
        raise ExpressionError(f"unknown REGEX flags {flags!r}")
    options = re.IGNORECASE if "i" in flags else 0
    if "q" in flags:
        return re.compile(re.escape(pattern), options)
    out: list[str] = []
    in_class = False
    position = 0
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            out.append(pattern[position:position + 2])
            position += 2
            continue
        if in_class:
            in_class = char != "]"
            out.append(char)
        elif "x" in flags and char in " \t\r\n":
            pass  # the x flag removes whitespace outside character classes
        elif char == "[":
            in_class = True
            out.append(char)
        elif char == "." and "s" not in flags:
            out.append("[^\\n\\r]")  # XPath's '.' excludes carriage return as well as newline
        elif char == "$" and "m" not in flags:
            out.append("\\Z")  # XPath's '$' is the end of the string, never before a final newline
        else:
            out.append(char)
        position += 1
    try:
        return re.compile("".join(out), options | (re.DOTALL if "s" in flags else 0) | (re.MULTILINE if "m" in flags else 0))
    except re.error as error:
        raise ExpressionError(f"invalid REGEX pattern {pattern!r}: {error}") from None


def string_argument(term: str, what: str, *, language_allowed: bool) -> str:
    """The lexical form of a string literal argument: simple (or xsd:string), language-tagged if allowed."""
    parts = nterms.split(term)
    if parts.kind != "literal" or parts.datatype is not None or (parts.lang is not None and not language_allowed):
        raise ExpressionError(f"{what} must be a {'string' if language_allowed else 'simple'} literal, got {term}")
    return parts.value


def regex(text: str, pattern: str, flags: str = '""') -> bool:
    compiled = xpath_regex(
        string_argument(pattern, "the REGEX pattern", language_allowed=False),
        string_argument(flags, "the REGEX flags", language_allowed=False),
    )
    return compiled.search(string_argument(text, "the REGEX text", language_allowed=True)) is not None


def lang_matches(tag_term: str, range_term: str) -> bool:
    tag = string_argument(tag_term, "langMatches' tag", language_allowed=False).lower()
    language_range = string_argument(range_term, "langMatches' range", language_allowed=False).lower()
    if language_range == "*":
        return tag != ""
    return tag == language_range or tag.startswith(language_range + "-")
