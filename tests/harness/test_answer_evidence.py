"""A timed cell's row carries its answers' counts and digest and its machine's load: the evidence a claim is judged on."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engines.model.stream import Delta
from harness.bench.answers import AnswerDigest, digest_of
from harness.bench.cell import run_task
from harness.bench.quiet import MachineLoad, load_columns, noisy_rows
from harness.bench.task import CellTask, cell_of

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLE = REPOSITORY / "harness" / "examples" / "university"

HISTORY = [(0, Delta(added=[("<a>", "<b>"), ("<a>", "<c>")])), (1, Delta()),
           (2, Delta(added=[("<d>", '"1"')], removed=[("<a>", "<b>")])), (3, Delta(removed=[("<a>", "<c>")]))]


def _task(engine: str, query: str = "chain", window: str = "sliding:5000:1000") -> CellTask:
    cell = {"engine": engine, "dataset": "university-example", "scale": None, "event_shape": "x", "query": query,
            "window": window, "entailment": "none", "max_events": 0, "stream_dir": str(EXAMPLE),
            "query_path": str(EXAMPLE / "queries" / f"{query}.rq")}
    return CellTask(kind="time", cell=cell_of(cell), repetition=0, timeout_s=120.0, memory_bytes=2**40, rss_hz=0)


def test_the_digest_does_not_depend_on_the_order_of_a_deltas_rows():
    shuffled = []
    for instant, delta in HISTORY:
        added, removed = list(delta.added), list(delta.removed)
        random.Random(instant).shuffle(added)
        shuffled.append((instant, Delta(added=added[::-1], removed=removed)))
    assert digest_of(HISTORY).hex == digest_of(shuffled).hex


@pytest.mark.parametrize("change", ["term", "instant", "sign", "dropped row", "repeated row"])
def test_any_change_of_the_history_changes_the_digest(change):
    altered = list(HISTORY)
    instant, delta = altered[2]
    if change == "term":
        altered[2] = (instant, Delta(added=[("<d>", '"2"')], removed=delta.removed))
    elif change == "instant":
        altered[2] = (instant + 1, delta)
    elif change == "sign":
        altered[2] = (instant, Delta(added=delta.removed, removed=delta.added))
    elif change == "dropped row":
        altered[2] = (instant, Delta(added=delta.added))
    else:  # a bag: the same row twice is not the row once
        altered[2] = (instant, Delta(added=delta.added * 2, removed=delta.removed))
    assert digest_of(altered).hex != digest_of(HISTORY).hex


def test_the_digest_counts_rows_and_reads_as_sixteen_hex_digits():
    digest = digest_of(HISTORY)
    assert digest.columns()["answers_added"] == 3 and digest.columns()["answers_removed"] == 2
    assert len(digest.hex) == 16 and int(digest.hex, 16) == digest.value
    assert AnswerDigest().columns() == {"answers_added": 0, "answers_removed": 0, "answer_digest": "0" * 16}


def test_two_exact_engines_give_one_digest_and_the_floor_another():
    rows = {engine: run_task(_task(engine))["row"] for engine in ("reeval", "spectra", "tpjoin-lazy", "scan")}
    digests = {engine: row["answer_digest"] for engine, row in rows.items()}
    assert digests["reeval"] == digests["spectra"] == digests["tpjoin-lazy"]
    assert rows["reeval"]["answers_added"] == rows["reeval"]["added"] > 0
    assert digests["scan"] == "0" * 16 and rows["scan"]["answers_added"] == 0


def test_the_digest_tells_a_window_from_another():
    one = run_task(_task("reeval", window="sliding:5000:1000"))["row"]["answer_digest"]
    other = run_task(_task("reeval", window="tumbling:3000"))["row"]["answer_digest"]
    assert one != other


def test_a_cell_records_its_machines_load_at_both_ends():
    row = run_task(_task("scan"))["row"]
    assert {"load_start", "load_end", "steal_share", "cores", "noisy"} <= set(row)
    assert row["cores"] >= 1 and isinstance(row["noisy"], bool)


@pytest.mark.parametrize(("start", "end", "steal", "noisy"), [
    (0.9, 1.1, 0.0, False),     # the cell alone on two cores
    (4.5, 1.0, 0.0, True),      # busy when it started
    (1.0, 2.5, 0.0, True),      # busy when it ended
    (1.0, 1.0, 2.0, True),      # 2 s stolen of 2 cores x 10 s: 10%
    (1.0, 1.0, 0.5, False),     # 2.5%
])
def test_a_cell_is_noisy_when_the_machine_was_busier_than_its_cores(start, end, steal, noisy):
    columns = load_columns(MachineLoad(start, 100.0, 2, 0.0), MachineLoad(end, 100.0 + steal, 2, 10.0))
    assert columns["noisy"] is noisy
    assert columns["steal_share"] == pytest.approx(steal / 20.0)


def test_the_threshold_is_the_runs_to_set():
    quiet, busy = MachineLoad(3.0, None, 2, 0.0), MachineLoad(3.0, None, 2, 1.0)
    assert load_columns(quiet, busy)["noisy"] is True
    assert load_columns(quiet, busy, noisy_load=2.0)["noisy"] is False
    assert load_columns(quiet, busy, noisy_load=2.0)["steal_share"] is None  # not known off Linux


def test_published_rows_without_the_column_are_not_noisy():
    import pandas as pd

    assert noisy_rows(pd.DataFrame({"engine": ["a", "b"]})) == [False, False]
    assert noisy_rows(pd.DataFrame({"noisy": [True, "False", "True"]})) == [True, False, True]


def test_bench_names_a_workload_whose_engines_answer_differently():
    import pandas as pd

    from harness.bench.summary import diverging_cells

    def row(engine: str, digest: str) -> dict:
        return {"engine": engine, "dataset": "lubm", "scale": 1, "event_shape": "entity", "query": "L1",
                "window": "sliding:5s:1s", "entailment": "none", "max_events": 0, "status": "ok",
                "answer_digest": digest}

    same = pd.DataFrame([row("reeval", "ab"), row("spectra", "ab"), row("scan", "00")])
    assert diverging_cells(same, matches=lambda engine: engine != "scan") == []
    assert diverging_cells(same, matches=lambda engine: False) == []  # nothing answering: nothing to compare
    planted = pd.DataFrame([row("reeval", "ab"), row("spectra", "ac"), row("scan", "00")])
    [found] = diverging_cells(planted, matches=lambda engine: engine != "scan")
    assert "L1" in found and "spectra ac" in found and "scan" not in found
