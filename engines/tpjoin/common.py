"""What both TP-Join models share: the query compiled once (shapes, complex FILTERs, decomposition, dictionary, partitioner) and automata cached per state order.

The persistent dictionary is filled here, before any event: the query's constants and the static
graph's terms. Automata are compiled once per (seed, state order) and reused, since SortAndCombine
picks among few orders; compiling one is the price of a new order, not of an event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from operator import itemgetter

from common.errors import ConfigError
from engines.model.stream import ContinuousQuery, Triple, is_variable
from engines.tpjoin.automaton import Automaton
from engines.tpjoin.decompose import decompose, sort_and_combine
from engines.tpjoin.dictionary import SynchronisedDictionary
from engines.tpjoin.partition import Partitioner, shape_patterns
from engines.tpjoin.views import View
from engines.tpjoin.wholegraph import WholeGraph


def reject_options(engine_name: str, options: dict) -> None:
    if options:
        raise ConfigError(f"engine {engine_name!r} has no option {', '.join(sorted(options))}")


def probed_by_value(query: ContinuousQuery) -> list[bool]:
    """Per pattern, whether a join can probe its view by object: its object is a constant or a variable another
    pattern binds (or its own subject or predicate); otherwise the view needs no value table."""
    occurrences = Counter(item for pattern in query.patterns for item in pattern if is_variable(item))
    return [not (is_variable(pattern[2]) and occurrences[pattern[2]] == 1) for pattern in query.patterns]


class CompiledQuery:
    """The query's shapes, views, partitioner and automata, for one engine instance."""

    def __init__(
        self, query: ContinuousQuery, static: Iterable[Triple], *, partitioned: bool = True,
        dictionary: SynchronisedDictionary | None = None, views: Sequence[View] | None = None,
    ) -> None:
        """``dictionary`` and ``views``, when given, are a query set's (``shared_views``): its persistent part
        holds this query's constants and the static graph, and ``views[j]`` holds pattern j's triples."""
        self.query = query
        self.shapes, self.complex_filters = shape_patterns(query)
        self.static = tuple(dict.fromkeys(tuple(t) for t in static))
        if dictionary is None:
            constants = [item for pattern in query.patterns for item in pattern if not is_variable(item)]
            dictionary = SynchronisedDictionary(constants + [term for triple in self.static for term in triple])
        self.dictionary = dictionary
        self.partitioner = Partitioner(self.shapes, self.dictionary)
        self.partitioned = partitioned
        if views is not None:
            self.views = list(views)
        elif partitioned:
            self.views = [
                View(with_predicates=shape.predicate is None, with_keys=probed)
                for shape, probed in zip(self.shapes, probed_by_value(query), strict=True)
            ]
        else:
            whole = WholeGraph()  # E-CGPM*: every pattern reads the whole event, unindexed
            self.views = [whole] * len(self.shapes)
        self.decomposition = decompose(query.patterns)
        self._automata: dict[tuple, Automaton] = {}
        self._orders: dict[tuple, tuple[int, ...]] = {}  # (seed, sizes) -> SortAndCombine's order, memoised
        self.predicates = self.partitioner.predicates if partitioned else None
        # route(s, p, o): Algorithm 1 for one triple, (encoded triple, pattern indices) or None when pruned;
        # bound once, since it runs per stream triple
        self.route = self.partitioner.route if partitioned else self._whole_route

    def sizes(self, extra: dict[int, list] | None = None) -> list[int]:
        if extra:
            return [len(view) + len(extra.get(j, ())) for j, view in enumerate(self.views)]
        return [len(view) for view in self.views]

    def automaton(self, seed: int | None = None, sizes: list[int] | None = None) -> Automaton:
        """SortAndCombine for the views' current sizes, and the automaton of that order."""
        # ``size``, an attribute, not len(): this runs at every automaton run, and View.__len__ is a Python call
        sizes = sizes if sizes is not None else [view.size for view in self.views]
        # memo key: exact sizes below 64, the power of two above (an order for 1000 and 1001 rows is the same)
        key = (seed, tuple([size if size < 64 else 64 + size.bit_length() for size in sizes]))
        order = self._orders.get(key)
        if order is None:
            if len(self._orders) > 4096:
                self._orders.clear()
            order = self._orders[key] = sort_and_combine(self.decomposition, sizes, seed)
        key = (seed, order)
        automaton = self._automata.get(key)
        if automaton is None:
            automaton = self._automata[key] = Automaton(
                order, self.shapes, self.views, self.query.variables, self.complex_filters, self.dictionary,
                seed=seed, selector=None if self.partitioned else self.partitioner.selector,
            )
        return automaton

    def seed_getter(self, index: int):
        """Encoded triple -> the seed merged mapping of pattern ``index`` (its variables' values, first positions)."""
        pattern = self.shapes[index].pattern
        positions = [pattern.index(name) for name in self.shapes[index].variables()]
        if not positions:
            return lambda triple: ()
        if len(positions) == 1:
            position = positions[0]
            return lambda triple: (triple[position],)
        return itemgetter(*positions)  # a tuple of the values, at C speed (once per new row)

    def _whole_route(self, s: str, p: str, o: str):
        """E-CGPM*: no Algorithm 1, every triple is encoded into the one whole-event graph."""
        encode = self.dictionary.encode
        return (encode(s), encode(p), encode(o)), (0,)

    def stats(self) -> dict[str, int]:
        distinct = {id(view): view for view in self.views}.values()
        return {
            "view_triples": sum(len(view) for view in distinct),
            "view_keys": sum(view.pairs.key_count() for view in distinct if isinstance(view, View)),
            "dictionary_terms": len(self.dictionary),
            "persistent_terms": self.dictionary.persistent_size,
            "automata": len(self._automata),
        }
