"""The rdflib oracle's own evaluation of the SPARQL 1.1 operators where rdflib departs from the specification.

rdflib compares literals of unrelated types by Python ordering (``"x" >= 1`` is true), treats
``!=`` between unknown datatypes as true, cannot read ``24:00:00`` in an xsd:dateTime, compares
xsd:date values it should not, and ignores XSD's rule for timezoned against untimezoned dateTimes.
``relational_expression`` replaces rdflib's evaluation of ``=``, ``!=``, ``<``, ``>``, ``<=``,
``>=`` in the oracle's compiled queries, following SPARQL 1.1 section 17.3 with the literal values
of ``oracles.values`` (independent of ``engines.model.filters``):

- numerics (xsd:integer and its derived types, decimal, float, double) compare by value after type
  promotion; simple literals and xsd:string by code point; xsd:boolean, xsd:dateTime and xsd:date
  by value (an untimezoned time against a timezoned one is decided only beyond ±14 hours, else an
  error); language-tagged literals are equal only when lexical form and tag are;
- otherwise ``=`` is RDFterm-equal: true for the same term, false when one side is not a literal,
  false for two valid values of different known types (the ``KnownTypesDefault2Neq`` reading of the
  W3C tests) and for a language-tagged literal against any other literal, and an error for any
  other pair of distinct literals; ``!=`` is its negation;
- ``<`` and friends on anything else are errors. An error makes the FILTER false.

``regex`` replaces rdflib's REGEX, which ignores the XPath flags ``x`` and ``q``, lets ``.`` match a
carriage return and ``$`` match before a final newline, and accepts non-string arguments.

The effective boolean value (section 17.2.2) is computed here too, for ``&&``, ``||``, ``!`` and
each FILTER (rdflib gives xsd:dateTime and NaN an EBV of true and lets an error beat ``false`` in
``&&``); ``STR`` of a blank node is an error and ``isNumeric`` needs a valid lexical form.
Arithmetic takes valid numerics only (rdflib also subtracts dateTimes, an extension, and crashes on
ill-typed literals), and floating-point division by zero gives INF or NaN instead of an error.
The XSD casts and langMatches are replaced by ``oracles.sparql_casts``.
"""

from __future__ import annotations

import math
import re
from decimal import Context

from rdflib import Literal, Node, URIRef
from rdflib.plugins.sparql import operators
from rdflib.plugins.sparql.sparql import SPARQLError

from oracles import nterms, sparql_casts, values


def _compare(op: str, left: Node, right: Node) -> bool:
    left_term, right_term = nterms.from_rdflib(left), nterms.from_rdflib(right)
    both_literals = isinstance(left, Literal) and isinstance(right, Literal)
    if both_literals:
        left_value, right_value = values.literal_value(left_term), values.literal_value(right_term)
        if left_value.space is not None and left_value.space == right_value.space and (left_value.space != values.LANG or op in ("=", "!=")):
            order = values.order(left_value, right_value)
            if order is None:
                raise SPARQLError(f"indeterminate order between {left_term} and {right_term}")
            return {"=": order == 0, "!=": order != 0, "<": order == -1, ">": order == 1, "<=": order in (-1, 0), ">=": order in (0, 1)}[op]
    if op not in ("=", "!="):
        raise SPARQLError(f"{op} is not defined between {left_term} and {right_term}")
    if left_term == right_term:
        equal = True
    elif not both_literals:
        equal = False
    elif values.LANG in (left_value.space, right_value.space):
        equal = False  # rdf:langString values are disjoint from every other literal's
    elif left_value.space is not None and right_value.space is not None:
        equal = False  # valid values of different known types
    else:
        raise SPARQLError(f"cannot tell whether {left_term} and {right_term} are equal")
    return equal if op == "=" else not equal


def relational_expression(e, ctx) -> Literal:
    """rdflib evalfn for RelationalExpression nodes: SPARQL 1.1 comparison with the oracle's own literal values."""
    left = e.expr
    right = e.other
    if right is None:  # rdflib's precedence handling: a lone operand passes through
        return left
    if e.op not in ("=", "!=", "<", ">", "<=", ">="):
        raise SPARQLError(f"operator {e.op} is outside the continuous subset")
    if not isinstance(left, Node) or not isinstance(right, Node):
        raise SPARQLError("comparison of an unbound or erroneous operand")
    return Literal(_compare(e.op, left, right))


def _string_argument(node, what: str, allow_language: bool) -> str:
    """The lexical form of a string literal argument (simple, xsd:string, or language-tagged when allowed)."""
    if not isinstance(node, Literal):
        raise SPARQLError(f"REGEX {what} must be a string literal, got {node!r}")
    if node.language is not None and not allow_language:
        raise SPARQLError(f"REGEX {what} must not be language-tagged")
    if node.language is None and node.datatype is not None and str(node.datatype) != nterms.XSD_STRING:
        raise SPARQLError(f"REGEX {what} must be a string literal, got {node!r}")
    return str(node)


def xpath_regex(pattern: str, flags: str) -> re.Pattern:
    """A Python regex with the meaning of an XPath ``fn:matches`` pattern and flags (s, m, i, x, q)."""
    if set(flags) - set("smixq"):
        raise SPARQLError(f"unknown REGEX flags {flags!r}")
    options = re.IGNORECASE if "i" in flags else 0
    if "q" in flags:
        return re.compile(re.escape(pattern), options)
    dot_all, multiline, spaces_removed = "s" in flags, "m" in flags, "x" in flags
    translated, in_class, index = [], False, 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\":
            translated.append(pattern[index : index + 2])
            index += 2
            continue
        if in_class:
            in_class = char != "]"
            translated.append(char)
        elif spaces_removed and char in " \t\n\r":
            pass  # XPath 'x': whitespace outside character classes is not part of the pattern
        elif char == "[":
            in_class = True
            translated.append(char)
        elif char == "." and not dot_all:
            translated.append("[^\\n\\r]")  # XPath '.' excludes carriage return too
        elif char == "$" and not multiline:
            translated.append(r"\Z")  # XPath '$' is the end of the string, not before a final newline
        else:
            translated.append(char)
        index += 1
    try:
        return re.compile("".join(translated), options | (re.DOTALL if dot_all else 0) | (re.MULTILINE if multiline else 0))
    except re.error as error:
        raise SPARQLError(f"invalid REGEX pattern {pattern!r}: {error}") from None


def regex(e, ctx) -> Literal:
    """rdflib evalfn for REGEX: XPath flags (x and q included) and SPARQL's argument types."""
    text = _string_argument(e.text, "text", allow_language=True)
    pattern = _string_argument(e.pattern, "pattern", allow_language=False)
    flags = _string_argument(e.flags, "flags", allow_language=False) if "flags" in e else ""
    return Literal(xpath_regex(pattern, flags).search(text) is not None)


def effective_boolean_value(node) -> bool:
    """The EBV of an rdflib value, or the SPARQLError it is (or raises)."""
    if isinstance(node, SPARQLError):
        raise node
    result = values.effective_boolean_value(nterms.from_rdflib(node)) if isinstance(node, (Literal, URIRef)) else None
    if result is None:
        raise SPARQLError(f"no effective boolean value for {node!r}")
    return result


def _ebv_or_error(node) -> bool | SPARQLError:
    try:
        return effective_boolean_value(node)
    except SPARQLError as error:
        return error


def conditional_and(e, ctx) -> Literal:
    """``&&``: false wins over an error, an error over true."""
    if e.other is None:
        return e.expr
    values = [_ebv_or_error(x) for x in [e.expr, *e.other]]
    if any(v is False for v in values):
        return Literal(False)
    for v in values:
        if isinstance(v, SPARQLError):
            raise v
    return Literal(True)


def conditional_or(e, ctx) -> Literal:
    """``||``: true wins over an error, an error over false."""
    if e.other is None:
        return e.expr
    values = [_ebv_or_error(x) for x in [e.expr, *e.other]]
    if any(v is True for v in values):
        return Literal(True)
    for v in values:
        if isinstance(v, SPARQLError):
            raise v
    return Literal(False)


def unary_not(e, ctx) -> Literal:
    return Literal(not effective_boolean_value(e.expr))


def filter_value(e, ctx) -> Literal:
    """Wraps a FILTER's expression so its EBV is computed here, not by rdflib's ``_ebv``."""
    return Literal(effective_boolean_value(e.arg))


def builtin_str(e, ctx) -> Literal:
    """STR of an IRI or a literal; of a blank node it is an error (rdflib returns the label)."""
    arg = e.arg
    if isinstance(arg, SPARQLError):
        raise arg
    if not isinstance(arg, (Literal, URIRef)):
        raise SPARQLError(f"STR of {arg!r}")
    return Literal(str(arg))


def builtin_is_numeric(e, ctx) -> Literal:
    """isNumeric: a numeric datatype and a valid lexical form (rdflib accepts "abc"^^xsd:integer)."""
    arg = e.arg
    if isinstance(arg, SPARQLError):
        raise arg
    return Literal(isinstance(arg, Literal) and values.literal_value(nterms.from_rdflib(arg)).space == values.NUMERIC)


def _numeric_operand(node) -> values.Value:
    if isinstance(node, SPARQLError):
        raise node
    value = values.literal_value(nterms.from_rdflib(node)) if isinstance(node, Literal) else values.Value(None)
    if value.space != values.NUMERIC:
        raise SPARQLError(f"arithmetic on a non-numeric operand {node!r}")
    return value


def _checked_arithmetic(rdflib_function):
    """rdflib's arithmetic, restricted to valid numerics (rdflib also adds dates, and crashes on "abc"^^xsd:integer)."""

    def evaluate(e, ctx):
        if e.name in ("AdditiveExpression", "MultiplicativeExpression"):
            if e.other is None:  # rdflib's precedence handling: a lone operand passes through
                return e.expr
            operands = [e.expr, *e.other]
            ops = list(e.op)
        else:
            operands = [e.expr]
            ops = ["-" if e.name == "UnaryMinus" else "+"]
        numbers = [_numeric_operand(operand) for operand in operands]
        if any(isinstance(v.value, float) for v in numbers):
            return _floating_arithmetic(numbers, ops)
        try:
            return rdflib_function(e, ctx)
        except SPARQLError:
            raise
        except Exception as error:  # rdflib raises ZeroDivisionError, decimal errors, RecursionError...
            raise SPARQLError(f"arithmetic error: {type(error).__name__}") from None

    return evaluate


_RANK = {"integer": 0, "decimal": 1, "float": 2, "double": 3}
_EXACT = Context(prec=100_000)  # integer and decimal +, -, * lose no digit
_DIVISION = Context(prec=28)  # XPath leaves decimal division's precision to the implementation (at least 18 digits)


def _ieee(op: str, left: float, right: float) -> float:
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op == "*":
        return left * right
    if right != 0:
        return left / right
    return math.nan if left == 0 or math.isnan(left) else math.copysign(math.inf, left) * math.copysign(1, right)


def _floating_arithmetic(operands: list[values.Value], ops: list[str]) -> Literal:
    """XPath arithmetic, left to right with type promotion at each step, when a float or double takes part.

    rdflib computes xsd:float in double precision, writes infinities as ``inf`` (no valid lexical
    form, so ``INF + INF`` is an error) and raises on division by zero instead of giving ±INF or NaN.
    """
    if len(operands) == 1:  # unary minus or plus
        number = -operands[0].value if ops[0] == "-" else operands[0].value
        return Literal(values.floating_string(number, operands[0].precision), datatype=URIRef(nterms.XSD + operands[0].precision))
    result, precision = operands[0].value, operands[0].precision
    for op, operand in zip(ops, operands[1:]):
        precision = max(precision, operand.precision, key=_RANK.__getitem__)
        if precision in ("integer", "decimal"):  # exact, as XPath's op:numeric-* on integers and decimals
            if op == "/":
                if operand.value == 0:
                    raise SPARQLError("integer or decimal division by zero")
                precision = "decimal"
            result = {"+": _EXACT.add, "-": _EXACT.subtract, "*": _EXACT.multiply, "/": _DIVISION.divide}[op](result, operand.value)
            continue
        rounded = values.to_float32 if precision == "float" else float
        result = rounded(_ieee(op, rounded(float(result)), rounded(float(operand.value))))
    if precision in ("integer", "decimal"):
        return Literal(values.decimal_string(result), datatype=URIRef(nterms.XSD + precision))
    return Literal(values.floating_string(result, precision), datatype=URIRef(nterms.XSD + precision))


_ARGUMENT_KEYS = ("arg", "arg1", "arg2", "text", "pattern", "flags")


def strict_arguments(evalfn):
    """A builtin whose argument is an error is an error (rdflib's isLiteral(error) is false, so !isLiteral(...) is true)."""

    def evaluate(e, ctx):
        for key in _ARGUMENT_KEYS:
            if key in e:
                value = getattr(e, key)
                if isinstance(value, SPARQLError):
                    raise value
        return evalfn(e, ctx)

    return evaluate


EVAL_OVERRIDES = {
    "RelationalExpression": relational_expression,
    "Builtin_REGEX": regex,
    "ConditionalAndExpression": conditional_and,
    "ConditionalOrExpression": conditional_or,
    "UnaryNot": unary_not,
    "Builtin_STR": builtin_str,
    "Builtin_isNUMERIC": builtin_is_numeric,
    "AdditiveExpression": _checked_arithmetic(operators.AdditiveExpression),
    "MultiplicativeExpression": _checked_arithmetic(operators.MultiplicativeExpression),
    "UnaryMinus": _checked_arithmetic(operators.UnaryMinus),
    "UnaryPlus": _checked_arithmetic(operators.UnaryPlus),
    **sparql_casts.EVAL_OVERRIDES,
}
