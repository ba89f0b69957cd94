"""Many queries in Sparkwave: the queries of one window kind are productions of one Rete network, sharing its α-memories and join nodes.

Sparkwave's Rete (Komazec et al., DEBS 2012, section 3.3) shares α-memories between every
pattern with the same intra-triple test and join nodes between productions with a common prefix
(``engines.sparkwave.network``); its section 3.5 keeps a window bound per token so that one join
node can serve queries with different windows. Here every WME carries the last instant it is in its
window and every token the least of its triples' (``engines.sparkwave.graphs``), tested against one
clock, so queries with different time windows (sliding, tumbling, of any range and slide) and
entailments are productions of one network, each pattern reading the α-memories of the graph it
matches: a graph is one window over one stream (with the static data, for a one-window query), so
patterns of queries with equal windows share α-memories and join nodes, and patterns of different
windows share the network, its one pass per event and its collection, but no memory (see the package
notes for why). Event windows (whose clock is the event index) and unbounded windows (which take
deletions) get a network each, a further engine instance in a ``QuerySet``. Queries over named
windows share a network with each other only: their events carry stream IRIs, a one-window query's
do not, so the two never run on one stream (``cgpm`` runs a query over named windows alone).

Adding a query registers it; the engine builds its network once, with every registered query's
production, at its first event (every query is registered before it, so nothing is lost but the
one-query network the constructor built and its static data's loading).
"""

from __future__ import annotations

from common.errors import EngineError
from engines.model.stream import ContinuousQuery
from engines.protocol import check_supported
from engines.query_set import QuerySet
from engines.sparkwave.engine import network_kind


def _add_production(engine, query: ContinuousQuery) -> int:
    """``query`` as one more production of ``engine``'s network, built at its first event; its id inside the engine."""
    if not engine._first:
        raise EngineError("queries are registered before the first event")
    engine.queries = (*engine.queries, query)
    return len(engine.queries) - 1


def add_query(engine, query: ContinuousQuery) -> int:
    """Register ``query`` with ``engine`` (a SparkwaveEngine): in its network, or in a further one for another window kind."""
    check_supported(type(engine), query)
    if bool(query.named_windows) != bool(engine.query.named_windows):
        raise EngineError("a query over named windows shares an engine only with queries over named windows: "
                          "register it in an engine of its own")
    query_set = engine.__dict__.get("query_set")
    if query_set is None and network_kind(query) == network_kind(engine.query):
        return _add_production(engine, query)
    if query_set is None:
        query_set = engine.query_set = QuerySet.around(engine)
        for inner_id in range(1, len(engine.queries)):
            query_set.add_held(0, inner_id)
    query_set.check_open()
    for number, instance in enumerate(query_set.instances):
        if network_kind(instance.query) == network_kind(query):
            return query_set.add_held(number, _add_production(instance, query))
    return query_set.add_instance(type(engine)(query, static=engine.static, schema=engine.schema))
