"""Values of RDF literals in the XSD value spaces SPARQL 1.1 operators know, read from canonical terms by the oracle itself.

``literal_value`` reads a canonical literal into a ``Value``: numeric (xsd:integer and its derived
types with their ranges, decimal, float rounded to 32 bits, double), string (simple literals and
xsd:string), langString, boolean, dateTime (``24:00:00`` is midnight of the next day) or date (the
first instant of its day); anything else, including an invalid lexical form, has no space.
``order`` compares two values of one space, with XSD's rule for a timezoned value against an
untimezoned one (decided only beyond ±14 hours). ``effective_boolean_value`` is SPARQL 1.1, 17.2.2.
``decimal_string`` and ``floating_string`` write a numeric value as XPath's ``fn:string`` does (the
cast to xsd:string, F&O 17.1.2), for the oracles' casts and computed results.
Nothing here comes from ``engines.model.terms`` or ``engines.model.filters``: a bug there cannot hide itself.
"""

from __future__ import annotations

import math
import re
import struct
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation

from oracles import nterms

X = nterms.XSD
_INTEGER_RANGES = {
    "integer": (None, None), "nonPositiveInteger": (None, 0), "negativeInteger": (None, -1),
    "long": (-(2**63), 2**63 - 1), "int": (-(2**31), 2**31 - 1), "short": (-(2**15), 2**15 - 1),
    "byte": (-128, 127), "nonNegativeInteger": (0, None), "unsignedLong": (0, 2**64 - 1),
    "unsignedInt": (0, 2**32 - 1), "unsignedShort": (0, 2**16 - 1), "unsignedByte": (0, 255),
    "positiveInteger": (1, None),
}
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_FLOATING = re.compile(r"(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NaN)")
_DATETIME = re.compile(r"(-?\d{4,})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?")
_FOURTEEN_HOURS = timedelta(hours=14)

NUMERIC, STRING, BOOLEAN, DATETIME, DATE, LANG = "numeric", "string", "boolean", "dateTime", "date", "langString"
_DATE = re.compile(r"(-?\d{4,})-(\d\d)-(\d\d)(Z|[+-]\d\d:\d\d)?")


class Value:
    """A literal's value in one of the known value spaces (``space`` None: no value the operators know)."""

    __slots__ = ("space", "value", "precision", "has_timezone")

    def __init__(self, space, value=None, precision=None, has_timezone=False):
        self.space, self.value, self.precision, self.has_timezone = space, value, precision, has_timezone


def _numeric(lexical: str, local: str) -> Value:
    text = lexical.strip()
    if local in _INTEGER_RANGES:
        if not _INTEGER.fullmatch(text):
            return Value(None)
        number = int(text)
        low, high = _INTEGER_RANGES[local]
        if (low is not None and number < low) or (high is not None and number > high):
            return Value(None)
        return Value(NUMERIC, Decimal(number), "integer")
    if local == "decimal":
        return Value(NUMERIC, Decimal(text), "decimal") if _DECIMAL.fullmatch(text) else Value(None)
    if not _FLOATING.fullmatch(text):
        return Value(None)
    number = float(text.replace("INF", "inf"))
    if local == "float" and math.isfinite(number):
        number = struct.unpack("f", struct.pack("f", number))[0] if abs(number) < 3.5e38 else math.copysign(math.inf, number)
    return Value(NUMERIC, number, local)


def _datetime(lexical: str) -> Value:
    match = _DATETIME.fullmatch(lexical.strip())
    if match is None:
        return Value(None)
    year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
    fraction, zone = match.group(7), match.group(8)
    extra_day = hour == 24
    if extra_day:
        if minute or second or (fraction and Decimal(fraction) != 0):
            return Value(None)
        hour = 0
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        return Value(None)
    moment += timedelta(days=1) if extra_day else timedelta()
    if zone and zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        moment -= sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))
    seconds = Decimal(int(moment.timestamp())) + (Decimal(fraction) if fraction else Decimal(0))
    return Value(DATETIME, seconds, has_timezone=zone is not None)


def _date(lexical: str) -> Value:
    """An xsd:date compares as the first instant of its day (XSD 1.1, 3.3.9)."""
    match = _DATE.fullmatch(lexical.strip())
    if match is None:
        return Value(None)
    moment = _datetime(f"{match.group(1)}-{match.group(2)}-{match.group(3)}T00:00:00{match.group(4) or ''}")
    return Value(DATE, moment.value, has_timezone=moment.has_timezone) if moment.space else Value(None)


def literal_value(term: str) -> Value:
    """The value of a canonical literal in a known value space, or a value of space None."""
    parts = nterms.split(term)
    if parts.lang is not None:
        return Value(LANG, (parts.value, parts.lang))
    if parts.datatype is None:
        return Value(STRING, parts.value)
    if not parts.datatype.startswith(X):
        return Value(None)
    local = parts.datatype[len(X):]
    if local in _INTEGER_RANGES or local in ("decimal", "float", "double"):
        try:
            return _numeric(parts.value, local)
        except InvalidOperation:
            return Value(None)
    if local == "boolean":
        text = parts.value.strip()
        return Value(BOOLEAN, text in ("true", "1")) if text in ("true", "false", "1", "0") else Value(None)
    if local == "dateTime":
        return _datetime(parts.value)
    if local == "date":
        return _date(parts.value)
    return Value(None)


def order(left: Value, right: Value) -> int | None:
    """-1, 0 or 1 comparing two values of one space, 2 when unordered (NaN); None when XSD leaves it indeterminate."""
    a, b = left.value, right.value
    if left.space == NUMERIC:
        if isinstance(a, float) or isinstance(b, float):
            a, b = float(a), float(b)
            if math.isnan(a) or math.isnan(b):
                return 2  # unordered: every comparison false, no error
    if left.space == LANG:
        return 0 if a == b else 1  # only = and != reach here
    if left.space in (DATETIME, DATE) and left.has_timezone != right.has_timezone:
        shift = Decimal(_FOURTEEN_HOURS.total_seconds())
        naive, aware, sign = (a, b, 1) if not left.has_timezone else (b, a, -1)
        if aware < naive - shift:
            return sign * 1
        if aware > naive + shift:
            return sign * -1
        return None
    return (a > b) - (a < b)


def effective_boolean_value(term: str) -> bool | None:
    """SPARQL 1.1, 17.2.2, for a canonical term: booleans, strings (language-tagged too) and numerics; None: an error."""
    if term[0] != '"':
        return None
    value = literal_value(term)
    if value.space == BOOLEAN:
        return value.value
    if value.space == STRING:
        return len(value.value) > 0
    if value.space == LANG:
        return len(value.value[0]) > 0
    if value.space == NUMERIC:
        return not (value.value != value.value or value.value == 0)  # NaN or zero is false
    datatype = nterms.split(term).datatype or ""
    local = datatype[len(X):] if datatype.startswith(X) else None
    if local == "boolean" or local in _INTEGER_RANGES or local in ("decimal", "float", "double"):
        return False  # a boolean or numeric literal with an invalid lexical form
    return None


# ---------------------------------------------------------------- XPath's string of a numeric value


def to_float32(number: float) -> float:
    """The IEEE single-precision value nearest to ``number`` (overflow gives an infinity)."""
    if not math.isfinite(number):
        return number
    try:
        return struct.unpack("f", struct.pack("f", number))[0]
    except OverflowError:
        return math.copysign(math.inf, number)


def _shortest_digits(number: float, precision: str) -> str:
    """The shortest decimal string that reads back as ``number`` in its precision."""
    if precision != "float":
        return repr(number)
    for digits in range(1, 18):
        text = f"{number:.{digits}g}"
        if to_float32(float(text)) == number:
            return text
    return repr(number)


def decimal_string(number: Decimal) -> str:
    """XPath's string of an xs:decimal: no exponent, no trailing zeros, no point for an integral value."""
    if number == number.to_integral_value():
        return str(int(number))
    text = format(number, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def floating_string(number: float, precision: str) -> str:
    """XPath's string of an xs:float or xs:double (F&O 17.1.2)."""
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "INF" if number > 0 else "-INF"
    if number == 0:
        return "-0" if math.copysign(1, number) < 0 else "0"
    shortest = Decimal(_shortest_digits(number, precision))
    if Decimal("0.000001") <= abs(shortest) < Decimal(1000000):
        return decimal_string(shortest)
    sign, digits, exponent = shortest.normalize().as_tuple()
    mantissa = "".join(map(str, digits))
    scientific_exponent = exponent + len(mantissa) - 1
    return f"{'-' if sign else ''}{mantissa[0]}.{mantissa[1:] or '0'}E{scientific_exponent}"
