"""The Rete network of a basic graph pattern: shared α-memories, a left-deep chain of join nodes, and a production at the end.

Order. Rete joins in pattern order; here the order is chosen once, at build time: the pattern with
the most constants first, then always a pattern sharing a variable with those before it (the most
constants first again, query order on ties), so no join is a cross product unless the query is
disconnected. A star like BSBM's offer pattern starts from its most constrained pattern.

FILTERs. The top-level conjuncts of the query's FILTERs (``a && b`` holds exactly when both do,
an error being false) are each placed on the first join node after which all the pattern variables
they read are bound, and tested there on the new token's row; a conjunct reading no pattern
variable is tested at the first join.

Graphs. Each pattern reads the α-memories of the graph it matches (``engines.sparkwave.graphs``: the
one window with the static data, or a named window, or the static graph alone), given per pattern by the
builder; one chain may read memories of several graphs, since each token carries its own window bound.

Sharing. ``ReteNetwork`` keys every join node on its parent memory, its α-memory, its join tests
and its FILTERs; adding a production whose pattern starts like one already in the network reuses
that prefix's join nodes and memories (Rete's node sharing), when the patterns of the prefix read the
same graphs. Within one basic graph pattern no two prefixes are equal, and what a query shares with
itself is its α-memories (every pattern of one graph with the same constants and repeated variables
reads one memory, e.g. both patterns of ``?x :p ?y . ?y :p ?z``); ``shared_join_nodes`` counts the
reuse when a network holds more than one production.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.model.filters import compile_filters
from engines.model.stream import Expr, TriplePattern, conjuncts, expr_variables, is_variable
from engines.sparkwave.alpha import AlphaNetwork, key_getter
from engines.sparkwave.beta import INF, BetaMemory, Clock, JoinNode, Production


def join_order(patterns: Sequence[TriplePattern]) -> list[int]:
    """Pattern indexes in join order: most constants first, each next pattern connected to the ones before."""
    def constants(i: int) -> int:
        return sum(not is_variable(term) for term in patterns[i])

    remaining = list(range(len(patterns)))
    order: list[int] = []
    bound: set[str] = set()
    while remaining:
        connected = [i for i in remaining if bound & {t for t in patterns[i] if is_variable(t)}]
        pool = connected or remaining
        best = max(pool, key=lambda i: (constants(i), -i))
        order.append(best)
        remaining.remove(best)
        bound |= {t for t in patterns[best] if is_variable(t)}
    return order


class ReteNetwork:
    """α-network, β-network and productions; join nodes shared between productions with a common prefix."""

    def __init__(self) -> None:
        self.alphas: list[AlphaNetwork] = []  # the α-networks of the graphs its join nodes read
        self.clock = Clock()
        self.root = BetaMemory(None, 0, 0)
        self.root.add((), INF)  # the root's one empty token: no triple, so no stamp bounds it
        self.join_nodes: dict[tuple, JoinNode] = {}
        self.productions: list[Production] = []
        self.shared_join_nodes = 0

    def add_production(self, patterns: Sequence[TriplePattern], filters: Sequence[Expr],
                       variables: Sequence[str], alphas: Sequence[AlphaNetwork]) -> Production:
        """Build (or reuse) the chain for one basic graph pattern, pattern ``i`` read from the graph whose α-network is
        ``alphas[i]``; the production counts its full mappings."""
        for network in alphas:
            if all(network is not known for known in self.alphas):
                self.alphas.append(network)
        order = join_order(patterns)
        pending = conjuncts(filters)
        pattern_variables = {t for p in patterns for t in p if is_variable(t)}
        memory = self.root
        names: list[str] = []
        for step, index in enumerate(order):
            pattern = patterns[index]
            alpha = alphas[index].memory_for(pattern)
            left, right, new = [], [], []
            seen_here: set[str] = set()
            for position, term in enumerate(pattern):
                if not is_variable(term) or term in seen_here:
                    continue  # constants and repeats within the pattern are the α test's
                seen_here.add(term)
                if term in names:
                    left.append(names.index(term))
                    right.append(position)
                else:
                    new.append(position)
            names.extend(pattern[position] for position in new)
            sources = tuple((None, names.index(term)) if is_variable(term) else (term, None) for term in pattern)
            bound = set(names)
            last = step == len(order) - 1
            here = [f for f in pending if last or (expr_variables(f) & pattern_variables) <= bound]
            pending = [f for f in pending if f not in here]
            key = (id(memory), id(alpha), tuple(left), tuple(right), tuple(new), tuple(here), tuple(names))
            node = self.join_nodes.get(key)
            if node is None:
                accept = compile_filters(here, names) if here else None
                node = JoinNode(memory, alpha, left, right, new, sources, accept, self.clock)
                self.join_nodes[key] = node
            else:
                self.shared_join_nodes += 1
            memory = node.output
        positions = [names.index(v) for v in variables]
        getter = key_getter(positions)
        mapping_of = getter if len(positions) != 1 else (lambda row, g=getter: (g(row),))
        if sorted(positions) == list(range(memory.width)):
            production = Production(mapping_of, memory)  # each mapping is its row reordered
        else:
            production = Production(mapping_of)
        memory.productions.append(production)
        self.productions.append(production)
        return production

    def beta_memories(self) -> list[BetaMemory]:
        return [node.output for node in self.join_nodes.values()]

    def stats(self) -> dict[str, int]:
        memories = self.beta_memories()
        return {
            "alpha_memories": sum(len(network.memories) for network in self.alphas),
            "alpha_entries": sum(memory.size for network in self.alphas for memory in network.memories.values()),
            "join_nodes": len(self.join_nodes),
            "beta_memories": len(memories),
            "tokens": sum(memory.size for memory in memories),
            "complete_matches": sum(m.size for m in memories if m.productions),
            "tokens_refused": sum(node.tokens_refused for node in self.join_nodes.values()),
        }
