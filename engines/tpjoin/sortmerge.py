"""The sort-merge join of a state tied to the merged mappings only by a comparison FILTER: every mapping that passes the FILTER is in the range the join hands it.

A state whose pattern shares no variable with what is bound, but whose new variable ``?y`` is
compared with a bound ``?x`` (``FILTER(?y < ?x)``), would be a cross product. Instead the view is
sorted on ``?y``'s numeric value (as a double) and each merged mapping takes, by binary search,
the rows on the passing side of its own ``?x``. Every conversion a SPARQL comparison makes
(integer, decimal, float, double promotion) is monotone, so a pair SPARQL orders ``y < x`` has
``double(y) <= double(x)``: the range is a superset, and the FILTER, evaluated after the join with
SPARQL semantics, removes the rest. Rows whose value is not numeric (or NaN), and mappings whose
``?x`` is not, take the slow path: every row, then the FILTER.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from math import isnan
from operator import itemgetter

from engines.model import values
from engines.model.stream import Compare, Expr, VarExpr
from engines.tpjoin.partition import PatternShape

_ORDERING = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}  # x op y  <=>  y flipped(op) x


def plan_sort_merge(shape: PatternShape, bound: list[str], filters: Sequence[Expr]) -> tuple | None:
    """(position of the new compared variable, index of the bound one in r, op as 'new op bound') or None."""
    for expression in filters:
        if not (isinstance(expression, Compare) and expression.op in _ORDERING):
            continue
        left, right = expression.left, expression.right
        if not (isinstance(left, VarExpr) and isinstance(right, VarExpr)):
            continue
        for new, old, op in ((left.name, right.name, expression.op), (right.name, left.name, _ORDERING[expression.op])):
            if old in bound and new in (shape.pattern[0], shape.pattern[2]) and new not in bound:
                return shape.pattern.index(new), bound.index(old), op
    return None


def _numeric_key(term: str) -> float | None:
    try:
        value = values.term_value(term)
    except values.ExprError:
        return None
    if value.kind != values.NUMERIC:
        return None
    key = float(value.value)
    return None if isnan(key) else key


def sort_merge_join(plan, pairs, extend, dictionary):
    position, bound_index, op = plan
    decode = dictionary.decode

    def join(merged):
        keyed, unkeyed = [], []
        for pair in pairs:  # sort the view on the compared value (the sort of the sort-merge join)
            key = _numeric_key(decode(pair[position // 2]))
            if key is None:
                unkeyed.append(pair)
            else:
                keyed.append((key, pair))
        keyed.sort(key=itemgetter(0))
        keys = [key for key, _ in keyed]
        rows = [pair for _, pair in keyed]
        out: list[tuple] = []
        for m in merged:
            bound_key = _numeric_key(decode(m[bound_index]))
            if bound_key is None:
                chosen = rows
            elif op in (">", ">="):  # new > bound: keys >= bound's, a superset under any numeric promotion
                chosen = rows[bisect_left(keys, bound_key):]
            else:
                chosen = rows[:bisect_right(keys, bound_key)]
            for s, o in chosen:
                extend(m, s, o, out)
            for s, o in unkeyed:
                extend(m, s, o, out)
        return out

    return join
