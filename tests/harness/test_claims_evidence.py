"""A claim's verdict rests on its evidence: planted falsifications of a published folder are each caught.

Each test writes a small published folder (``repetitions.csv`` and ``run.json``) and a claim file, plants one
falsification (repetitions removed, a metric blanked, one engine's answers altered, a noisy machine, no answers,
a break-even gone, a spread across the target) and checks the verdict ``harness.claims.judge`` gives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from harness.claims.judge import judge_experiment
from harness.claims.model import load_experiment

DIGEST = "00000000deadbeef"


def _rows(engine: str, rates: list[float | None], *, window: str = "sliding:1000:1", digest: str | None = DIGEST,
          added: int | None = 40, status: str = "ok", **extra) -> list[dict]:
    removed = None if added is None else added - 1
    return [{"engine": engine, "query": "L1", "window": window, "repetition": index, "status": status,
             "events_per_s": rate, "events": 1000, "triples": 20000, "added": added, "removed": removed,
             "answers_added": added, "answers_removed": removed, "answer_digest": digest, "noisy": False,
             "load_start": 0.9, "load_end": 1.1, "cores": 2,
             **{key: value[index] if isinstance(value, list) else value for key, value in extra.items()}}
            for index, rate in enumerate(rates)]


FAST = [500.0, 520.0, 510.0, 490.0, 505.0]
SLOW = [100.0, 101.0, 99.0, 100.0, 102.0]


def _judge(tmp_path: Path, rows: list[dict], claim: str, **file_keys) -> object:
    folder = tmp_path / "published" / "run"
    folder.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(folder / "repetitions.csv", index=False)
    (folder / "run.json").write_text(json.dumps({"config": {"timeout_s": 60.0}}))
    keys = "".join(f"{key} = {value}\n" for key, value in file_keys.items())
    path = tmp_path / "claims.toml"
    path.write_text(f'paper = "spectra"\ncitation = "c"\nfigure = "f"\nconfig = "c.toml"\npublished = "run"\n{keys}'
                    f"\n[[claim]]\n{claim}")
    [verdict] = judge_experiment(load_experiment(path), tmp_path / "published")
    return verdict


RATIO = '''id = "fast"
text = "spectra is at least 3x reeval"
kind = "ratio"
metric = "events_per_s"
numerator = "spectra"
denominator = "reeval"
cell = { query = "L1", window = "sliding:1000:1" }
relation = ">= 3"
'''


def test_the_honest_folder_is_met_with_its_evidence_named(tmp_path):
    verdict = _judge(tmp_path, _rows("spectra", FAST) + _rows("reeval", SLOW), RATIO)
    assert verdict.verdict == "met" and verdict.n == 5
    assert "equal answer digests" in verdict.evidence and "quiet machine" in verdict.evidence


def test_four_of_five_denominator_repetitions_removed_show_nothing(tmp_path):
    verdict = _judge(tmp_path, _rows("spectra", FAST) + _rows("reeval", SLOW)[:1], RATIO)
    assert verdict.verdict == "not-shown" and "n=1 < 5" in verdict.evidence


def test_a_metric_blanked_in_four_of_five_ok_rows_shows_nothing(tmp_path):
    verdict = _judge(tmp_path, _rows("spectra", FAST) + _rows("reeval", [100.0, None, None, None, None]), RATIO)
    assert verdict.verdict == "not-shown" and "n=1 < 5" in verdict.evidence


def test_a_file_may_ask_for_fewer_repetitions_and_says_so(tmp_path):
    verdict = _judge(tmp_path, _rows("spectra", FAST[:3]) + _rows("reeval", SLOW[:3]), RATIO, repetitions=3)
    assert verdict.verdict == "met" and verdict.n == 3


def test_one_engines_answers_altered_make_the_claim_invalid(tmp_path):
    rows = _rows("spectra", FAST) + _rows("reeval", SLOW, digest="00000000deadbeee")
    verdict = _judge(tmp_path, rows, RATIO)
    assert verdict.verdict == "invalid" and "digests differ" in verdict.evidence and "reeval" in verdict.evidence


def test_before_digests_unequal_answer_counts_make_the_claim_invalid(tmp_path):
    rows = _rows("spectra", FAST) + _rows("reeval", SLOW, added=41)
    for row in rows:
        row.pop("answer_digest")
    verdict = _judge(tmp_path, rows, RATIO)
    assert verdict.verdict == "invalid" and "answer counts" in verdict.evidence


def test_a_cell_that_answers_nothing_measures_nothing_unless_a_cost_floor(tmp_path):
    empty = _rows("spectra", FAST, added=0, removed=0, answers_removed=0, digest="0" * 16) + \
        _rows("reeval", SLOW, added=0, removed=0, answers_removed=0, digest="0" * 16)
    verdict = _judge(tmp_path, empty, RATIO)
    assert verdict.verdict == "not-shown" and "measures no answers" in verdict.evidence
    floor = _judge(tmp_path / "floor", empty, RATIO + "cost_floor = true\n")
    assert floor.verdict == "met" and "cost floor" in floor.evidence


def test_a_cost_floor_still_needs_its_engines_to_agree(tmp_path):
    rows = _rows("spectra", FAST, added=3, digest="00000000000000aa") + \
        _rows("reeval", SLOW, added=0, removed=0, answers_removed=0, digest="0" * 16)
    assert _judge(tmp_path, rows, RATIO + "cost_floor = true\n").verdict == "invalid"


def test_the_cost_floors_own_repetitions_count_though_its_answers_do_not(tmp_path):
    scan = RATIO.replace('numerator = "spectra"', 'numerator = "scan"').replace(">= 3", ">= 0.1")
    rows = _rows("scan", FAST[:1], digest="0" * 16, added=0) + _rows("reeval", SLOW)
    verdict = _judge(tmp_path, rows, scan)
    assert verdict.verdict == "not-shown" and "scan has 1" in verdict.evidence


def test_a_noisy_machine_leaves_the_claim_undecided(tmp_path):
    rows = _rows("spectra", FAST) + _rows("reeval", SLOW)
    rows[3].update(noisy=True, load_start=17.3)
    verdict = _judge(tmp_path, rows, RATIO)
    assert verdict.verdict == "undecided" and "noisy machine" in verdict.evidence and "17.30" in verdict.evidence


def test_a_row_noisy_by_its_stolen_time_says_so_not_a_quiet_rows_load(tmp_path):
    # the hypervisor gave 5.1% of the cell's CPU time to another guest at a load of 0.5: the reason is the steal,
    # and the load of a quiet row (1.9) is not what made it noisy
    rows = _rows("spectra", FAST) + _rows("reeval", SLOW)
    rows[0].update(load_start=1.9, load_end=1.9, cores=2, steal_share=0.0, noisy=False)
    rows[3].update(noisy=True, load_start=0.5, load_end=0.5, cores=2, steal_share=0.0513)
    evidence = _judge(tmp_path, rows, RATIO).evidence
    assert "CPU time stolen up to 5.1%" in evidence and "load average up to 0.50 on 2 cores" in evidence, evidence


def test_a_spread_across_the_target_is_undecided_not_met(tmp_path):
    # per round: 5.0, 2.6, 5.1, 2.45, 4.95: the median 4.95 meets ">= 3", the lower quartile 2.6 does not
    rows = _rows("spectra", [500.0, 260.0, 510.0, 245.0, 495.0]) + _rows("reeval", [100.0] * 5)
    verdict = _judge(tmp_path, rows, RATIO)
    assert verdict.verdict == "undecided" and "crosses the target" in verdict.evidence


BREAK_EVEN = '''id = "even"
text = "spectra is ahead of reeval from a window of at most 1000"
kind = "break-even"
metric = "events_per_s"
numerator = "spectra"
denominator = "reeval"
cell = { query = "L1" }
relation = "<= 1000"
'''


def test_a_break_even_that_never_happens_is_missed(tmp_path):
    rows = [row for window in ("sliding:100:1", "sliding:1000:1", "sliding:10000:1")
            for row in _rows("spectra", SLOW, window=window) + _rows("reeval", FAST, window=window)]
    verdict = _judge(tmp_path, rows, BREAK_EVEN)
    assert verdict.verdict == "missed" and verdict.value == float("inf")


def test_a_break_even_that_happens_is_met(tmp_path):
    rows = [row for window, (spectra, reeval) in {"sliding:100:1": (SLOW, FAST), "sliding:1000:1": (FAST, SLOW),
                                                   "sliding:10000:1": (FAST, SLOW)}.items()
            for row in _rows("spectra", spectra, window=window) + _rows("reeval", reeval, window=window)]
    assert _judge(tmp_path, rows, BREAK_EVEN).verdict == "met"


def test_a_break_even_above_which_the_numerator_times_out_is_missed(tmp_path):
    rows = [row for window in ("sliding:100:1", "sliding:1000:1")
            for row in _rows("spectra", FAST, window=window) + _rows("reeval", SLOW, window=window)]
    rows += _rows("spectra", [None], window="sliding:10000:1", status="timeout", latency_mean_ms=100.0, added=None,
                  digest=None) + _rows("reeval", SLOW, window="sliding:10000:1")
    verdict = _judge(tmp_path, rows, BREAK_EVEN)
    assert verdict.verdict == "missed" and verdict.value == float("inf"), verdict


def _bound(tmp_path: Path, steady_over_whole: float, claim: str = RATIO):
    rows = _rows("spectra", FAST, steady_events_per_s=[rate * steady_over_whole for rate in FAST])
    rows += _rows("reeval", [None], status="timeout", latency_mean_ms=100.0, added=None, digest=None)
    return _judge(tmp_path, rows, claim)


def test_a_bound_rests_on_the_denominators_n_and_its_checked_assumption(tmp_path):
    judged = _bound(tmp_path, 0.8)  # later events cost no less: 1000 / 100 ms bounds the time-out's rate
    assert judged.verdict == "met" and judged.bound and judged.n == 1  # its one timed-out run, not the numerator's 5
    assert judged.value == pytest.approx(505.0 / 10.0) and "checked" in judged.note


def test_a_bound_whose_assumption_fails_falls_back_to_the_time_out(tmp_path):
    judged = _bound(tmp_path, 1.5)  # later events cost less: only the stream over the time-out bounds the rate
    assert judged.bound and judged.value == pytest.approx(505.0 / (1000 / 60.0)) and "assumption fails" in judged.note
    steady = _bound(tmp_path / "steady", 1.5, RATIO.replace('metric = "events_per_s"', 'metric = "steady_events_per_s"'))
    assert steady.verdict == "not-shown" and "assumption fails" in steady.note


def test_a_band_that_holds_at_the_median_but_at_neither_end_is_undecided():
    from harness.claims.judge import Verdict, _spread_crosses
    from harness.claims.model import Claim, parse_relation

    claim = Claim("spectra", "t", "t.c", "text", "ratio", "events_per_s", "a", "b", (),
                  parse_relation("within 2x of the paper", "here"), 100.0, "met")
    wide = Verdict("spectra", "t", "t.c", "text", 100.0, (40.0, 250.0), 5, False, 100.0, "met", "met", "run")
    narrow = Verdict("spectra", "t", "t.c", "text", 100.0, (80.0, 120.0), 5, False, 100.0, "met", "met", "run")
    assert "crosses" in _spread_crosses(claim, wide) and _spread_crosses(claim, narrow) == ""
