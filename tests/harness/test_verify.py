"""Each check ``verify`` makes catches an engine wrong in that one way, and no other check reports it.

Every wrong engine here is the exact baseline with one planted fault: answers wrong at one instant,
answers leaving the window one instant late or early, an istream engine whose Δ⁺ lags, deltas that
contradict themselves while the answers after them stay right, and a fault that shows only at the
instants where the window drops events, which ``--every K`` must still check.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from common.errors import ConfigError
from engines.baselines.reeval import ReevalEngine
from engines.model.query import parse_query
from engines.model.stream import DELETE, INSERT, Delta, Event, Stream, Update, Window
from engines.protocol import Capabilities
from harness.cli import main
from harness.streams import write_stream
from harness.verify import Divergence, checkpoints, verify
from oracles.evaluate import oracle_answers

EX = "http://ex/"
P = f"<{EX}p>"
TEXT = f"SELECT * WHERE {{ ?x {P} ?y }}"
# inserts at these instants; with a 10 ms sliding window (slide 1) the window drops events at
# ts 10, 12 and 14 (event indices 5, 7 and 9), never at a multiple of 4, never at the last event
TIMESTAMPS = (0, 2, 4, 6, 8, 10, 11, 12, 13, 14, 15)
DROPS = {5, 7, 9}
PHANTOM = (f"<{EX}nobody>", f"<{EX}nothing>")


def _insert(index: int) -> Update:
    return Update(INSERT, f"<{EX}s{index}>", P, f"<{EX}o{index}>")


def _mapping(index: int) -> tuple[str, str]:
    return (f"<{EX}s{index}>", f"<{EX}o{index}>")


def sliding_stream() -> Stream:
    return Stream(tuple(Event(i, ts, (_insert(i),)) for i, ts in enumerate(TIMESTAMPS)))


def deleting_stream() -> Stream:
    """Unbounded: inserts, and at events 2 and 5 a deletion of an earlier insert."""
    events = []
    for i in range(8):
        updates = (Update(DELETE, *_insert(i - 2).triple),) if i in (2, 5) else (_insert(i),)
        events.append(Event(i, i, updates))
    return Stream(tuple(events))


def query(window: Window):
    return parse_query(TEXT, window=window.spec(), name="one-pattern")


SLIDING = query(Window.sliding(10, 1))
UNBOUNDED = query(Window("unbounded"))


def kinds(result) -> set[str]:
    return {d.what for d in result.divergences}


def mismatched_instants(result) -> set[int]:
    return {d.event_index for d in result.divergences}


# ------------------------------------------------------------------ wrong engines, one fault each


class LateExpiry(ReevalEngine):
    """Answers leave the window one ms late: its window is 1 ms longer than the query's."""

    name = "late-expiry"

    def __init__(self, query, **options):
        wider = Window.sliding(query.window.range_ms + 1, query.window.slide_ms)
        super().__init__(query.with_window(wider), **options)


class EarlyExpiry(ReevalEngine):
    """Answers leave the window one ms early: its window is 1 ms shorter than the query's."""

    name = "early-expiry"

    def __init__(self, query, **options):
        narrower = Window.sliding(query.window.range_ms - 1, query.window.slide_ms)
        super().__init__(query.with_window(narrower), **options)


class LateDeletions(ReevalEngine):
    """Applies each deletion one event late (unbounded streams): wrong exactly at the deleting instants."""

    name = "late-deletions"

    def __init__(self, query, **options):
        super().__init__(query, **options)
        self.held_back: tuple[Update, ...] = ()

    def push(self, event):
        deletions = tuple(u for u in event.updates if u.op == DELETE)
        now = self.held_back + tuple(u for u in event.updates if u.op != DELETE)
        self.held_back = deletions
        return super().push(Event(event.index, event.ts, now))


class Planted(ReevalEngine):
    """The exact baseline whose delta at event ``AT`` is rewritten by ``plant(delta)``; answers() stays exact."""

    name = "planted"
    AT = 4

    def push(self, event):
        before = set(self.current)
        delta = super().push(event)
        return self.plant(delta, before) if event.index == self.AT else delta

    def plant(self, delta: Delta, before: set) -> Delta:
        raise NotImplementedError


class WrongAtOneInstant(Planted):
    """Adds a phantom answer at event 4 and takes it back at event 5: self-consistent deltas, one wrong instant."""

    name = "wrong-at-one-instant"

    def push(self, event):
        delta = super().push(event)
        if event.index == self.AT + 1:
            return Delta(added=delta.added, removed=[*delta.removed, PHANTOM])
        return delta

    def plant(self, delta, before):
        return Delta(added=[*delta.added, PHANTOM], removed=delta.removed)


class RemovesAbsent(Planted):
    name = "removes-absent"

    def plant(self, delta, before):
        return Delta(added=delta.added, removed=[*delta.removed, PHANTOM])


class AddsHeld(Planted):
    name = "adds-held"

    def plant(self, delta, before):
        kept = sorted(before - set(delta.removed))
        return Delta(added=[*delta.added, kept[0]], removed=delta.removed)


class AddsAndRemoves(Planted):
    name = "adds-and-removes"

    def plant(self, delta, before):
        kept = sorted(before - set(delta.removed))
        return Delta(added=[*delta.added, kept[0]], removed=[*delta.removed, kept[0]])


class LaggingIstream(ReevalEngine):
    """An istream engine whose current answers are exact but whose Δ⁺ at event 4 is reported at event 5."""

    name = "lagging-istream"
    capabilities = Capabilities(windows=ReevalEngine.capabilities.windows, deletions=True, entailment=frozenset({"none"}),
                                static=True, filters=True, output="istream")

    def __init__(self, query, **options):
        super().__init__(query, **options)
        self.owed: list = []

    def push(self, event):
        added = super().push(event).added
        if event.index == 4:
            self.owed, added = added, []
        elif self.owed:
            added, self.owed = [*added, *self.owed], []
        return Delta(added=added)

    def answers(self):
        return Counter(self.current)


# ------------------------------------------------------------------ the checks


def test_the_exact_baseline_agrees_on_these_streams():
    assert verify("reeval", SLIDING, sliding_stream()).agrees
    assert verify("reeval", UNBOUNDED, deleting_stream()).agrees


def test_wrong_answers_at_one_instant_are_caught_by_the_answers_check_alone():
    result = verify(WrongAtOneInstant, SLIDING, sliding_stream())
    assert kinds(result) == {"answers"} and mismatched_instants(result) == {4}
    assert result.first.extra == [PHANTOM] and result.first.missing == []


@pytest.mark.parametrize(("engine", "wrong_at", "side"), [(LateExpiry, DROPS, "extra"), (EarlyExpiry, {6, 8, 10}, "missing")])
def test_answers_late_or_early_at_a_window_boundary_are_caught_by_the_answers_check_alone(engine, wrong_at, side):
    result = verify(engine, SLIDING, sliding_stream())
    assert kinds(result) == {"answers"}
    assert mismatched_instants(result) == wrong_at
    first = result.first
    assert getattr(first, side) and not getattr(first, "missing" if side == "extra" else "extra")


@pytest.mark.parametrize(("engine", "what", "side"), [
    (RemovesAbsent, "removed-absent", "missing"),
    (AddsHeld, "added-held", "extra"),
    (AddsAndRemoves, "added-and-removed", "extra"),
])
def test_a_delta_that_contradicts_itself_is_caught_even_when_the_answers_after_it_are_right(engine, what, side):
    result = verify(engine, SLIDING, sliding_stream())
    assert not result.agrees and result.mismatches == 1
    assert kinds(result) == {what}, "the answers after the delta are right: only the delta check may fire"
    first = result.first
    wrong = [PHANTOM] if engine is RemovesAbsent else [_mapping(0)]  # the held answer the planted delta re-adds
    assert first == Divergence(Planted.AT, TIMESTAMPS[Planted.AT], wrong if side == "missing" else [],
                               wrong if side == "extra" else [], what=what)


def test_an_istream_engine_whose_added_answers_lag_is_caught_by_the_added_check_alone():
    result = verify(LaggingIstream, SLIDING, sliding_stream())
    assert kinds(result) == {"added"} and mismatched_instants(result) == {4, 5}
    held_back, paid_late = result.divergences
    assert (held_back.ts, paid_late.ts) == (TIMESTAMPS[4], TIMESTAMPS[5])  # each names its instant
    # at 4 the new answers are missing from Δ⁺; at 5 they come as extra, the answers new at 5 being right
    assert held_back.missing and held_back.extra == []
    assert paid_late.missing == [] and paid_late.extra == held_back.missing


class WrongWhenBatched(ReevalEngine):
    """Exact one event at a time, wrong through ``feed`` (the batched path external engines and the bench use):
    its batch loses event 4's delta."""

    name = "wrong-when-batched"

    def feed(self, events):
        for event in events:
            delta = self.push(event)
            yield Delta() if event.index == 4 else delta


def test_an_engine_that_batches_is_checked_through_its_batches():
    # verify reads the deltas the way a run gets them: a fault only in the batched path is still caught
    result = verify(WrongWhenBatched, SLIDING, sliding_stream())
    assert not result.agrees and 4 in mismatched_instants(result)


# ------------------------------------------------------------------ --every K


def test_checkpoints_with_every_k_are_the_kth_the_drops_and_the_last():
    stream = sliding_stream()
    count = len(stream.events)
    assert list(checkpoints(SLIDING, stream, 1)) == list(range(count))
    assert list(checkpoints(SLIDING, stream, 4)) == sorted({0, 4, 8, count - 1} | DROPS)
    assert list(checkpoints(query(Window("event")), stream, 4)) == list(range(count))
    assert list(checkpoints(UNBOUNDED, deleting_stream(), 4)) == [0, 2, 4, 5, 7]
    tumbling = query(Window.tumbling(5))  # instances [0,5), [5,10), [10,15): drops at ts 6 (index 3) and ts 10 (index 5)
    assert list(checkpoints(tumbling, stream, 100)) == [0, 3, 5, count - 1]


def test_checkpoints_of_an_empty_stream_are_none():
    assert list(checkpoints(SLIDING, Stream(()), 4)) == [] and list(checkpoints(SLIDING, Stream(()), 1)) == []


def test_checkpoints_are_a_rule_applied_as_the_stream_passes():
    # the rule is a generator over the timeline: it yields the first checkpoint before reading the last event
    from harness.checkpoints import CheckpointRule

    instants = checkpoints(SLIDING, sliding_stream(), 4)
    assert not isinstance(instants, (list, set, tuple)) and next(instants) == 0
    rule = CheckpointRule(SLIDING, 4, len(TIMESTAMPS))
    chosen = [i for i, ts in enumerate(TIMESTAMPS) if rule.checks(i, ts, 1, False)]
    assert chosen == sorted({0, 4, 8, len(TIMESTAMPS) - 1} | DROPS)
    assert len(rule.spans[0].held) <= 10  # the distinct timestamps of one 10 ms range, not the stream's


def test_the_result_says_which_instants_were_checked():
    assert verify("reeval", SLIDING, sliding_stream()).checked == "every instant"
    assert verify("reeval", SLIDING, sliding_stream(), every=4).checked == (
        "every 4th instant, every instant where the window drops events, and the last")


@pytest.mark.parametrize(("engine", "asked"), [("reeval", [0, 4, 5, 7, 8, 9, 10]), (LaggingIstream, [0, 3, 4, 5, 6, 7, 8, 9, 10])])
def test_every_k_asks_the_oracle_only_at_the_checkpoints_and_for_istream_the_instants_before(engine, asked, monkeypatch):
    import harness.verify as module
    from oracles.evaluate import OracleRun

    evaluated = []

    class Recording(OracleRun):
        def answers(self):
            if self._answers is None:  # an evaluation, not the cached answers of the same instant
                evaluated.append(self.window.pushed - 1)
            return super().answers()

    monkeypatch.setattr(module, "OracleRun", Recording)
    result = verify(engine, SLIDING, sliding_stream(), every=4)
    assert evaluated == asked and result.checkpoints == 7


def test_every_k_still_catches_a_fault_that_only_the_window_drop_instants_reveal():
    stream = sliding_stream()
    full = verify(LateExpiry, SLIDING, stream)
    revealing = mismatched_instants(full)
    regular = set(range(0, len(stream.events), 4)) | {len(stream.events) - 1}
    assert revealing == DROPS and not revealing & regular  # the planted fault hides from every K-th instant
    sampled = verify(LateExpiry, SLIDING, stream, every=4)
    assert not sampled.agrees and mismatched_instants(sampled) == DROPS
    assert sampled.checkpoints == len(regular | DROPS)


def test_every_k_still_catches_late_deletions_on_an_unbounded_stream():
    sampled = verify(LateDeletions, UNBOUNDED, deleting_stream(), every=4)
    assert mismatched_instants(sampled) == {2, 5} and kinds(sampled) == {"answers"}


def test_the_cli_every_option_reports_the_drop_instant(tmp_path, capsys, monkeypatch):
    write_stream(sliding_stream(), tmp_path / "stream")
    (tmp_path / "q.rq").write_text(TEXT)
    monkeypatch.setitem(__import__("engines.registry").registry.BUILTIN, "late-expiry", f"{__name__}:LateExpiry")
    code = main(["verify", "--engine", "late-expiry", "--stream", str(tmp_path / "stream"), "--query", str(tmp_path / "q.rq"),
                 "--window", "sliding:10:1", "--every", "4", "--json", "--no-reproducer"])
    verdict = json.loads(capsys.readouterr().out)
    assert code == 1 and verdict["first_divergence"]["event"] == 5 and verdict["first_divergence"]["what"] == "answers"
    assert verdict["checkpoints"] == 7 and verdict["mismatches"] == 3


# ------------------------------------------------------------ the result's bookkeeping


def test_divergences_are_capped_but_every_mismatch_is_counted():
    result = verify(LateExpiry, SLIDING, sliding_stream(), max_divergences=2)
    assert result.mismatches == 3 and [d.event_index for d in result.divergences] == [5, 7]
    result = verify(RemovesAbsent, SLIDING, sliding_stream(), max_divergences=0)
    assert result.mismatches == 1 and result.divergences == [] and result.first is None and not result.agrees


def test_a_shared_oracle_pass_gives_the_same_verdict_and_must_cover_the_stream():
    stream = sliding_stream()
    shared = list(oracle_answers(SLIDING, stream))
    for every in (1, 4):
        alone, sharing = verify(LateExpiry, SLIDING, stream, every=every), verify(LateExpiry, SLIDING, stream, every=every, oracle_results=shared)
        assert (sharing.mismatches, sharing.checkpoints, sharing.divergences) == (alone.mismatches, alone.checkpoints, alone.divergences)
    with pytest.raises(ValueError, match="oracle_results has 10 instants for a stream of 11 events"):
        verify("reeval", SLIDING, stream, oracle_results=shared[:-1])


def test_progress_is_reported_after_every_event_and_the_result_describes_the_run():
    seen = []
    result = verify("reeval", SLIDING, sliding_stream(), oracle="plain", progress=seen.append)
    assert seen == list(range(len(TIMESTAMPS)))
    assert (result.engine, result.query, result.window, result.oracle, result.events, result.checkpoints) == (
        "reeval", "one-pattern", "sliding:10:1", "plain", len(TIMESTAMPS), len(TIMESTAMPS))
    assert result.agrees and result.first is None and result.reproducer is None


def test_a_divergence_reads_as_json_with_plain_variable_names_and_sorted_mappings():
    divergence = Divergence(3, 30, [("<b>", "<c>"), ("<a>", "<c>")], [("<z>", "<z>")], what="answers")
    assert divergence.as_json(["?x", "?y"]) == {"event": 3, "ts": 30, "what": "answers", "vars": ["x", "y"],
                                                 "missing": [["<a>", "<c>"], ["<b>", "<c>"]], "extra": [["<z>", "<z>"]]}


def test_engine_options_reach_the_engine():
    result = verify("spectra-rev", SLIDING, sliding_stream(), engine_options={"reevaluate": "on-change"})
    assert result.agrees
    with pytest.raises(ConfigError, match="reevaluate must be one of"):
        verify("spectra-rev", SLIDING, sliding_stream(), engine_options={"reevaluate": "never"})


def test_the_spark_oracle_is_asked_on_one_session_for_the_checkpoints(monkeypatch):
    # the wiring only (a Spark session takes seconds to start; tests/oracles checks the Spark oracle itself):
    # `--oracle spark` hands the Spark oracle the session, this query and stream, and the checked instants
    import harness.spark
    import oracles.spark

    session, calls = object(), []

    def spark_oracle(spark, query, stream, instants):
        instants = list(instants)
        calls.append((spark, query, stream, instants))
        return oracle_answers(query, stream, instants=instants, oracle="rdflib")

    monkeypatch.setattr(harness.spark, "spark_session", lambda app_name: session)
    monkeypatch.setattr(oracles.spark, "oracle_answers", spark_oracle)
    stream = sliding_stream()
    result = verify("reeval", SLIDING, stream, oracle="spark", every=4)
    assert result.agrees and result.oracle == "spark"
    assert calls == [(session, SLIDING, stream, list(checkpoints(SLIDING, stream, 4)))]


def test_a_stream_opened_from_disk_goes_to_the_spark_oracle_as_its_directory(monkeypatch, tmp_path):
    # the directory entry reads the stream on Spark's executors; the engine side streams it batch by batch
    import harness.spark
    import oracles.spark
    from harness.streams.reader import open_stream

    session, calls = object(), []
    whole = sliding_stream()

    def from_directory(spark, query, stream_dir, instants, *, max_events=None, validate=True, merge_order=None):
        instants = list(instants)
        calls.append((spark, query, stream_dir, instants, max_events))
        return oracle_answers(query, whole, instants=instants, oracle="rdflib")

    monkeypatch.setattr(harness.spark, "spark_session", lambda app_name: session)
    monkeypatch.setattr(oracles.spark, "oracle_answers_from_directory", from_directory)
    directory = write_stream(whole, tmp_path / "stream")
    source = open_stream(directory, batch_rows=2)
    result = verify("reeval", SLIDING, source, oracle="spark", every=4)
    assert result.agrees and result.events == len(whole.events)
    assert calls == [(session, SLIDING, str(directory), list(checkpoints(SLIDING, whole, 4)), None)]
