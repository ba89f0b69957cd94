"""Triple patterns equal up to variable renaming have one class key: engines that share views across a query set keep one view per class.

Two patterns are one class when they are equal once their variables are numbered by first occurrence
and their atomic FILTERs (one-variable conjuncts, which engines push into the admission of a triple)
are equal under the same numbering: ``?x a :Student`` and ``?y a :Student`` are one class, ``?x :p ?x``
and ``?x :p ?y`` two, ``?x :age ?a FILTER(?a > 3)`` and ``?y :age ?b FILTER(?b > 3)`` one. A view of a
class holds the same triples (and, with its variables in first-occurrence order, the same rows) for
every query with a pattern of that class, over the same window.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, replace

from engines.model.stream import TermExpr, TriplePattern, VarExpr, is_variable


def renamed(expr, names: Mapping[str, str]):
    """A FILTER expression with its variables renamed by ``names`` (frozen dataclasses, rebuilt field by field)."""
    if isinstance(expr, VarExpr):
        return VarExpr(names.get(expr.name, expr.name))
    if isinstance(expr, TermExpr):
        return expr
    changes = {}
    for field in fields(expr):
        value = getattr(expr, field.name)
        if isinstance(value, tuple):
            changes[field.name] = tuple(renamed(arg, names) for arg in value)
        elif not isinstance(value, str):
            changes[field.name] = renamed(value, names)
    return replace(expr, **changes)


def pattern_class_key(pattern: TriplePattern, atomic: Mapping[str, Sequence]) -> tuple:
    """What a pattern's view holds, whatever its variables are named: positions and atomic FILTERs, variables numbered.

    ``atomic`` is the query's one-variable FILTER conjuncts by variable (``split_filters``)."""
    names: dict[str, str] = {}
    positions = []
    for item in pattern:
        if is_variable(item):
            names.setdefault(item, f"?{len(names)}")
            positions.append(("v", names[item]))
        else:
            positions.append(("c", item))
    tests = tuple((names[name], tuple(renamed(expr, names) for expr in atomic.get(name, ()))) for name in names)
    return tuple(positions), tests
