"""Many queries in Sparkwave: the queries with one window and entailment are productions of one Rete network, sharing its α-memories and join nodes.

Sparkwave's Rete (Komazec et al., DEBS 2012, section 3.3) shares α-memories between every
pattern with the same intra-triple test and join nodes between productions with a common prefix
(``engines.sparkwave.network``); its section 3.5 keeps a window bound per token so that one join
node can serve queries with different windows. Here one network serves the queries of one window
(and entailment): its clock is that window's start (departure 10 of ``engines.sparkwave``), and
the ε-network is built from the schema and all their patterns. A query with another window or
entailment gets a network of its own, a further engine instance in a ``QuerySet``: per-token
window bounds across windows are not implemented.

Adding a query registers it; the engine builds its network once, with every registered query's
production, at its first event (every query is registered before it, so nothing is lost but the
one-query network the constructor built and its static data's loading).
"""

from __future__ import annotations

from common.errors import EngineError
from engines.model.stream import ContinuousQuery
from engines.protocol import check_supported
from engines.query_set import QuerySet


def _network_key(query: ContinuousQuery) -> tuple:
    return (query.window, query.entailment)


def _add_production(engine, query: ContinuousQuery) -> int:
    """``query`` as one more production of ``engine``'s network, built at its first event; its id inside the engine."""
    if not engine._first:
        raise EngineError("queries are registered before the first event")
    engine.queries = (*engine.queries, query)
    return len(engine.queries) - 1


def add_query(engine, query: ContinuousQuery) -> int:
    """Register ``query`` with ``engine`` (a SparkwaveEngine): in its network, or in a further one for another window."""
    check_supported(type(engine), query)
    query_set = engine.__dict__.get("query_set")
    if query_set is None and _network_key(query) == _network_key(engine.query):
        return _add_production(engine, query)
    if query_set is None:
        query_set = engine.query_set = QuerySet.around(engine)
        for inner_id in range(1, len(engine.queries)):
            query_set.add_held(0, inner_id)
    query_set.check_open()
    for number, instance in enumerate(query_set.instances):
        if _network_key(instance.query) == _network_key(query):
            return query_set.add_held(number, _add_production(instance, query))
    return query_set.add_instance(type(engine)(query, static=engine.static, schema=engine.schema))
