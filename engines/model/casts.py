"""XSD casts follow the SPARQL 1.1 cast table (section 17.5): a cast gives a value of the target type or an error.

Sources are IRIs (to xsd:string only), simple literals and xsd:strings (by the target's lexical
rules, after XSD whitespace collapsing), numerics, booleans and dateTimes. Blank nodes,
language-tagged literals, ill-typed literals and literals of other datatypes cannot be cast.
Numbers cast to strings as XPath does: ``xsd:string(1.0e0)`` is ``"1"``, ``xsd:string(1e20)``
is ``"1.0E20"``.
"""

from __future__ import annotations

import math
from decimal import Decimal

from engines.model.terms import literal
from engines.model.values import (
    BOOLEAN,
    DATETIME,
    IRI,
    NUMERIC,
    STRING,
    XSD_BOOLEAN,
    XSD_DATETIME,
    XSD_STRING,
    ExprError,
    Value,
    boolean,
    lexical_form,
    numeric,
    string,
)
from engines.model.xsd import (
    BOOLEAN_LEXICAL,
    DECIMAL,
    DOUBLE,
    FLOAT,
    INTEGER,
    INTEGER_TYPES,
    RANK_DATATYPES,
    decimal_lexical,
    float_lexical,
    integer_lexical,
    parse_datetime,
    parse_decimal,
    parse_float,
    parse_integer,
    shortest_decimal,
    to_double,
    to_single,
)

CAST_TARGETS = frozenset(INTEGER_TYPES) | frozenset(RANK_DATATYPES) | {XSD_STRING, XSD_BOOLEAN, XSD_DATETIME}
_XSD_WHITESPACE = " \t\n\r"


def float_string(number: float, rank: int) -> str:
    """XPath's cast of a float or double to xsd:string."""
    if number != number or math.isinf(number):
        return float_lexical(number, rank)
    if number == 0:
        return "-0" if math.copysign(1.0, number) < 0 else "0"
    if 1e-6 <= abs(number) < 1e6:
        return decimal_lexical(shortest_decimal(number, rank))
    return float_lexical(number, rank)


def _to_string(value: Value) -> Value:
    kind = value.kind
    if kind == IRI or kind == STRING:
        return string(value.value)
    if kind == NUMERIC:
        rank = value.rank
        if rank == INTEGER:
            return string(integer_lexical(value.value))
        if rank == DECIMAL:
            return string(decimal_lexical(value.value))
        return string(float_string(value.value, rank))
    if kind == BOOLEAN:
        return string("true" if value.value else "false")
    if kind == DATETIME:
        return string(lexical_form(value))
    raise ExprError("cannot cast to xsd:string")


def _to_integer(value: Value, target: str) -> Value:
    kind = value.kind
    if kind == STRING:
        number = parse_integer(value.value.strip(_XSD_WHITESPACE))
    elif kind == NUMERIC:
        number = value.value
        if value.rank >= FLOAT and (number != number or math.isinf(number)):
            raise ExprError("NaN or INF cast to an integer")
        number = int(number)  # truncates toward zero, as XPath does
    elif kind == BOOLEAN:
        number = int(value.value)
    else:
        raise ExprError("cannot cast to an integer type")
    low, high = INTEGER_TYPES[target]
    if number is None or (low is not None and number < low) or (high is not None and number > high):
        raise ExprError("not a value of the integer type")
    return Value(NUMERIC, number, target, INTEGER)


def _to_decimal(value: Value) -> Value:
    kind = value.kind
    if kind == STRING:
        number = parse_decimal(value.value.strip(_XSD_WHITESPACE))
        if number is None:
            raise ExprError("not a decimal lexical form")
    elif kind == NUMERIC:
        number = value.value
        if value.rank >= FLOAT:
            if number != number or math.isinf(number):
                raise ExprError("NaN or INF cast to xsd:decimal")
            number = shortest_decimal(number, value.rank)
        else:
            number = Decimal(number)
    elif kind == BOOLEAN:
        number = Decimal(int(value.value))
    else:
        raise ExprError("cannot cast to xsd:decimal")
    return numeric(number, DECIMAL)


def _to_floating(value: Value, rank: int) -> Value:
    kind = value.kind
    if kind == STRING:
        number = parse_float(value.value.strip(_XSD_WHITESPACE), rank)
        if number is None:
            raise ExprError("not a float lexical form")
    elif kind == NUMERIC:
        number = to_double(value.value)
    elif kind == BOOLEAN:
        number = 1.0 if value.value else 0.0
    else:
        raise ExprError("cannot cast to a floating-point type")
    return numeric(to_single(number) if rank == FLOAT else number, rank)


def _to_boolean(value: Value) -> Value:
    kind = value.kind
    if kind == STRING:
        flag = BOOLEAN_LEXICAL.get(value.value.strip(_XSD_WHITESPACE))
        if flag is None:
            raise ExprError("not a boolean lexical form")
        return boolean(flag)
    if kind == NUMERIC:
        number = value.value
        return boolean(number == number and number != 0)
    if kind == BOOLEAN:
        return value
    raise ExprError("cannot cast to xsd:boolean")


def _to_datetime(value: Value) -> Value:
    if value.kind == DATETIME:
        return value
    if value.kind == STRING:
        lexical = value.value.strip(_XSD_WHITESPACE)
        parsed = parse_datetime(lexical)
        if parsed is not None:
            return Value(DATETIME, parsed, XSD_DATETIME, term=literal(lexical, XSD_DATETIME))
    raise ExprError("cannot cast to xsd:dateTime")


def cast(target: str, value: Value) -> Value:
    """``target(value)`` for a datatype IRI (without brackets) in CAST_TARGETS."""
    if target == XSD_STRING:
        return _to_string(value)
    if target in INTEGER_TYPES:
        return _to_integer(value, target)
    if target == RANK_DATATYPES[DECIMAL]:
        return _to_decimal(value)
    if target == RANK_DATATYPES[DOUBLE]:
        return _to_floating(value, DOUBLE)
    if target == RANK_DATATYPES[FLOAT]:
        return _to_floating(value, FLOAT)
    if target == XSD_BOOLEAN:
        return _to_boolean(value)
    if target == XSD_DATETIME:
        return _to_datetime(value)
    raise ValueError(f"unsupported cast target {target}")
