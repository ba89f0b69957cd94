"""A bench verifies, by default, the cells of each query's smallest window over each stream, one per engine."""

from __future__ import annotations

import pytest

from common.errors import ConfigError
from harness.bench.config import config_from_table
from harness.bench.matrix import Cell
from harness.bench.verify_policy import verified_cells


def _cell(engine: str, query: str, window: str, max_events: int = 0, shape: str = "triples:1") -> Cell:
    return Cell(engine=engine, dataset="lubm", scale=2, event_shape=shape, query=query, window=window,
                entailment="none", max_events=max_events, stream_dir=f"s-{shape}", query_path=f"{query}.rq")


CELLS = [_cell(engine, query, window, events, shape)
         for engine in ("spectra", "reeval", "scan")
         for query in ("L1", "L7")
         for window, events, shape in (("sliding:1000:1", 1200, "triples:1"), ("sliding:100:1", 120, "triples:1"),
                                       ("tumbling:5000", 0, "triples:1"), ("sliding:100000:20", 6000, "triples:20"),
                                       ("sliding:1000000:20", 0, "triples:20"))]


def test_the_smallest_window_of_each_query_and_stream_is_verified_once_per_answering_engine():
    chosen = {(cell.engine, cell.query, cell.window) for cell in verified_cells(CELLS, "smallest-window")}
    assert chosen == {(engine, query, window) for engine in ("spectra", "reeval") for query in ("L1", "L7")
                      for window in ("sliding:100:1", "sliding:100000:20")}  # scan answers nothing: never verified


def test_all_and_none_are_what_they_say():
    assert len(verified_cells(CELLS, True)) == len(verified_cells(CELLS, "all")) == 20
    assert verified_cells(CELLS, False) == verified_cells(CELLS, "none") == []


def test_an_event_window_is_smaller_than_any_range_and_unbounded_larger():
    cells = [_cell("reeval", "L1", window) for window in ("unbounded", "event", "sliding:100:1")]
    assert [cell.window for cell in verified_cells(cells, "smallest-window")] == ["event"]


def test_of_two_windows_of_one_range_only_the_larger_slide_is_verified():
    cells = [_cell("reeval", "L1", window) for window in ("sliding:1000:1", "tumbling:1000", "sliding:1000:10")]
    assert [cell.window for cell in verified_cells(cells, "smallest-window")] == ["tumbling:1000"]


def test_an_unknown_policy_is_refused_by_name():
    with pytest.raises(ConfigError, match="verify.*smallest-window"):
        config_from_table({"verify": "some"})
    assert config_from_table({"verify": True}).verify is True
