"""A bench's split cells are measured from the driver and answer as their unsplit cell: the same digest, checked by the oracle."""

from __future__ import annotations

import json
from pathlib import Path

from harness.bench import store
from harness.bench.cell import run_task
from harness.bench.config import config_from_table
from harness.bench.execute import run_bench
from harness.bench.summary import per_cell

EXAMPLE = Path(__file__).resolve().parents[2] / "harness" / "examples" / "university"


class HereRunner:
    """Every task in this process: the runner of what the split cells do not run themselves (their verification)."""

    name = "process"
    description = "the test's process"

    def __init__(self) -> None:
        self.timed = []

    def run(self, task, deadline_s=None):
        self.timed.append((task.kind, task.cell.partitions))
        return run_task(task)

    def close(self):
        pass


def test_split_cells_answer_as_the_unsplit_one_and_say_what_the_split_cost(tmp_path):
    queries = [str(EXAMPLE / "queries" / name) for name in ("star.rq", "entailment.rq", "chain.rq")]
    config = config_from_table(
        {
            "name": "split",
            "engines": ["reeval"],
            "repetitions": 1,
            "min_time_s": 0,
            "runner": "process",
            "verify": True,
            "oracle": "rdflib",
            "workloads": [{"stream": str(EXAMPLE), "queries": queries, "partitions": [0, 3]}],
        }
    )
    runner = HereRunner()
    run = run_bench(config, tmp_path / "run", runner=runner, show_progress=False)
    cells = store.load_results(run)
    assert ("time", 3) not in runner.timed and ("verify", 3) in runner.timed  # timed from the driver, verified apart
    by = {(row.query, row.partitions): row for row in cells.itertuples()}
    for query in ("star", "entailment"):
        assert by[query, 3].answer_digest == by[query, 0].answer_digest
        assert by[query, 3].status == "ok" and by[query, 3].verdict == "agrees" and by[query, 3].answers_added > 0
        sizes = json.loads(by[query, 3].partition_updates)
        assert len(sizes) == 3 and by[query, 3].partition_skew == max(sizes) / (sum(sizes) / 3)
        assert by[query, 3].wall_s >= max(json.loads(by[query, 3].partition_wall_s))
    assert by["chain", 3].status == "unsupported" and "query chain has no partition key" in by["chain", 3].error
    assert by["chain", 0].status == "ok"
    summary = per_cell(cells)
    assert sorted(summary["partitions"]) == [0, 0, 0, 3, 3, 3]
