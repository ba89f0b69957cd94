"""Insert/delete streams as a Hypothesis state machine: after every batch both delta engines equal the brute force.

Each step is one event: inserts, deletes of present and of absent triples, re-inserts, empty
batches, deletes of every triple at one node (breaking several embeddings at once) and mixed
batches in which a triple can come and go. After it, each engine's Delta must be exactly the
change of the brute force's answers (no duplicates, nothing both added and removed) and its
``answers()`` must equal them.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engines.delta import DeltaEngine, DeltaGenericEngine
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Update, is_variable
from tests import strategies as shared
from tests.engines.delta.brute import BruteForce
from tests.engines.delta.queries import QUERIES, load

EX = "http://ex/"
IRIS = [f"<{EX}{n}>" for n in "abc"]
LITERALS = ['"1"^^<http://www.w3.org/2001/XMLSchema#integer>', '"2"', '"2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>']
PREDICATES = [f"<{EX}{n}>" for n in "pqr"]

fixed_queries = st.sampled_from(sorted(QUERIES)).map(load)
random_queries = shared.query_texts(filters=True).map(lambda text: parse_query(text, window="unbounded", name="random"))


def _pools(query):
    constants = {t for pattern in query.patterns for t in pattern if not is_variable(t)}
    nodes = sorted(set(IRIS) | {t for t in constants if t.startswith(("<", "_:"))})
    objects = sorted(set(nodes) | set(LITERALS) | {t for t in constants if t.startswith('"')})
    predicates = sorted(set(PREDICATES) | {p[1] for p in query.patterns if not is_variable(p[1])})
    return nodes, predicates, objects


class DeltaMachine(RuleBasedStateMachine):
    @initialize(query=st.one_of(fixed_queries, random_queries), data=st.data())
    def setup(self, query, data):
        self.query = query
        self.nodes, self.predicates, self.objects = _pools(query)
        static = data.draw(st.lists(self.triples(), max_size=3), label="static")
        self.brute = BruteForce(query, static)
        self.engines = [DeltaEngine(query, static=static), DeltaGenericEngine(query, static=static)]
        self.expected: set = set()
        self.deleted: list = []
        self.index = 0

    def triples(self):
        """Mostly instances of the query's own patterns (so embeddings form), sometimes anything."""
        def instance(pattern, draw):
            out = []
            for slot, position in enumerate(pattern):
                if not is_variable(position):
                    out.append(position)
                else:
                    pool = self.predicates if slot == 1 else self.nodes if slot == 0 else self.objects
                    out.append(draw(st.sampled_from(pool)))
            return tuple(out)

        anything = st.tuples(st.sampled_from(self.nodes), st.sampled_from(self.predicates), st.sampled_from(self.objects))

        @st.composite
        def pick(draw):
            if draw(st.integers(0, 4)):
                return instance(draw(st.sampled_from(self.query.patterns)), draw)
            return draw(anything)

        return pick()

    def push(self, updates):
        event = Event(self.index, self.index, tuple(Update(op, *t) for op, t in updates))
        self.index += 1
        for op, triple in updates:
            if op == DELETE and triple in self.brute.dynamic:
                self.deleted.append(triple)
        self.brute.push(event)
        before, after = self.expected, self.brute.answers()
        for engine in self.engines:
            delta = engine.push(event)
            assert len(delta.added) == len(set(delta.added)), f"{engine.name}: duplicate added answers"
            assert len(delta.removed) == len(set(delta.removed)), f"{engine.name}: duplicate removed answers"
            assert set(delta.added) == after - before, f"{engine.name} added {set(delta.added)} expected {after - before}"
            assert set(delta.removed) == before - after, f"{engine.name} removed {set(delta.removed)} expected {before - after}"
        self.expected = after

    @invariant()
    def answers_equal_brute_force(self):
        if getattr(self, "engines", None) and self.index:
            for engine in self.engines:
                assert engine.answers() == Counter(self.expected), engine.name

    @rule(data=st.data())
    def insert(self, data):
        triples = data.draw(st.lists(self.triples(), min_size=1, max_size=4))
        self.push([(INSERT, t) for t in triples])

    @rule(data=st.data())
    def delete_present(self, data):
        present = sorted(self.brute.dynamic)
        if not present:
            return self.push([])
        chosen = data.draw(st.lists(st.sampled_from(present), min_size=1, max_size=3))
        self.push([(DELETE, t) for t in chosen])

    @rule(data=st.data())
    def delete_anything(self, data):  # often absent, sometimes static
        self.push([(DELETE, data.draw(self.triples()))])

    @rule(data=st.data())
    def reinsert(self, data):
        if not self.deleted:
            return self.push([])
        self.push([(INSERT, data.draw(st.sampled_from(self.deleted)))])

    @rule()
    def empty_batch(self):
        self.push([])

    @rule(data=st.data())
    def delete_node(self, data):
        """Every present triple at one node goes at once: several embeddings break in one event."""
        node = data.draw(st.sampled_from(self.nodes))
        self.push([(DELETE, t) for t in sorted(self.brute.dynamic) if node in (t[0], t[2])])

    @rule(data=st.data())
    def mixed_batch(self, data):
        triple = data.draw(self.triples())
        updates = [(INSERT, triple), (DELETE, triple)] if data.draw(st.booleans()) else [(DELETE, triple), (INSERT, triple)]
        extra = data.draw(st.lists(st.tuples(st.sampled_from([INSERT, DELETE]), self.triples()), max_size=4))
        self.push(updates + extra)


DeltaMachine.TestCase.settings = settings(DeltaMachine.TestCase.settings, stateful_step_count=25)
TestDeltaMachine = DeltaMachine.TestCase
