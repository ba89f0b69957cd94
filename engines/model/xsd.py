"""XSD lexical spaces: a lexical form reads as its value or is invalid, and a computed value prints in canonical form.

Values are Python numbers: ``int`` for xsd:integer and its derived types (with their bounds),
``Decimal`` for xsd:decimal, ``float`` for xsd:double and, rounded to single precision, for
xsd:float; ``bool``; and for xsd:dateTime the pair (seconds since 1970-01-01T00:00:00 as int or
Decimal, has timezone). Lexical forms are checked exactly, without the leniency of Python's
``int()`` or ``float()`` (no whitespace, underscores, non-ASCII digits, ``inf`` or ``nan``).
Canonical forms are XSD 1.1's: ``1`` for the decimal one, ``1.0E0`` for the double one.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal

XSD = "http://www.w3.org/2001/XMLSchema#"

INTEGER, DECIMAL, FLOAT, DOUBLE = range(4)
"""Numeric ranks, in SPARQL's promotion order."""

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

INTEGER_RE = re.compile(r"[+-]?[0-9]+")
DECIMAL_RE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
FLOAT_RE = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|INF)|NaN")
BOOLEAN_LEXICAL = {"true": True, "1": True, "false": False, "0": False}
DATETIME_RE = re.compile(
    r"(-?(?:[1-9][0-9]{3,}|0[0-9]{3}))-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
    r"T([01][0-9]|2[0-4]):([0-5][0-9]):([0-5][0-9](?:\.[0-9]+)?)"
    r"(Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
)


def to_single(number: float) -> float:
    """Round a double to the nearest IEEE single, overflowing to an infinity."""
    try:
        return struct.unpack("f", struct.pack("f", number))[0]
    except OverflowError:
        return math.inf if number > 0 else -math.inf


def to_double(number) -> float:
    try:
        return float(number)
    except OverflowError:  # an int beyond the double range
        return math.inf if number > 0 else -math.inf


def parse_integer(lexical: str, bounds: tuple[int | None, int | None] = (None, None)) -> int | None:
    if INTEGER_RE.fullmatch(lexical) is None:
        return None
    # Python refuses int() of more than 4300 digits (a denial-of-service guard); Decimal has no such limit.
    number = int(lexical) if len(lexical) < 4000 else int(Decimal(lexical))
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


DATE_RE = re.compile(
    r"(-?(?:[1-9][0-9]{3,}|0[0-9]{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01]))"
    r"(Z|[+-](?:(?:0[0-9]|1[0-3]):[0-5][0-9]|14:00))?"
)


def parse_date(lexical: str) -> tuple[int | Decimal, bool] | None:
    """An xsd:date as the instant of its midnight (XSD compares dates as dateTimes starting the day)."""
    match = DATE_RE.fullmatch(lexical)
    if match is None:
        return None
    return parse_datetime(f"{match.group(1)}T00:00:00{match.group(2) or ''}")


_STR_DIGITS_BOUND = 10**3999  # below Python's 4300-digit limit on str(int)


def integer_lexical(number: int) -> str:
    return str(number) if -_STR_DIGITS_BOUND < number < _STR_DIGITS_BOUND else format(Decimal(number), "f")


def decimal_lexical(number: Decimal) -> str:
    """XSD 1.1 canonical decimal: no exponent, no trailing zeros, integers without a point."""
    text = format(number, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


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
