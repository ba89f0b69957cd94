"""A bench task is one typed record made once from the configuration; its wire form is what another checkout reads."""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from common.errors import ConfigError
from harness.bench import store
from harness.bench.config import config_from_table
from harness.bench.execute import _task
from harness.bench.matrix import Cell
from harness.bench.runners import hard_deadline_s
from harness.bench.task import CellTask, cell_of

NAMED = Cell(engine="tpjoin-lazy", dataset="snb", scale=100, event_shape="entity", query="Q_liked_tags",
             window="w:posts=sliding:1000:100", entailment="none", max_events=50, stream_dir="", query_path="q.rq",
             streams=(("http://ex/posts", "/streams/posts", "posts"), ("http://ex/likes", "/streams/likes", "likes")))


def _config(**keys):
    return config_from_table({"name": "t", "engines": ["reeval"], **keys}, where="test.toml")


def test_the_task_is_made_once_from_the_configuration_and_says_what_its_cell_needs():
    config = _config(timeout_s=40.0, min_time_s=30.0, memory_mb=8, warmup=2, oracle="plain", spark_master="local[1]")
    task = _task("time", NAMED, 3, config, "/progress")
    assert (task.kind, task.repetition, task.cell_id) == ("time", 3, NAMED.cell_id)
    assert task.min_time_s == 10.0  # at most a quarter of the time-out, so a repeated short cell cannot time out
    assert (task.memory_bytes, task.warmup, task.oracle, task.spark_master) == (8 * 2**20, 2, "plain", "local[1]")
    assert task.progress_path == f"/progress/{NAMED.cell_id}.r3"
    verify = _task("verify", NAMED, store.VERIFY_PART, config, "/progress")
    # the oracle re-evaluates what the engine maintains: a verify task has a time-out of its own, not the cell's
    assert verify.progress_path is None and verify.timeout_s == config.verify_timeout_s == 1800.0
    assert _task("verify", NAMED, store.VERIFY_PART, _config(verify_timeout_s=90), None).timeout_s == 90.0
    assert hard_deadline_s(task) == 2 * 40.0 * 3 + hard_deadline_s(CellTask("verify", NAMED, 0, timeout_s=0.0))
    with pytest.raises(FrozenInstanceError):
        task.oracle = "rdflib"
    assert task.with_oracle("spark").oracle == "spark" and task.oracle == "plain"


def test_the_wire_form_is_plain_data_that_parses_back_to_the_same_task():
    task = CellTask("verify", NAMED, store.VERIFY_PART, timeout_s=5.0, oracle="rdflib", verify_every=10)
    wire = task.wire()
    assert wire["cell"]["engine"] == "tpjoin-lazy" and wire["cell_id"] == NAMED.cell_id and wire["kind"] == "verify"
    assert all(isinstance(value, (str, int, float, dict, type(None))) for value in wire.values())
    # the checkout runner pickles it; JSON's lists for the named streams parse to the cell's tuples too
    again = CellTask.of(pickle.loads(pickle.dumps(wire)))
    assert again == task and again.cell.cell_id == NAMED.cell_id
    as_lists = {**wire, "cell": {**wire["cell"], "streams": [list(s) for s in NAMED.streams]}}
    assert CellTask.of(as_lists) == task
    assert CellTask.of(task) is task


def test_a_wire_form_from_another_revision_keeps_what_this_one_knows():
    wire = CellTask("time", NAMED, 0).wire()
    newer = {**wire, "a_later_field": 1, "cell": {**wire["cell"], "a_later_cell_field": 2}}
    assert CellTask.of(newer) == CellTask("time", NAMED, 0)
    older = {key: wire[key] for key in ("kind", "cell", "cell_id", "repetition", "timeout_s")}
    assert CellTask.of(older).noisy_load == CellTask("time", NAMED, 0).noisy_load  # an absent key defaults
    without_cell = {key: value for key, value in wire.items() if key != "cell"}
    with pytest.raises(ConfigError, match="a bench task lacks cell"):
        CellTask.of(without_cell)
    with pytest.raises(ConfigError, match="a bench cell lacks stream_dir, query_path"):
        cell_of({key: value for key, value in wire["cell"].items() if key not in ("query_path", "stream_dir")})
    with pytest.raises(ConfigError, match="kind must be one of time, verify, not 'timed'"):
        CellTask.of({**wire, "kind": "timed"})
