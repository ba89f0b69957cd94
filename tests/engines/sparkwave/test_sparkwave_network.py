"""Sparkwave's networks as the paper builds them: shared α-memories and join nodes, the reduced ε-network, token intervals."""

from __future__ import annotations

import pytest

from common.errors import EngineError
from engines.model.query import parse_query
from engines.model.stream import INSERT, Event, Update, Window
from engines.rdfs import SYMMETRIC, Schema
from engines.sparkwave import SparkwaveEngine
from engines.sparkwave.alpha import AlphaNetwork
from engines.sparkwave.beta import INF
from engines.sparkwave.epsilon import EpsilonNetwork
from engines.sparkwave.network import ReteNetwork, join_order

EX = "http://ex/"
TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
SUBCLASS, SUBPROPERTY = f"<{RDFS}subClassOf>", f"<{RDFS}subPropertyOf>"
DOMAIN, RANGE = f"<{RDFS}domain>", f"<{RDFS}range>"
INVERSE = "<http://www.w3.org/2002/07/owl#inverseOf>"


def x(name: str) -> str:
    return f"<{EX}{name}>"


def query(text: str, window="sliding:10:1", entailment="none"):
    return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ {text} }}", window=window, entailment=entailment)


def event(index, ts, *triples):
    return Event(index, ts, tuple(Update(INSERT, *t) for t in triples))


def test_patterns_with_the_same_constants_share_one_alpha_memory():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :p ?z . ?z :q ?w . ?w :q ?w"))
    assert engine.rete.stats()["alpha_memories"] == 3  # :p once, :q, and :q with subject = object
    engine.push(event(0, 0, (x("a"), x("p"), x("b")), (x("b"), x("p"), x("c")), (x("c"), x("q"), x("d"))))
    assert engine.rete.stats()["alpha_entries"] == 3  # each triple once, though :p feeds two join nodes


def test_productions_with_a_common_prefix_share_join_nodes():
    network, alpha = ReteNetwork(), AlphaNetwork()
    shared = [("?x", x("p"), "?y"), ("?y", x("q"), "?z")]
    network.add_production(shared, (), ("?x", "?y", "?z"), [alpha] * 2)
    network.add_production([*shared, ("?z", x("r"), "?w")], (), ("?x", "?y", "?z", "?w"), [alpha] * 3)
    assert network.shared_join_nodes == 2
    assert len(network.join_nodes) == 3


def test_join_order_starts_from_constants_and_stays_connected():
    patterns = [("?o", x("price"), "?p"), ("?o", x("product"), "?d"), ("?d", TYPE, x("T")), ("?v", x("country"), x("GB")),
                ("?o", x("vendor"), "?v")]
    assert join_order(patterns) == [2, 1, 0, 4, 3]


def test_epsilon_network_keeps_what_the_query_can_reach_and_flattens_hierarchies():
    schema = [
        (x("A"), SUBCLASS, x("B")), (x("B"), SUBCLASS, x("C")), (x("C"), SUBCLASS, x("D")),
        (x("teaches"), DOMAIN, x("A")), (x("likes"), DOMAIN, x("D")),  # likes only reaches D, above the query
        (x("sub"), SUBPROPERTY, x("advises")), (x("advises"), RANGE, x("B")), (x("advisedBy"), INVERSE, x("sub")),
    ]
    network = EpsilonNetwork(schema, [("?s", TYPE, x("C"))])
    assert set(network.classes) == {x("A"), x("B"), x("C")}  # D and its properties are pruned
    assert network.classes[x("A")].s_links == (x("C"),)  # flattened: straight to the query's class
    assert network.classes[x("B")].s_links == (x("C"),)
    assert set(network.properties) == {x("teaches"), x("sub"), x("advises"), x("advisedBy")}
    assert network.properties[x("advisedBy")].os_links == (x("sub"),)
    assert network.properties[x("sub")].so_links == (x("advises"),)
    closed = {t for t, _ in network.closure((x("m"), x("advisedBy"), x("n")))}
    assert (x("m"), TYPE, x("C")) in closed  # inverse of a subproperty with a range under C
    assert (x("m"), TYPE, x("D")) not in closed


@pytest.mark.parametrize(("axiom", "pattern", "entailed"), [
    ((x("typeOf"), INVERSE, TYPE), ("?c", x("typeOf"), "?i"), (x("D"), x("typeOf"), x("ann"))),
    ((TYPE, SUBPROPERTY, x("q")), ("?i", x("q"), "?c"), (x("ann"), x("q"), x("D"))),
    ((TYPE, RANGE, x("R")), ("?c", TYPE, x("R")), (x("D"), TYPE, x("R"))),
    ((TYPE, TYPE, SYMMETRIC), ("?c", TYPE, x("ann")), (x("D"), TYPE, x("ann"))),
], ids=["inverse", "superproperty", "range", "symmetric"])
def test_class_links_above_the_query_s_classes_stay_when_type_triples_lead_on_to_a_target(axiom, pattern, entailed):
    # (ann a C), C ⊑ D: no pattern tests D, yet the link C -> D must stay when a type triple of D goes on,
    # by a link of rdf:type itself, to a triple the pattern matches
    schema = [(x("C"), SUBCLASS, x("D")), axiom]
    network = EpsilonNetwork(schema, [pattern])
    assert network.classes[x("C")].s_links == (x("D"),)
    closed = {t for t, _ in network.closure((x("ann"), TYPE, x("C")))}
    assert entailed in closed and entailed in set(Schema(schema).consequences((x("ann"), TYPE, x("C"))))


def test_a_subproperty_of_rdf_type_links_to_the_rdf_type_node_when_rdf_type_has_a_superproperty():
    # issue 21: isA ⊑ rdf:type ⊑ cat, A ⊑ C, pattern ?x :cat ?c. rdf:type is no target and has no domain, range or
    # inverse, but (u isA A) must become (u a A) for the class node A to give (u a C), and so (u cat C)
    schema = [(x("A"), SUBCLASS, x("C")), (x("isA"), SUBPROPERTY, TYPE), (TYPE, SUBPROPERTY, x("cat"))]
    network = EpsilonNetwork(schema, [("?x", x("cat"), "?c")])
    assert TYPE in network.properties[x("isA")].so_links
    closed = {t for t, _ in network.closure((x("u"), x("isA"), x("A")))}
    assert closed == set(Schema(schema).consequences((x("u"), x("isA"), x("A"))))
    engine = SparkwaveEngine(query("?x :cat ?c", entailment="rdfs"), schema=schema)
    assert set(engine.push(event(0, 0, (x("u"), x("isA"), x("A")))).added) == {(x("u"), x("A")), (x("u"), x("C"))}


def test_without_links_of_rdf_type_a_class_no_pattern_tests_is_not_linked_to():
    network = EpsilonNetwork([(x("C"), SUBCLASS, x("D")), (x("D"), SUBCLASS, x("E"))], [("?i", TYPE, x("E"))])
    assert network.classes[x("C")].s_links == (x("E"),)  # flattened past D
    assert network.classes[x("D")].s_links == (x("E"),)



def test_a_type_triple_entering_by_the_rdf_type_node_reaches_the_memories_of_its_class():
    # rdf:type has a domain, so it has an ε node; :C is in no axiom, so it has none: (ann a :C) enters
    # by the rdf:type node and must still reach the α memory of the pattern ?x a :C (found by its class)
    schema = [(TYPE, DOMAIN, x("Thing"))]
    engine = SparkwaveEngine(query("?x a :C", entailment="rdfs"), schema=schema)
    assert engine.graphs[0].epsilon.properties[TYPE] and x("C") not in engine.graphs[0].epsilon.classes
    assert engine.push(event(0, 0, (x("ann"), TYPE, x("C")))).added == [(x("ann"),)]
    both = SparkwaveEngine(query("?x a :C . ?x a :Thing", entailment="rdfs"), schema=schema)
    assert both.push(event(0, 0, (x("ann"), TYPE, x("C")))).added == [(x("ann"),)]

def test_sparkwave_takes_no_options_and_names_the_ones_it_got():
    with pytest.raises(EngineError, match="engine 'sparkwave' takes no options, got depth, mode"):
        SparkwaveEngine(query("?s :p ?o"), mode="x", depth=2)


def test_static_data_never_widens_a_token_and_stream_triples_do():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z"), static=[(x("a"), x("p"), x("b"))])
    engine.push(event(0, 5, (x("b"), x("q"), x("c"))))
    partial, complete = (memory.untils() for memory in engine.rete.beta_memories())
    assert complete == {(x("a"), x("b"), x("c")): 14}  # each token's row and until (ts 5 + 10 - 1)
    assert partial == {(x("a"), x("b")): INF}  # the static triple's token


def test_a_re_stamped_triple_refreshes_the_interval_instead_of_refusing_the_join():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z", window="sliding:4:1"))
    engine.push(event(0, 0, (x("a"), x("p"), x("b"))))
    engine.push(event(1, 3, (x("a"), x("p"), x("b"))))  # seen again: still in the window at ts 6
    delta = engine.push(event(2, 6, (x("b"), x("q"), x("c"))))
    assert delta.added == [(x("a"), x("b"), x("c"))]
    partial, complete = (memory.untils() for memory in engine.rete.beta_memories())
    assert complete == {(x("a"), x("b"), x("c")): 6}  # the re-stamped :p (ts 3) is in the window until 3 + 4 - 1
    assert partial == {(x("a"), x("b")): 6}  # refreshed along the chain
    assert engine.rete.stats()["tokens_refused"] == 0


def test_a_triple_leaving_at_this_instant_is_refused_by_the_interval_test():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z", window="event"))
    engine.push(event(0, 0, (x("a"), x("p"), x("b"))))
    delta = engine.push(event(1, 0, (x("b"), x("q"), x("c"))))  # the :p triple left with event 0
    assert not delta.added
    assert engine.rete.stats()["tokens_refused"] == 1
    assert engine.rete.stats()["alpha_entries"] == 1  # and the collector took it



@pytest.mark.parametrize("first", [0, 1], ids=["p-first", "q-first"])
def test_a_join_with_a_triple_that_has_left_but_is_not_yet_collected_is_refused_once(first):
    # the window's start moves before collection: a new token meeting the expired triple (left activation,
    # in one of the two arrival orders) or the expired token meeting the new triple (right activation) is refused
    triples = [(x("a"), x("p"), x("b")), (x("b"), x("q"), x("c"))]
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z", window="sliding:4:1"))
    engine.push(event(0, 0, triples[first]))
    assert not engine.push(event(1, 6, triples[1 - first])).added
    assert engine.rete.stats()["tokens_refused"] == 1

def test_window_kinds_tumbling():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z").with_window(Window.tumbling(10)))
    assert engine.push(event(0, 8, (x("a"), x("p"), x("b")))).added == []
    assert engine.push(event(1, 9, (x("b"), x("q"), x("c")))).added == [(x("a"), x("b"), x("c"))]
    assert engine.push(event(2, 10, (x("b"), x("q"), x("d")))).removed == [(x("a"), x("b"), x("c"))]
    assert engine.stats()["tokens"] == 0 and engine.stats()["wmes"] == 1


def test_a_re_stamped_triple_leaves_with_its_last_stamp_and_its_stale_entry_is_skipped_once():
    engine = SparkwaveEngine(query("?x :p ?y . ?x :q ?z", window="sliding:4:1"))
    pq = (x("a"), x("p"), x("b")), (x("a"), x("q"), x("c"))
    assert engine.push(event(0, 0, *pq)).added == [(x("a"), x("b"), x("c"))]
    engine.push(event(1, 3, pq[0]))  # :p again: its entry of ts 0 is stale from now on
    assert engine.graphs[0].superseded == 1 and engine.stats()["expiry_queue"] == 3
    delta = engine.push(event(2, 4))  # the window starts at 1: :q (ts 0) leaves, :p's stale entry is skipped
    assert delta.removed == [(x("a"), x("b"), x("c"))]
    assert engine.graphs[0].superseded == 0 and engine.graphs[0].wmes[pq[0]] == 6 and pq[1] not in engine.graphs[0].wmes
    assert engine.stats()["wmes"] == 1 and engine.stats()["expiry_queue"] == 1
    engine.push(event(3, 7))  # the window starts at 4: :p (ts 3) leaves
    assert engine.stats()["wmes"] == 0 and engine.stats()["alpha_entries"] == 0


def test_the_working_memory_is_the_alpha_items_and_first_tokens_share_them():
    engine = SparkwaveEngine(query("?x :p ?y . ?y :q ?z"))
    engine.push(event(0, 2, (x("a"), x("p"), x("b"))))
    memory = engine.graphs[0].alpha.by_code[0]
    item = memory.find((x("a"), x("p"), x("b")))
    assert item == (x("a"), x("b"), 11) and engine.graphs[0].wmes[(x("a"), x("p"), x("b"))] == 11  # ts 2 + 10 - 1
    first = next(iter(engine.rete.join_nodes.values())).output
    assert first.held_rows()[0] is item  # the first join's token is the α item itself, not a copy
