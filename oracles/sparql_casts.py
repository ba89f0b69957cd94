"""The rdflib oracle's XSD casts and langMatches, replaced by SPARQL 1.1's where rdflib departs from them.

rdflib casts the *lexical form* of its argument (``xsd:decimal(1e0)`` fails on the ``e``,
``xsd:integer(2.7e0)`` fails, ``xsd:boolean(2)`` fails, ``xsd:string(1.50)`` keeps ``"1.50"``),
does not collapse whitespace before reading a string (``xsd:boolean(" 1 ")``), reads ``"INF"`` as no
double and ``"2002-10-10"`` as a dateTime, and casts language-tagged and ill-typed literals. SPARQL
1.1 (section 17.5) casts *values* by XPath's rules (F&O 17.1): a string is whitespace-collapsed and
read in the target's lexical space; numerics truncate to integer and cannot cast NaN or infinities
to integer or decimal; 0 and NaN are false; the string of a number is XPath's canonical
``fn:string``; only simple literals, xsd:string and the numeric, boolean and dateTime types are
castable (an IRI only to xsd:string).

rdflib's langMatches uses RFC 4647 *extended* filtering (``"*-gb"`` matches ``"en-gb"``) and says
nothing matches the empty tag; SPARQL names *basic* filtering (RFC 4647, 3.3.1), which compares the
tag and the range case-insensitively, whole or up to a ``-``, with ``*`` matching any non-empty
tag; both arguments must be simple literals.
"""

from __future__ import annotations

import math
from decimal import Decimal

from rdflib import Literal, URIRef
from rdflib.plugins.sparql import operators
from rdflib.plugins.sparql.sparql import SPARQLError

from oracles import nterms, values

X = nterms.XSD
CASTS = {X + name for name in ("string", "integer", "decimal", "float", "double", "boolean", "dateTime")}


def _typed(lexical: str, local: str) -> Literal:
    return Literal(lexical, datatype=URIRef(X + local))


def _number(number, local: str) -> Literal:
    """The literal of ``number`` (Decimal or float) cast to a numeric type, written as XPath's fn:string."""
    if local == "integer":
        return _typed(str(int(number)), local)
    if local == "decimal":
        return _typed(values.decimal_string(Decimal(number)), local)
    if local == "float":
        return _typed(values.floating_string(values.to_float32(float(number)), "float"), local)
    return _typed(values.floating_string(float(number), "double"), local)


def _string_of(value: values.Value, lexical: str) -> str:
    if value.space == values.NUMERIC:
        if value.precision in ("integer", "decimal"):
            return values.decimal_string(value.value)
        return values.floating_string(value.value, value.precision)
    if value.space == values.BOOLEAN:
        return "true" if value.value else "false"
    return lexical


def _cast_number(value: values.Value, local: str) -> Literal:
    number = value.value
    if value.space == values.BOOLEAN:
        number = Decimal(1 if number else 0)
    if local == "boolean":
        return Literal(not (number != number or number == 0))
    if local in ("integer", "decimal"):
        if isinstance(number, float) and not math.isfinite(number):
            raise SPARQLError(f"cannot cast {number} to xsd:{local}")
        number = Decimal(number)
        return _number(number.to_integral_value(rounding="ROUND_DOWN") if local == "integer" else number, local)
    if local in ("float", "double"):
        return _number(number, local)
    raise SPARQLError(f"cannot cast a number to xsd:{local}")


def cast(target: str, node) -> Literal:
    """``target(node)`` for one of CASTS, by SPARQL 1.1's cast table."""
    local = target[len(X):]
    if isinstance(node, SPARQLError):
        raise node
    if isinstance(node, URIRef) and local == "string":
        return Literal(str(node))
    if not isinstance(node, Literal) or node.language is not None:
        raise SPARQLError(f"{node!r} cannot be cast to xsd:{local}")
    term = nterms.from_rdflib(node)
    datatype = nterms.split(term).datatype
    text = str(node)
    if datatype is None:  # a simple literal or xsd:string: read the text in the target's lexical space
        if local == "string":
            return Literal(text)
        collapsed = " ".join(text.split())
        if local == "boolean":
            if collapsed not in ("true", "false", "1", "0"):
                raise SPARQLError(f"{text!r} is not an xsd:boolean")
            return Literal(collapsed in ("true", "1"))
        value = values.literal_value(nterms.canonical(nterms.Parts("literal", collapsed, target)))
        if value.space is None:
            raise SPARQLError(f"{text!r} is not in the lexical space of xsd:{local}")
        return _typed(collapsed, local) if local == "dateTime" else _number(value.value, local)
    value = values.literal_value(term)
    if value.space is None:
        raise SPARQLError(f"{term} has no value to cast")
    if local == "string":
        return Literal(_string_of(value, text))
    if value.space in (values.NUMERIC, values.BOOLEAN) and local != "dateTime":
        return Literal(bool(value.value)) if value.space == values.BOOLEAN and local == "boolean" else _cast_number(value, local)
    if value.space == values.DATETIME and local == "dateTime":
        return node
    raise SPARQLError(f"{term} cannot be cast to xsd:{local}")


def function(e, ctx):
    """rdflib evalfn for Function nodes: the seven XSD casts by SPARQL 1.1, anything else by rdflib."""
    if str(e.iri) not in CASTS:
        return operators.Function(e, ctx)
    arguments = e.expr
    if len(arguments) != 1:
        raise SPARQLError(f"a cast takes one argument, got {len(arguments)}")
    return cast(str(e.iri), arguments[0])


def _simple_literal(node, what: str) -> str:
    if not isinstance(node, Literal) or node.language is not None or (node.datatype is not None and str(node.datatype) != nterms.XSD_STRING):
        raise SPARQLError(f"langMatches' {what} must be a simple literal, got {node!r}")
    return str(node).lower()


def lang_matches(e, ctx) -> Literal:
    """rdflib evalfn for langMatches: RFC 4647 basic filtering, as SPARQL 1.1 names it."""
    tag, language_range = _simple_literal(e.arg1, "tag"), _simple_literal(e.arg2, "range")
    if language_range == "*":
        return Literal(tag != "")
    return Literal(tag == language_range or tag.startswith(language_range + "-"))


EVAL_OVERRIDES = {"Function": function, "Builtin_LANGMATCHES": lang_matches}
