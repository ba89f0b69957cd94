"""The plain oracle's FILTER semantics: a small recursive evaluator of the model's expression AST, following SPARQL 1.1 section 17.

``evaluate(expr, binding)`` gives the canonical term an expression denotes, or raises
``ExpressionError``; ``filter_holds`` is the FILTER's effective boolean value with an error as
false. Nothing here comes from ``engines`` evaluation code or from rdflib; literal values come from
``oracles.values``. The rules, as the specification states them:

- ``||`` and ``&&`` are three-valued: true wins over an error in ``||``, false in ``&&``; ``!`` of
  an error is an error (17.2, 17.4.1.5-6). Operands are read by their effective boolean value
  (17.2.2), whose error is an error of the operator;
- ``=``, ``!=``, ``<``, ``>``, ``<=``, ``>=`` (17.3): numerics by value after promotion, simple
  literals and xsd:string by code point, xsd:boolean, xsd:dateTime (and xsd:date, the W3C tests'
  ``XsdDateOperations`` extension) by value, with XSD's rule for a timezoned against an
  untimezoned time (an error within ±14 hours). Otherwise ``=`` is RDFterm-equal, with the
  W3C tests' ``KnownTypesDefault2Neq`` and ``LangTagAwareness`` readings: two valid values of
  different known types are unequal, a language-tagged literal equals only itself
  (``"a"@en = "b"@en`` and ``"a"@en = "a"`` are false, as rdflib, Oxigraph and ``engines.model.filters``
  also say), and two distinct literals of which one has no known value are an error. ``!=`` is the
  negation of ``=``; the orderings on anything else are errors;
- arithmetic (17.4.4 via XPath) takes valid numerics only; the result type is the larger of
  integer < decimal < float < double, ``/`` of integers is decimal, and division by zero is an
  error for integer and decimal, ±INF or NaN for float and double;
- builtins BOUND, isIRI/isURI, isBLANK, isLITERAL, isNUMERIC, STR, LANG, DATATYPE, sameTerm,
  langMatches, REGEX, and the casts of ``oracles.plain_functions``; an error in an argument is an
  error of the call (only BOUND reads no value).
"""

from __future__ import annotations

import math
from collections.abc import Mapping as MappingType
from decimal import Context

from common.errors import QueryError
from engines.model.stream import And, Arith, Call, Compare, Expr, Not, Or, TermExpr, Unary, VarExpr
from oracles import OracleLimitation, nterms, values
from oracles.plain_functions import (
    CAST_TARGETS,
    PRECISION_RANK,
    ExpressionError,
    boolean_term,
    cast,
    lang_matches,
    literal,
    numeric_term,
    numeric_value,
    regex,
    to_float32,
)

_EXACT = Context(prec=100_000)  # integer and decimal +, -, * are exact
_DIVISION = Context(prec=28)  # XPath leaves the precision of decimal division to the implementation (>= 18 digits)
RDF_LANG_STRING = nterms.RDF + "langString"


def effective_boolean_value(term: str) -> bool:
    truth = values.effective_boolean_value(term)
    if truth is None:
        raise ExpressionError(f"{term} has no effective boolean value")
    return truth


def _truth_or_error(expr: Expr, binding) -> bool | ExpressionError:
    try:
        return effective_boolean_value(evaluate(expr, binding))
    except ExpressionError as error:
        return error


def _logical(expr: And | Or, binding) -> str:
    deciding = isinstance(expr, Or)  # the value that settles the operator whatever the others are
    results = [_truth_or_error(arg, binding) for arg in expr.args]
    if deciding in results:
        return boolean_term(deciding)
    for result in results:
        if isinstance(result, ExpressionError):
            raise result
    return boolean_term(not deciding)


def _literal_value(term: str) -> values.Value:
    return values.literal_value(term) if term[0] == '"' else values.Value(None)


def compare(op: str, left: str, right: str) -> bool:
    """One of the six comparison operators on two terms (SPARQL 1.1, 17.3)."""
    left_value, right_value = _literal_value(left), _literal_value(right)
    space = left_value.space
    if space is not None and space == right_value.space and (space != values.LANG or op in ("=", "!=")):
        order = values.order(left_value, right_value)
        if order is None:
            raise ExpressionError(f"XSD leaves the order of {left} and {right} indeterminate")
        return {"=": order == 0, "!=": order != 0, "<": order == -1, ">": order == 1, "<=": order in (-1, 0), ">=": order in (0, 1)}[op]
    if op not in ("=", "!="):
        raise ExpressionError(f"{op} is not defined between {left} and {right}")
    if left == right:
        equal = True
    elif left[0] != '"' or right[0] != '"':
        equal = False  # RDFterm-equal: distinct terms, not both literals
    elif values.LANG in (left_value.space, right_value.space):
        equal = False  # LangTagAwareness: a language-tagged literal equals only itself
    elif left_value.space is not None and right_value.space is not None:
        equal = False  # KnownTypesDefault2Neq: valid values of different known types
    else:
        raise ExpressionError(f"cannot tell whether {left} and {right} are equal")
    return equal if op == "=" else not equal


def _floating(number, precision: str) -> float:
    number = float(number)
    return to_float32(number) if precision == "float" else number


def arithmetic(op: str, left: str, right: str) -> str:
    """``+ - * /`` on two numeric terms, by XPath's op:numeric-* after type promotion."""
    a, b = numeric_value(left), numeric_value(right)
    precision = max(a.precision, b.precision, key=PRECISION_RANK.__getitem__)
    if precision in ("integer", "decimal"):
        x, y = a.value, b.value
        if op == "/":
            if y == 0:
                raise ExpressionError("integer or decimal division by zero")
            return numeric_term(_DIVISION.divide(x, y), "decimal")
        result = {"+": _EXACT.add, "-": _EXACT.subtract, "*": _EXACT.multiply}[op](x, y)
        return numeric_term(result, precision)
    x, y = _floating(a.value, precision), _floating(b.value, precision)
    if op == "+":
        result = x + y
    elif op == "-":
        result = x - y
    elif op == "*":
        result = x * y
    elif y != 0:
        result = x / y
    else:  # IEEE 754 division by (signed) zero
        result = math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x) * math.copysign(1, y)
    return numeric_term(_floating(result, precision), precision)


def _unary(op: str, term: str) -> str:
    value = numeric_value(term)
    return numeric_term(-value.value if op == "-" else value.value, value.precision)


def _call(expr: Call, binding) -> str:
    name = expr.name
    if name == "bound":
        (arg,) = expr.args
        if not isinstance(arg, VarExpr):
            raise QueryError("BOUND takes a variable")
        return boolean_term(arg.name in binding)
    args = [evaluate(arg, binding) for arg in expr.args]  # an error in any argument is the call's error
    if name.startswith("<"):
        target = name[1:-1]
        if target not in CAST_TARGETS:
            raise OracleLimitation(f"plain oracle: no cast to {name} (SPARQL 1.1's cast table has only the seven XSD types)")
        return cast(target, args[0])
    parts = [nterms.split(arg) for arg in args]
    kind = parts[0].kind
    if name in ("isiri", "isuri"):
        return boolean_term(kind == "iri")
    if name == "isblank":
        return boolean_term(kind == "bnode")
    if name == "isliteral":
        return boolean_term(kind == "literal")
    if name == "isnumeric":
        return boolean_term(_literal_value(args[0]).space == values.NUMERIC)
    if name == "str":
        if kind == "bnode":
            raise ExpressionError("STR of a blank node")
        return literal(parts[0].value)
    if name in ("lang", "datatype"):
        if kind != "literal":
            raise ExpressionError(f"{name.upper()} of {args[0]}, which is not a literal")
        if name == "lang":
            return literal(parts[0].lang or "")
        if parts[0].lang is not None:
            return f"<{RDF_LANG_STRING}>"
        return f"<{parts[0].datatype or nterms.XSD_STRING}>"
    if name == "sameterm":
        return boolean_term(args[0] == args[1])
    if name == "langmatches":
        return boolean_term(lang_matches(args[0], args[1]))
    if name == "regex":
        return boolean_term(regex(*args))
    raise QueryError(f"plain oracle: unknown function {name}")


def evaluate(expr: Expr, binding: MappingType[str, str]) -> str:
    """The canonical term ``expr`` denotes under ``binding`` (variable -> term); ExpressionError on a SPARQL error."""
    if isinstance(expr, VarExpr):
        if expr.name not in binding:
            raise ExpressionError(f"{expr.name} is unbound")
        return binding[expr.name]
    if isinstance(expr, TermExpr):
        return nterms.canonical(nterms.split(expr.term))
    if isinstance(expr, (And, Or)):
        return _logical(expr, binding)
    if isinstance(expr, Not):
        return boolean_term(not effective_boolean_value(evaluate(expr.arg, binding)))
    if isinstance(expr, Compare):
        return boolean_term(compare(expr.op, evaluate(expr.left, binding), evaluate(expr.right, binding)))
    if isinstance(expr, Arith):
        return arithmetic(expr.op, evaluate(expr.left, binding), evaluate(expr.right, binding))
    if isinstance(expr, Unary):
        return _unary(expr.op, evaluate(expr.arg, binding))
    if isinstance(expr, Call):
        return _call(expr, binding)
    raise QueryError(f"plain oracle: unknown expression {expr!r}")


def filter_holds(expr: Expr, binding: MappingType[str, str]) -> bool:
    """A FILTER keeps a solution when its expression's effective boolean value is true; an error is false."""
    try:
        return effective_boolean_value(evaluate(expr, binding))
    except ExpressionError:
        return False
