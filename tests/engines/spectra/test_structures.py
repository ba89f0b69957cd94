"""The SPECTRA data structures on their own: the timelist's eviction order, a view's indexes at every arity and its buckets, the dictionary's ids."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engines.spectra.dictionary import TermDictionary
from engines.spectra.joins import JoinPlanner
from engines.spectra.siblings import MatchedValues, anchor_variables
from engines.spectra.timelist import Timelist
from engines.spectra.views import SMALL, View


def t(n: int) -> tuple[int, int, int]:
    """A distinct encoded triple for each n."""
    return (n, 7, n + 1)


def test_an_empty_timelist_evicts_nothing_and_never_expires():
    timelist = Timelist()
    assert timelist.evict_before(10**9) == [] and timelist.oldest == float("inf") and len(timelist) == 0


def test_eviction_takes_the_stamps_below_the_cutoff_and_keeps_the_cutoff_itself():
    timelist = Timelist()
    for n, stamp in [(1, 1), (2, 1), (3, 2), (4, 5)]:
        timelist.add(t(n), stamp)
    assert timelist.oldest == 1 and timelist.entries == 4 and len(timelist) == 4
    assert timelist.evict_before(1) == []  # nothing is below 1
    assert timelist.evict_before(2) == [t(1), t(2)] and timelist.oldest == 2 and len(timelist) == 2
    assert timelist.evict_before(5) == [t(3)] and timelist.oldest == 5 and timelist.entries == 1
    assert timelist.evict_before(6) == [t(4)] and timelist.oldest == float("inf") and timelist.entries == 0
    timelist.add(t(5), 7)
    assert timelist.oldest == 7  # a new first entry sets the oldest stamp again


def test_a_triple_stamped_again_leaves_with_its_last_occurrence_only():
    timelist = Timelist()
    timelist.add(t(1), 1)
    timelist.add(t(2), 2)
    timelist.restamp(t(1), 3)
    timelist.restamp(t(1), 3)  # twice in one event
    assert timelist.entries == 4 and len(timelist) == 2
    assert timelist.evict_before(3) == [t(2)] and len(timelist) == 1
    assert timelist.evict_before(4) == [t(1)] and len(timelist) == 0 and not timelist._later


def test_the_same_stamp_after_an_eviction_of_everything_starts_a_new_batch():
    timelist = Timelist()
    timelist.add(t(1), 1)
    assert timelist.evict_before(2) == [t(1)]
    timelist.add(t(2), 2)
    timelist.add(t(3), 2)
    assert timelist.oldest == 2 and timelist.evict_before(3) == [t(2), t(3)]


def test_long_timelists_compact_their_evicted_prefix_and_keep_their_order():
    timelist = Timelist()
    for stamp in range(3000):
        timelist.add(t(stamp), stamp)
    assert timelist.evict_before(2000) == [t(n) for n in range(2000)]
    assert len(timelist._stamps) == 1000 and timelist._head == 0  # compacted: more than half was evicted
    assert timelist.oldest == 2000 and timelist.entries == 1000
    assert timelist.evict_before(2500) == [t(n) for n in range(2000, 2500)]
    timelist.add(t(9999), 4000)
    assert timelist.evict_before(4001) == [*(t(n) for n in range(2500, 3000)), t(9999)]


@pytest.mark.parametrize(("arity", "rows"), [
    (0, [()]),
    (1, [1, 2]),
    (2, [(1, 2), (1, 3), (4, 2)]),
    (3, [(1, 2, 3), (1, 5, 6), (7, 2, 3)]),
])
def test_a_view_holds_exactly_its_rows_at_every_arity(arity, rows):
    view = View(arity)
    assert () not in view if arity == 0 else all(row not in view for row in rows)
    for row in rows:
        view.add(row)
    assert view.size == len(rows) and sorted(view.rows()) == sorted(rows)
    assert all(row in view for row in rows)
    assert view.cells() == len(rows) * (max(arity, 1) if arity >= 2 else 1)
    for row in rows:
        view.remove(row)
    assert view.size == 0 and list(view.rows()) == [] and all(row not in view for row in rows)
    assert view.values == set() and all(not by_value for by_value in view.index)


@pytest.mark.parametrize(("arity", "indexed", "rows"), [
    (2, [0], [(1, 2), (1, 3), (4, 2)]),
    (2, [1], [(1, 2), (1, 3), (4, 2)]),
    (3, [1], [(1, 2, 3), (1, 5, 6), (7, 2, 3)]),
    (3, [0, 2], [(1, 2, 3), (1, 5, 6), (7, 2, 3)]),
])
def test_a_view_indexed_at_some_positions_holds_the_same_rows_and_only_those_indexes(arity, indexed, rows):
    view = View(arity, indexed)
    for row in rows:
        view.add(row)
    assert [by_value is not None for by_value in view.index] == [k in indexed for k in range(arity)]
    assert sorted(view.rows()) == sorted(rows) and all(row in view for row in rows)
    assert (9, 9) not in view if arity == 2 else (9, 9, 9) not in view
    assert view.cells() == len(rows) * len(indexed)
    for row in rows:
        view.remove(row)
    assert view.size == 0 and list(view.rows()) == [] and all(not by_value for by_value in view.index if by_value is not None)


def test_a_bucket_is_a_tuple_until_it_grows_past_small_and_a_tuple_again_once_it_shrinks_well_below():
    view = View(2)
    forward, backward = view.index
    for o in range(SMALL):
        view.add((1, o))
    assert forward[1] == tuple(range(SMALL)) and backward[3] == (1,)
    view.add((1, SMALL))
    assert forward[1] == set(range(SMALL + 1))  # past SMALL: a set, so add, remove and ``in`` stay constant-time
    for o in range(SMALL // 2 + 1):
        view.remove((1, o))
    assert isinstance(forward[1], tuple) and sorted(forward[1]) == list(range(SMALL // 2 + 1, SMALL + 1))
    view.remove((1, SMALL))
    assert sorted(forward[1]) == list(range(SMALL // 2 + 1, SMALL)) and (1, SMALL) not in view
    assert 3 not in backward and backward[SMALL - 1] == (1,)


def test_a_view_of_pairs_answers_by_either_end_and_forgets_emptied_keys():
    view = View(2)
    for row in [(1, 2), (1, 3), (4, 2)]:
        view.add(row)
    forward, backward = view.index
    assert forward == {1: (2, 3), 4: (2,)} and backward == {2: (1, 4), 3: (1,)}
    assert (1, 4) not in view and (9, 2) not in view
    assert view.fanout(0) == 1.5 and view.fanout(1) == 1.5
    view.remove((1, 3))
    assert forward == {1: (2,), 4: (2,)} and backward == {2: (1, 4)}


def test_view_fanout_of_single_values_and_of_an_empty_view():
    single = View(1)
    assert single.fanout(0) == 0.0
    single.add("x")
    assert single.fanout(0) == 1.0
    wide = View(3)
    assert wide.fanout(2) == 0.0
    wide.add((1, 2, 3))
    wide.add((1, 2, 4))
    assert wide.fanout(0) == 2.0 and wide.fanout(2) == 1.0


def test_the_dictionary_counts_holders_and_forgets_a_term_with_its_last_holder():
    dictionary = TermDictionary()
    first = dictionary.encode_triple("<a>", "<p>", "<b>")
    second = dictionary.encode_triple("<a>", "<p>", "<c>")
    assert first[:2] == second[:2] and first[2] != second[2] and len(dictionary) == 4
    assert dictionary.encode("<a>") == first[0] and dictionary.decode(first[2]) == "<b>"
    dictionary.hold(first)
    dictionary.hold(second)
    dictionary.release(first)
    assert "<b>" not in dictionary and "<a>" in dictionary and "<p>" in dictionary and len(dictionary) == 3
    dictionary.release(second)
    assert len(dictionary) == 0
    dictionary.recycle()
    assert sorted(dictionary.encode(term) for term in ("<x>", "<y>", "<z>", "<w>")) == [0, 1, 2, 3]  # all reused


def test_a_short_evicted_prefix_is_skipped_not_compacted():
    """Compaction copies the live entries: it waits for a long evicted prefix so that its cost stays amortised."""
    timelist = Timelist()
    for stamp in range(4):
        timelist.add(t(stamp), stamp)
    assert timelist.evict_before(3) == [t(0), t(1), t(2)]
    assert timelist._head == 3 and len(timelist._stamps) == 4


def test_compaction_starts_once_more_than_1024_stamps_and_more_than_half_are_evicted():
    """Both bounds of the amortisation rule, at their edges: 1 025 evicted of 1 050 compacts, 1 100 of 3 000 does not."""
    timelist = Timelist()
    for stamp in range(1050):
        timelist.add(t(stamp), stamp)
    assert timelist.evict_before(1025) == [t(n) for n in range(1025)]
    assert timelist._head == 0 and len(timelist._stamps) == 25
    timelist = Timelist()
    for stamp in range(3000):
        timelist.add(t(stamp), stamp)
    assert timelist.evict_before(1100) == [t(n) for n in range(1100)]
    assert timelist._head == 1100 and len(timelist._stamps) == 3000  # a third evicted: not yet worth the copy


def _planner(row_variables: list[tuple[int, ...]], rows: list[list]) -> JoinPlanner:
    """A planner over hand-filled views; the greedy order reads only each pattern's variables and view."""
    views = []
    for variables, view_rows in zip(row_variables, rows, strict=True):
        view = View(len(variables))
        for row in view_rows:
            view.add(row)
        views.append(view)
    shapes = [SimpleNamespace(row_variables=variables) for variables in row_variables]
    return JoinPlanner(shapes, views, variable_count=1 + max(max(v) for v in row_variables))


def test_the_join_order_takes_the_smallest_fanout_through_a_bound_variable_first():
    # pattern 1 (?0 ?1): 4 rows per ?0; pattern 2 (?0 ?2): 1 row per ?0
    planner = _planner([(0,), (0, 1), (0, 2)], [[1], [(1, n) for n in range(4)], [(1, 9), (2, 9)]])
    assert planner.order(0) == (0, 2, 1)


def test_a_cross_product_goes_after_every_bound_pattern_unless_its_view_is_empty():
    # pattern 1 (?1 ?2) shares nothing with the seed: a cross product, last although its view holds one row
    planner = _planner([(0,), (1, 2), (0, 3)], [[1], [(5, 6)], [(1, n) for n in range(5)]])
    assert planner.order(0) == (0, 2, 1)
    # an empty view ends the join at once: its cross product goes before a bound pattern of fan-out 0
    planner = _planner([(0,), (0, 3), (1, 2)], [[1], [], []])
    assert planner.order(0) == (0, 2, 1)


def test_an_order_is_compiled_once_and_its_steps_reused():
    planner = _planner([(0,), (0, 1)], [[1], [(1, 2)]])
    assert planner.compile((0, 1)) is planner.compile((0, 1))
    assert planner.extend((0, 1), [(1,)]) == [(1, 2)]


def test_anchors_share_the_variable_most_patterns_have_and_patterns_without_variables_have_none():
    shapes = [SimpleNamespace(row_variables=variables, arity=len(variables)) for variables in [(0, 1), (0, 2), (0, 3)]]
    assert anchor_variables(shapes) == {0: 0, 1: 0, 2: 0}  # a star: one count per centre value
    chain = [SimpleNamespace(row_variables=variables, arity=len(variables)) for variables in [(0, 1), (1, 2), (2, 3), ()]]
    assert anchor_variables(chain) == {0: 1, 1: 1, 2: 2}


def test_matched_values_let_through_only_rows_whose_anchor_value_a_current_match_has():
    shapes = [SimpleNamespace(row_variables=variables, arity=len(variables)) for variables in [(0, 1), (0,), ()]]
    matched = MatchedValues(shapes)
    assert matched.candidates(0, [(5, 6)]) == [] and matched.candidates(2, [()]) == [()]
    matched.enter([(5, 6), (5, 7), (8, 9)])
    assert matched.candidates(0, [(5, 1), (6, 1), (8, 2)]) == [(5, 1), (8, 2)] and matched.candidates(1, [5, 6]) == [5]
    matched.leave([(5, 6), (8, 9)])
    assert matched.candidates(0, [(5, 1), (8, 2)]) == [(5, 1)] and matched.values() == 1
    matched.leave([(5, 7)])
    assert matched.values() == 0
