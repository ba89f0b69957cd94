"""Where the oxigraph baseline may differ from SPARQL 1.1, decided in one place for every suite that compares it.

Both divergences are shown in tests/engines/test_oxigraph_divergence.py: oxigraph stores two distinct
literals with one value as one term, and orders IRIs with ``<`` where SPARQL raises a type error. A
suite comparing oxigraph with the oracle leaves out exactly the cases these predicates name, no more.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass

from engines.model.stream import Compare


def orders_terms(expr) -> bool:
    """Whether a FILTER expression holds an ordering comparison (<, <=, >, >=) anywhere."""
    if isinstance(expr, Compare) and expr.op in ("<", "<=", ">", ">="):
        return True
    if is_dataclass(expr):
        return any(orders_terms(getattr(expr, f.name)) for f in fields(expr))
    if isinstance(expr, tuple | list):
        return any(orders_terms(item) for item in expr)
    return False


def oxigraph_merges(query, triples) -> bool:
    """True when oxigraph stores two distinct terms of the query or the triples as one."""
    from engines.baselines.oxigraph_engine import OxigraphEngine

    engine = OxigraphEngine(query)
    terms = {t for triple in triples for t in triple} | {t for pattern in query.patterns for t in pattern if not t.startswith("?")}
    return len({str(engine._term(t, inserted=False)) for t in terms}) < len(terms)


def stream_merges_for_oxigraph(query, stream) -> bool:
    """True when oxigraph stores two distinct terms of ``query`` or ``stream`` as one."""
    return oxigraph_merges(query, [u.triple for event in stream.events for u in event.updates] + list(stream.static))


def oxigraph_may_diverge(query, stream) -> bool:
    """True when ``query`` over ``stream`` falls in one of oxigraph's known divergences."""
    return any(map(orders_terms, query.filters)) or stream_merges_for_oxigraph(query, stream)
