"""A term's typed value is read from its kept lexical form once, cached, and compared by SPARQL 1.1 operator rules.

``term_value(term)`` gives a ``Value``: its kind (IRI, blank node, string, language-tagged string,
numeric, boolean, dateTime, ill-typed literal, literal of another datatype) and, where the kind has
one, its value: ``int`` for xsd:integer and its derived types, ``Decimal`` for xsd:decimal,
``float`` for xsd:double and for xsd:float (rounded to single precision), ``bool``, and for
xsd:dateTime the pair (seconds since 1970-01-01T00:00:00, has timezone). A literal of a checked
datatype whose lexical form is not valid (``"abc"^^xsd:integer``, ``"300"^^xsd:byte``) is a valid
term without a value: comparing it is an error, except that it equals itself as a term.

Operators raise ``ExprError`` for what SPARQL calls an error; the FILTER layer turns it into false.
Values made by operators (arithmetic, casts) build their canonical term on demand.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, InvalidOperation
from functools import lru_cache

from engines.terms import RDF, XSD, literal, literal_parts


class ExprError(Exception):
    """A SPARQL expression error (type error, unbound variable, division by zero): the FILTER is false."""


IRI, BNODE, STRING, LANG, NUMERIC, BOOLEAN, DATETIME, ILL_TYPED, OTHER = range(9)
"""Kinds; every kind from STRING on is a literal."""

INTEGER, DECIMAL, FLOAT, DOUBLE = range(4)
"""Numeric ranks, in SPARQL's promotion order."""

XSD_STRING = XSD + "string"
XSD_BOOLEAN = XSD + "boolean"
XSD_DATETIME = XSD + "dateTime"
RDF_LANGSTRING = RDF + "langString"
RANK_DATATYPES = (XSD + "integer", XSD + "decimal", XSD + "float", XSD + "double")

# xsd:integer and the types derived from it, with their value bounds (None: unbounded).
INTEGER_TYPES: dict[str, tuple[int | None, int | None]] = {
    XSD + "integer": (None, None),
    XSD + "nonPositiveInteger": (None, 0),
    XSD + "negativeInteger": (None, -1),
    XSD + "long": (-(2**63), 2**63 - 1),
    XSD + "int": (-(2**31), 2**31 - 1),
    XSD + "short": (-(2**15), 2**15 - 1),
    XSD + "byte": (-(2**7), 2**7 - 1),
    XSD + "nonNegativeInteger": (0, None),
    XSD + "unsignedLong": (0, 2**64 - 1),
    XSD + "unsignedInt": (0, 2**32 - 1),
    XSD + "unsignedShort": (0, 2**16 - 1),
    XSD + "unsignedByte": (0, 2**8 - 1),
    XSD + "positiveInteger": (1, None),
}
NUMERIC_TYPES = frozenset(INTEGER_TYPES) | frozenset(RANK_DATATYPES)

# Exact + - * on decimals; division keeps 28 significant digits (XPath leaves it to the implementation).
EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[InvalidOperation])
DIVISION = Context(prec=28, traps=[InvalidOperation])

INTEGER_RE = re.compile(r"[+-]?[0-9]+")
DECIMAL_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
FLOAT_RE = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF)|NaN")
BOOLEAN_LEXICAL = {"true": True, "1": True, "false": False, "0": False}
DATETIME_RE = re.compile(
    r"(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"T([01][0-9]|2[0-4]):([0-5][0-9]):([0-5][0-9](?:\.[0-9]+)?)"
    r"(Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
)


class Value:
    """The typed value of one term; ``term`` is the canonical term, built on demand for computed values."""

    __slots__ = ("kind", "value", "datatype", "rank", "lang", "_term")

    def __init__(self, kind: int, value, datatype: str | None = None, rank: int = -1,
                 lang: str | None = None, term: str | None = None) -> None:
        self.kind = kind
        self.value = value
        self.datatype = datatype
        self.rank = rank
        self.lang = lang
        self._term = term

    @property
    def term(self) -> str:
        if self._term is None:
            self._term = _canonical_term(self)
        return self._term

    def __repr__(self) -> str:
        return f"Value({self.term})"


def numeric(number, rank: int) -> Value:
    return Value(NUMERIC, number, RANK_DATATYPES[rank], rank)


def boolean(flag: bool) -> Value:
    return TRUE if flag else FALSE


def string(text: str) -> Value:
    return Value(STRING, text, XSD_STRING)


TRUE = Value(BOOLEAN, True, XSD_BOOLEAN, term=literal("true", XSD_BOOLEAN))
FALSE = Value(BOOLEAN, False, XSD_BOOLEAN, term=literal("false", XSD_BOOLEAN))


# ---------------------------------------------------------------- reading terms


def to_single(number: float) -> float:
    """Round a double to the nearest IEEE single, overflowing to an infinity."""
    try:
        return struct.unpack("f", struct.pack("f", number))[0]
    except OverflowError:
        return math.copysign(math.inf, number)


def to_double(number) -> float:
    try:
        return float(number)
    except OverflowError:  # an int beyond the double range
        return math.copysign(math.inf, number)


def parse_integer(lexical: str, bounds: tuple[int | None, int | None] = (None, None)) -> int | None:
    if INTEGER_RE.fullmatch(lexical) is None:
        return None
    try:
        number = int(lexical)
    except ValueError:  # more digits than Python converts by default
        return None
    low, high = bounds
    if (low is not None and number < low) or (high is not None and number > high):
        return None
    return number


def parse_decimal(lexical: str) -> Decimal | None:
    return Decimal(lexical) if DECIMAL_RE.fullmatch(lexical) else None


def parse_float(lexical: str, rank: int) -> float | None:
    if FLOAT_RE.fullmatch(lexical) is None:
        return None
    number = float(lexical)
    return to_single(number) if rank == FLOAT else number


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (year 0 is 1 BCE, as in XSD 1.1)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def _days_in_month(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def parse_datetime(lexical: str) -> tuple[int | Decimal, bool] | None:
    match = DATETIME_RE.fullmatch(lexical)
    if match is None:
        return None
    year, month, day, hour, minute = (int(group) for group in match.groups()[:5])
    seconds_text, zone = match.group(6), match.group(7)
    seconds = Decimal(seconds_text) if "." in seconds_text else int(seconds_text)
    if day > _days_in_month(year, month) or (hour == 24 and (minute or seconds)):
        return None
    instant = _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + seconds
    if zone and zone != "Z":
        offset = int(zone[1:3]) * 3600 + int(zone[4:6]) * 60
        instant -= offset if zone[0] == "+" else -offset
    return instant, zone is not None


def _typed_value(lexical: str, datatype: str):
    """``(kind, rank, value)`` of a literal of a checked datatype, or None when the datatype is not checked."""
    if datatype in INTEGER_TYPES:
        number = parse_integer(lexical, INTEGER_TYPES[datatype])
        return NUMERIC, INTEGER, number
    if datatype == RANK_DATATYPES[DECIMAL]:
        return NUMERIC, DECIMAL, parse_decimal(lexical)
    if datatype == RANK_DATATYPES[DOUBLE]:
        return NUMERIC, DOUBLE, parse_float(lexical, DOUBLE)
    if datatype == RANK_DATATYPES[FLOAT]:
        return NUMERIC, FLOAT, parse_float(lexical, FLOAT)
    if datatype == XSD_BOOLEAN:
        return BOOLEAN, -1, BOOLEAN_LEXICAL.get(lexical)
    if datatype == XSD_DATETIME:
        return DATETIME, -1, parse_datetime(lexical)
    return None


@lru_cache(maxsize=1 << 17)
def term_value(term: str) -> Value:
    """The typed value of a canonical term."""
    first = term[0]
    if first == "<":
        return Value(IRI, term[1:-1], term=term)
    if first == "_":
        return Value(BNODE, term, term=term)
    lexical, datatype, lang = literal_parts(term)
    if lang is not None:
        return Value(LANG, lexical, RDF_LANGSTRING, lang=lang, term=term)
    if datatype is None or datatype == XSD_STRING:
        return Value(STRING, lexical, XSD_STRING, term=term)
    typed = _typed_value(lexical, datatype)
    if typed is None:
        return Value(OTHER, lexical, datatype, term=term)
    kind, rank, value = typed
    if value is None:
        return Value(ILL_TYPED, lexical, datatype, term=term)
    return Value(kind, value, datatype, rank, term=term)


# ---------------------------------------------------------------- canonical lexical forms


def decimal_lexical(number: Decimal) -> str:
    """XSD 1.1 canonical decimal: no exponent, no trailing zeros, integers without a point."""
    if number == number.to_integral_value():
        return str(int(number))
    return format(number, "f").rstrip("0")


def shortest_decimal(number: float, rank: int) -> Decimal:
    """The shortest decimal that reads back as ``number`` in its precision (finite numbers only)."""
    if rank == DOUBLE:
        return Decimal(repr(number))
    for digits in range(1, 10):
        text = f"{number:.{digits - 1}e}"
        if to_single(float(text)) == number:
            return Decimal(text)
    return Decimal(repr(number))


def float_lexical(number: float, rank: int) -> str:
    """XSD canonical float/double: one digit before the point, at least one after, then E and the exponent."""
    if number != number:
        return "NaN"
    if math.isinf(number):
        return "INF" if number > 0 else "-INF"
    sign, digit_tuple, exponent = shortest_decimal(number, rank).as_tuple()
    all_digits = "".join(map(str, digit_tuple))
    digits = all_digits.rstrip("0")
    minus = "-" if sign else ""
    if not digits:
        return f"{minus}0.0E0"
    power = exponent + len(all_digits) - 1
    return f"{minus}{digits[0]}.{digits[1:] or '0'}E{power}"


def numeric_lexical(value: Value) -> str:
    if value.rank == INTEGER:
        return str(value.value)
    if value.rank == DECIMAL:
        return decimal_lexical(value.value)
    return float_lexical(value.value, value.rank)


def _canonical_term(value: Value) -> str:
    kind = value.kind
    if kind == NUMERIC:
        return literal(numeric_lexical(value), value.datatype)
    if kind == STRING:
        return literal(value.value)
    if kind == IRI:
        return f"<{value.value}>"
    if kind == BOOLEAN:
        return literal("true" if value.value else "false", XSD_BOOLEAN)
    raise AssertionError(f"a value of kind {kind} is always read from a term")


def lexical_form(value: Value) -> str:
    if value.kind == STRING or value.kind == LANG:
        return value.value
    return literal_parts(value.term)[0]


# ---------------------------------------------------------------- operators


def _promote(number, from_rank: int, to_rank: int):
    if from_rank == to_rank:
        return number
    if to_rank == DECIMAL:
        return Decimal(number)
    if to_rank == DOUBLE:
        return to_double(number)
    return to_single(to_double(number))


def _datetime_pair(left: Value, right: Value) -> tuple:
    """Comparable stand-ins for two dateTimes, by the XSD partial order when one lacks a timezone."""
    (left_instant, left_zoned), (right_instant, right_zoned) = left.value, right.value
    if left_zoned == right_zoned:
        return left_instant, right_instant
    # The unzoned one could be at any offset from -14:00 to +14:00: decide only outside that span.
    margin = 14 * 3600
    if left_zoned:
        if left_instant < right_instant - margin:
            return 0, 1
        if left_instant > right_instant + margin:
            return 1, 0
    else:
        if left_instant + margin < right_instant:
            return 0, 1
        if left_instant - margin > right_instant:
            return 1, 0
    raise ExprError("dateTimes with and without a timezone too close to order")


def order_pair(left: Value, right: Value) -> tuple:
    """Two Python objects that compare as ``left`` and ``right`` do under SPARQL's ``<``; error if unordered."""
    kind = left.kind
    if kind == right.kind:
        if kind == NUMERIC:
            rank = left.rank if left.rank >= right.rank else right.rank
            return _promote(left.value, left.rank, rank), _promote(right.value, right.rank, rank)
        if kind == STRING or kind == BOOLEAN:
            return left.value, right.value
        if kind == DATETIME:
            return _datetime_pair(left, right)
    raise ExprError("operands cannot be ordered")


def equal(left: Value, right: Value) -> bool:
    """SPARQL ``=``: by value for numerics, strings, booleans, dateTimes; otherwise RDFterm-equal."""
    kind = left.kind
    if kind == right.kind:
        if kind == NUMERIC:
            if left.rank == right.rank:
                return left.value == right.value
            first, second = order_pair(left, right)
            return first == second
        if kind <= LANG or kind == BOOLEAN:
            return left.value == right.value and left.lang == right.lang
        if kind == DATETIME:
            first, second = _datetime_pair(left, right)
            return first == second
    if left.term == right.term:
        return True
    if left.kind >= STRING and right.kind >= STRING:
        raise ExprError("literals of incompatible or unknown datatypes")
    return False


def effective_boolean(value: Value) -> bool:
    kind = value.kind
    if kind == BOOLEAN:
        return value.value
    if kind == NUMERIC:
        number = value.value
        return number == number and number != 0
    if kind == STRING or kind == LANG:
        return len(value.value) > 0
    if kind == ILL_TYPED and (value.datatype == XSD_BOOLEAN or value.datatype in NUMERIC_TYPES):
        return False
    raise ExprError("no effective boolean value")


def _float_divide(dividend: float, divisor: float) -> float:
    if divisor != 0:
        return dividend / divisor
    if dividend != dividend or dividend == 0:
        return math.nan
    return math.copysign(math.inf, dividend) * math.copysign(1.0, divisor)


def arithmetic(op: str, left: Value, right: Value) -> Value:
    if left.kind != NUMERIC or right.kind != NUMERIC:
        raise ExprError(f"{op} needs numeric operands")
    rank = left.rank if left.rank >= right.rank else right.rank
    if op == "/" and rank == INTEGER:
        rank = DECIMAL
    first, second = _promote(left.value, left.rank, rank), _promote(right.value, right.rank, rank)
    if rank == INTEGER:
        result = first + second if op == "+" else first - second if op == "-" else first * second
    elif rank == DECIMAL:
        if op == "/":
            if second == 0:
                raise ExprError("decimal division by zero")
            result = DIVISION.divide(first, second)
        else:
            result = EXACT.add(first, second) if op == "+" else EXACT.subtract(first, second) if op == "-" \
                else EXACT.multiply(first, second)
    else:
        result = first + second if op == "+" else first - second if op == "-" \
            else first * second if op == "*" else _float_divide(first, second)
        if rank == FLOAT:
            result = to_single(result)
    return numeric(result, rank)


def negate(value: Value) -> Value:
    if value.kind != NUMERIC:
        raise ExprError("unary minus needs a numeric operand")
    number = value.value
    return numeric(EXACT.minus(number) if value.rank == DECIMAL else -number, value.rank)


def plus(value: Value) -> Value:
    if value.kind != NUMERIC:
        raise ExprError("unary plus needs a numeric operand")
    return numeric(value.value, value.rank)
