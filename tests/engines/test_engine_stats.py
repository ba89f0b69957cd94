"""Every engine's ``stats()`` reports the sizes of its structures exactly, on a stream small enough to count by hand.

The stats are what the memory analysis of ``cgpm bench`` reads; the mutation run (docs/verification.md)
found that no other test would notice a wrong one. The stream: ``a p b`` at 0, ``b q c`` at 1 (one match
of the chain), an unrouted ``x r y`` at 2, ``d p e`` at 12 (the 10 ms window drops everything before 3),
and an empty event at 13 (the window does not change: re-evaluation engines do not join).
"""

from __future__ import annotations

import pytest

from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Event, Update
from engines.registry import get_engine

EX = "http://ex/"


def iri(name: str) -> str:
    return f"<{EX}{name}>"


def ev(index: int, ts: int, *updates: tuple[int, str, str, str]) -> Event:
    return Event(index, ts, tuple(Update(op, iri(s), iri(p), iri(o)) for op, s, p, o in updates))


def chain(window: str):
    return parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y . ?y :q ?z }}", window=window)


STATIC = (iri("s"), iri("q"), iri("t"))
WINDOWED = [ev(0, 0, (INSERT, "a", "p", "b")), ev(1, 1, (INSERT, "b", "q", "c")), ev(2, 2, (INSERT, "x", "r", "y")),
            ev(3, 12, (INSERT, "d", "p", "e")), ev(4, 13)]


def stats_along(name: str, query, stream, static=()) -> list[dict]:
    engine = get_engine(name)(query, static=static)
    out = []
    for event in stream:
        engine.push(event)
        out.append(engine.stats())
    return out


def column(rows: list[dict], key: str) -> list:
    return [row.get(key, 0) for row in rows]


def test_reeval_counts_window_index_answers_and_joins_only_when_the_window_changed():
    rows = stats_along("reeval", chain("sliding:10:1"), WINDOWED, static=[STATIC])
    assert column(rows, "window_triples") == [1, 2, 3, 1, 1]
    assert column(rows, "indexed_triples") == [2, 3, 4, 2, 2]  # the static triple is indexed for ever
    assert column(rows, "answers") == [0, 1, 1, 0, 0]
    assert column(rows, "evaluations") == [1, 2, 3, 4, 4]  # the empty event at 13 changes nothing: no join


def test_oxigraph_counts_window_store_and_answers():
    rows = stats_along("oxigraph", chain("sliding:10:1"), WINDOWED, static=[STATIC])
    assert rows == [{"window_triples": w, "store_quads": q, "answers": a}
                    for w, q, a in [(1, 2, 0), (2, 3, 1), (3, 4, 1), (1, 2, 0), (1, 2, 0)]]


def test_scan_counts_triples_and_term_characters():
    rows = stats_along("scan", chain("sliding:10:1"), WINDOWED)
    per_triple = len(iri("a")) * 3  # every term here is 13 characters
    assert rows == [{"triples": n, "term_characters": n * per_triple} for n in (1, 2, 3, 4, 4)]
    two = stats_along("scan", chain("sliding:10:1"), [ev(0, 0, (INSERT, "a", "p", "b"), (INSERT, "ab", "p", "b"))])
    assert two == [{"triples": 2, "term_characters": 2 * per_triple + 1}]  # every update of an event counts


@pytest.mark.parametrize(("name", "evaluations"), [
    ("spectra", None), ("spectra-rev", [1, 2, 3, 4, 5]), ("spectra-rev-onchange", [1, 2, 2, 3, 3]),
])
def test_spectra_counts_window_views_dictionary_and_matches(name, evaluations):
    rows = stats_along(name, chain("sliding:10:1"), WINDOWED)
    assert column(rows, "window_triples") == [1, 2, 2, 1, 1]  # x r y is pruned by the summary
    assert column(rows, "timelist_entries") == [1, 2, 2, 1, 1]
    assert column(rows, "view_rows") == [1, 2, 2, 1, 1]
    assert column(rows, "view_cells") == [1, 2, 2, 1, 1]  # each view is indexed by ?y alone, the one join variable
    assert column(rows, "dictionary_terms") == [3, 5, 5, 3, 3]  # a p b, + q c; then d p e alone
    assert column(rows, "static_triples") == [0] * 5
    assert column(rows, "matches") == [0, 1, 1, 0, 0]
    if evaluations is None:
        assert column(rows, "matched_values") == [0, 1, 1, 0, 0]  # the match's ?y, the anchor of both patterns
    else:
        assert column(rows, "evaluations") == evaluations


def test_spectra_counts_static_triples_apart():
    rows = stats_along("spectra", chain("sliding:10:1"), WINDOWED[:2], static=[STATIC])
    assert column(rows, "static_triples") == [1, 1] and column(rows, "window_triples") == [1, 2]


@pytest.mark.parametrize("name", ["delta", "delta-generic"])
def test_delta_counts_updates_static_updates_and_structures(name):
    stream = [ev(0, 0, (INSERT, "a", "p", "b")), ev(1, 1, (INSERT, "b", "q", "c"), (INSERT, "b", "q", "c2")),
              ev(2, 2, (DELETE, "a", "p", "b")), ev(3, 3, (INSERT, "s", "q", "t"))]
    rows = stats_along(name, chain("unbounded"), stream, static=[STATIC])
    assert column(rows, "components") == [1] * 4 and column(rows, "static_triples") == [1] * 4
    assert column(rows, "updates") == [1, 3, 4, 4]
    assert column(rows, "static_updates_ignored") == [0, 0, 0, 1]
    assert column(rows, "kept_answers") == [0] * 4  # one component: its answers are not kept apart
    # only ?y's star keeps a list (?x's and ?z's patterns are in it): records at s (static s q t) and b
    assert column(rows, "star_records") == [2, 2, 2, 2]
    assert column(rows, "star_complete") == [0, 1, 0, 0]
    assert column(rows, "summary_values") == [2, 4, 3, 3]
    # the query's :p :q, the static s t, then a b, c c2; a leaves with (a p b), b stays with (b q c)
    assert column(rows, "terms") == [6, 8, 7, 7]


def test_delta_counts_ground_bits_and_kept_answers_of_several_components():
    query = parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x :p ?y . ?y :q ?z . :a :r :b . ?w :s :a }}", window="unbounded")
    stream = [ev(0, 0, (INSERT, "a", "r", "b")), ev(1, 1, (INSERT, "a", "p", "b"), (INSERT, "b", "q", "c")),
              ev(2, 2, (INSERT, "w", "s", "a")), ev(3, 3, (DELETE, "a", "r", "b"))]
    rows = stats_along("delta", query, stream)
    assert column(rows, "components") == [3] * 4
    assert column(rows, "ground_patterns") == [1] * 4
    assert column(rows, "ground_bits_set") == [1, 1, 1, 0]
    assert column(rows, "kept_answers") == [0, 1, 1, 1]  # the chain's answer, kept for the product


SPARKWAVE_KEYS = {"epsilon_property_nodes", "epsilon_class_nodes", "epsilon_links", "alpha_memories", "alpha_entries",
                  "join_nodes", "beta_memories", "tokens", "complete_matches", "tokens_refused", "wmes", "expiry_queue",
                  "answers"}


def test_sparkwave_counts_memories_tokens_matches_and_its_expiry_queue():
    rows = stats_along("sparkwave", chain("sliding:10:1"), WINDOWED)
    assert all(set(row) == SPARKWAVE_KEYS for row in rows)
    assert column(rows, "alpha_memories") == [2] * 5 and column(rows, "join_nodes") == [2] * 5  # one per pattern
    assert column(rows, "beta_memories") == [2] * 5
    assert column(rows, "alpha_entries") == [1, 2, 2, 1, 1]  # x r y passes no α test: never a WME
    assert column(rows, "wmes") == [1, 2, 2, 1, 1] and column(rows, "expiry_queue") == [1, 2, 2, 1, 1]
    assert column(rows, "tokens") == [1, 2, 2, 1, 1]  # a p b's partial token, then the complete one
    assert column(rows, "complete_matches") == [0, 1, 1, 0, 0] and column(rows, "answers") == [0, 1, 1, 0, 0]
    assert column(rows, "tokens_refused") == [0] * 5
    assert column(rows, "epsilon_links") == [0] * 5  # no entailment: no ε node


def test_sparkwave_counts_the_epsilon_nodes_and_links_it_keeps():
    rdfs = "http://www.w3.org/2000/01/rdf-schema#"
    schema = [(iri("Student"), f"<{rdfs}subClassOf>", iri("Person")), (iri("p"), f"<{rdfs}domain>", iri("Student"))]
    query = parse_query(f"PREFIX : <{EX}>\nSELECT * WHERE {{ ?x a :Person . ?x :p ?y }}", window="sliding:10:1",
                        entailment="rdfs")
    stats = get_engine("sparkwave")(query, schema=schema).stats()
    # :p (domain Student), Student and Person; links :p -> Student (rdfs2) and Student -> Person (rdfs9)
    assert (stats["epsilon_property_nodes"], stats["epsilon_class_nodes"], stats["epsilon_links"]) == (1, 2, 2)


TPJOIN_KEYS = {"view_triples", "view_keys", "dictionary_terms", "persistent_terms", "automata"}


@pytest.mark.parametrize(("name", "automata", "joins"), [("tpjoin-lazy", [0, 1, 1, 2, 2], [0, 1, 1, 1, 1]),
                                                         ("tpjoin-eager", [1, 2, 2, 2, 2], [1, 2, 2, 3, 3])])
def test_tpjoin_incremental_counts_views_dictionary_automata_and_joins(name, automata, joins):
    rows = stats_along(name, chain("sliding:10:1"), WINDOWED)
    assert all(set(row) == TPJOIN_KEYS | {"window_triples", "matches", "joins", "retractions"} for row in rows)
    assert column(rows, "window_triples") == [1, 2, 2, 1, 1] and column(rows, "view_triples") == [1, 2, 2, 1, 1]
    assert column(rows, "view_keys") == [1, 2, 2, 1, 1]
    assert column(rows, "dictionary_terms") == [4, 5, 5, 4, 4]  # :p and :q for ever, then the window's terms
    assert column(rows, "persistent_terms") == [2] * 5 and column(rows, "matches") == [0, 1, 1, 0, 0]
    # at 12, a p b and b q c leave: the pass seeded by a p b finds f's one match, which is all of f, so b q c's pass is skipped
    assert column(rows, "retractions") == [0, 0, 0, 1, 1]
    # lazy joins once every view has a row; eager joins from each arrival, one automaton per seed pattern (lazy
    # compiles its second at 12, where a p b seeds the retraction)
    assert column(rows, "automata") == automata and column(rows, "joins") == joins


@pytest.mark.parametrize(("name", "runs"), [("tpjoin-event", [1, 1, 2]), ("tpjoin-event-nopart", [1, 2, 3])])
def test_tpjoin_event_counts_automaton_runs_and_keeps_only_the_query_s_terms(name, runs):
    stream = [ev(0, 0, (INSERT, "a", "p", "b"), (INSERT, "b", "q", "c")), ev(1, 1, (INSERT, "d", "p", "e")),
              ev(2, 2, (INSERT, "d", "p", "b"), (INSERT, "b", "q", "c"))]
    rows = stats_along(name, chain("event"), stream)
    assert all(set(row) == TPJOIN_KEYS | {"answers", "automaton_runs"} for row in rows)
    # each event is its own window: the views and the event's terms are gone once it is answered
    assert column(rows, "view_triples") == [0] * 3 and column(rows, "dictionary_terms") == [2] * 3
    assert column(rows, "automata") == [1] * 3 and column(rows, "answers") == [1, 0, 1]
    # the partitioned engine skips event 1, whose partition has no :q triple
    assert column(rows, "automaton_runs") == runs
