"""The matches of a basic graph pattern with its FILTERs, each with the interval of instants at which all its triples are present.

Each triple pattern selects, from the triple presences, the rows whose constants are equal (as
canonical strings, as in ``oracles.plain_oracle``) and whose repeated variables agree; a variable
becomes a column. Patterns are joined one at a time on their shared variables with the window as
the interval condition: a match is present at the intersection of its triples' presences, so two
partial matches join when their intervals overlap, and the result carries the overlap. Because each
triple's presence is a set of disjoint runs, two rows with the same variables never share an instant.

Join order: the pattern with the most constants first, then always a pattern sharing a variable with
those joined so far (most constants first), a cross product only when nothing is connected.
A FILTER is applied as soon as every variable it reads is bound (a filter reading a variable outside
the pattern waits for the full mapping, where that variable stays unbound). FILTERs are evaluated by
``oracles.plain_filters`` in a pandas function, so the oracles' own value semantics hold, never
Spark SQL's comparisons.
"""

from __future__ import annotations

import pandas as pd
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from engines.model.stream import ContinuousQuery, Expr, TriplePattern, expr_variables, is_variable
from oracles import nterms
from oracles.spark.intervals import HI, LO, overlap


def column_names(query: ContinuousQuery) -> dict[str, str]:
    """Spark column of each query variable (``?_:b0`` is no column name): ``v0, v1, …`` in variable order."""
    return {variable: f"v{number}" for number, variable in enumerate(query.variables)}


def _canonical(term: str) -> str:
    return term if is_variable(term) else nterms.canonical(nterms.split(term))


def pattern_rows(presence: DataFrame, pattern: TriplePattern, columns: dict[str, str]) -> DataFrame:
    """The presences of the triples matching one pattern, as ``(its variables' columns…, lo, hi)``."""
    conditions, selected, seen = [], [], {}
    for position, term in zip(("s", "p", "o"), (_canonical(t) for t in pattern)):
        if not is_variable(term):
            conditions.append(F.col(position) == F.lit(term))
        elif term in seen:
            conditions.append(F.col(position) == F.col(seen[term]))
        else:
            seen[term] = position
            selected.append(F.col(position).alias(columns[term]))
    rows = presence
    for condition in conditions:
        rows = rows.where(condition)
    return rows.select(*selected, LO, HI)


def join_order(patterns: tuple[TriplePattern, ...]) -> list[int]:
    """Most constants first, then connected patterns before unconnected ones, query order breaking ties."""
    def constants(i: int) -> int:
        return sum(not is_variable(term) for term in patterns[i])

    def variables(i: int) -> set[str]:
        return {term for term in patterns[i] if is_variable(term)}

    left = list(range(len(patterns)))
    order: list[int] = []
    bound: set[str] = set()
    while left:
        connected = [i for i in left if variables(i) & bound]
        pick = max(connected or left, key=lambda i: (constants(i), -i))
        order.append(pick)
        left.remove(pick)
        bound |= variables(pick)
    return order


def _filter_function(expressions: tuple[Expr, ...], columns: dict[str, str], present: list[str]):
    """A mapInPandas function keeping the rows whose binding satisfies every expression (plain oracle semantics)."""
    names = [(variable, column) for variable, column in columns.items() if column in present]

    def keep(frames):
        from oracles.plain_filters import filter_holds

        verdicts: dict[tuple, bool] = {}
        for frame in frames:
            keys = list(zip(*(frame[column] for _, column in names))) if names else [()] * len(frame)
            mask = []
            for key in keys:
                verdict = verdicts.get(key)
                if verdict is None:
                    binding = {variable: term for (variable, _), term in zip(names, key)}
                    verdict = verdicts[key] = all(filter_holds(expression, binding) for expression in expressions)
                mask.append(verdict)
            yield frame[pd.Series(mask, index=frame.index, dtype=bool)]

    return keep


def apply_filters(rows: DataFrame, expressions: tuple[Expr, ...], columns: dict[str, str]) -> DataFrame:
    if not expressions:
        return rows
    return rows.mapInPandas(_filter_function(expressions, columns, rows.columns), rows.schema)


def matches(presence: DataFrame | list[DataFrame], query: ContinuousQuery) -> DataFrame:
    """``(v0…, lo, hi)``: every match of the query's patterns and FILTERs with the instants it is present at
    (``presence``: the triples' presences, or one table per pattern for a query over named windows)."""
    columns = column_names(query)
    waiting = list(query.filters)
    result: DataFrame | None = None
    bound: set[str] = set()
    for index in join_order(query.patterns):
        rows = pattern_rows(presence[index] if isinstance(presence, list) else presence, query.patterns[index], columns)
        if result is None:
            result = rows
        else:
            shared = [c for c in rows.columns if c in result.columns and c not in (LO, HI)]
            left, right = result.alias("left"), rows.alias("right")
            condition, lo, hi = overlap(F.col(f"left.{LO}"), F.col(f"left.{HI}"), F.col(f"right.{LO}"), F.col(f"right.{HI}"))
            for column in shared:
                condition = condition & (F.col(f"left.{column}") == F.col(f"right.{column}"))
            joined = left.join(right, condition, "inner")
            keep = [F.col(f"left.{c}") for c in result.columns if c not in (LO, HI)]
            keep += [F.col(f"right.{c}") for c in rows.columns if c not in (LO, HI) and c not in shared]
            result = joined.select(*keep, lo.alias(LO), hi.alias(HI))
        bound |= {term for term in query.patterns[index] if is_variable(term)}
        ready = tuple(e for e in waiting if expr_variables(e) <= bound)
        waiting = [e for e in waiting if e not in ready]
        result = apply_filters(result, ready, columns)
    return apply_filters(result, tuple(waiting), columns)
