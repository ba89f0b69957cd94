"""FILTERs keep the delta engine's answers equal to the oracle's: a conjunct runs once every variable it reads is bound.

The paper has no FILTERs. ``M(τ)`` is ``{μ ∈ BGP(G(τ)) : F(μ)}`` and ``F`` is a function of ``μ``
alone, so a delta of the BGP restricted to the mappings passing ``F`` is exactly the delta of the
filtered query. ``F`` is the conjunction of every FILTER and of every top-level ``&&`` operand;
SPARQL's ``A && B`` is true exactly when both are true (an error in either makes it not true), so
the conjuncts can be tested separately. A conjunct reads only its own variables, so testing it on
a partial mapping in which all of them are bound gives the same result as on the full mapping:
conjuncts are pushed into the component (and, in the generic algorithm, into the join step) where
their variables become bound. Conjuncts reading no pattern variable, or variables of several
components, run on full mappings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engines.model.stream import Expr, conjuncts, expr_variables

Check = Callable[[Sequence[str | None]], bool]


def compile_conjuncts(exprs: Sequence[Expr], variables: Sequence[str]) -> Check | None:
    """One callable over a mapping in ``variables`` order (None for unbound), or None for no conjunct."""
    if not exprs:
        return None
    from engines.model.filters import compile_filters  # imported late: filter-free queries need no filter module

    extra = sorted(set().union(*(expr_variables(e) for e in exprs)) - set(variables))
    check = compile_filters(list(exprs), list(variables) + extra)
    if check is None or not extra:
        return check
    padding = (None,) * len(extra)  # variables the pattern never binds stay unbound
    return lambda mapping: check(tuple(mapping) + padding)


def split_by_scope(
    filters: Sequence[Expr], scopes: Sequence[Sequence[str]]
) -> tuple[list[list[Expr]], list[Expr]]:
    """Each conjunct goes to the first scope holding all its variables, else to the full-mapping list."""
    local: list[list[Expr]] = [[] for _ in scopes]
    top: list[Expr] = []
    for expr in conjuncts(filters):
        needed = expr_variables(expr)
        for index, scope in enumerate(scopes):
            if needed and needed <= set(scope):
                local[index].append(expr)
                break
        else:
            top.append(expr)
    return local, top
