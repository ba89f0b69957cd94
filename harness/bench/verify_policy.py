"""A run verifies the cells its ``verify`` policy names: all, none, or the cheapest cell of each query over each stream for every engine."""

from __future__ import annotations

from common.errors import CgpmError
from engines.model.windows import parse_window
from harness.bench.matrix import Cell, engine_class


def verified_cells(cells: list[Cell], policy: bool | str) -> list[Cell]:
    """The cells a run verifies besides timing them: all, none, or (``smallest-window``) the cells of the smallest
    window of each query over each stream, one per engine, so every engine's answers are checked somewhere on every
    query at the cost of its cheapest cell. Engines that match nothing (the cost floor) are never verified."""
    if policy in (False, "none"):
        return []
    matching = [cell for cell in cells if engine_class(cell.engine).capabilities.matches]
    if policy in (True, "all"):
        return matching

    def size(cell: Cell) -> tuple[int, int, int]:
        # an event window holds one event, an unbounded one every event; of two ranges alike the larger slide drops
        # events at fewer instants, each one a checkpoint, so it is the cheaper (and only one of them is verified)
        try:
            window = parse_window(cell.window)
        except CgpmError:  # a query's own window over named streams: one per workload, so it is the smallest
            return (1, 0, 0)
        return ({"event": 0, "unbounded": 2}.get(window.kind, 1), window.range_ms or 0, -(window.slide_ms or 0))

    def workload(cell: Cell) -> tuple:  # one query over one stream: configs give each window its own event count
        return tuple(
            value for key, value in sorted(cell.as_json().items()) if key not in ("window", "engine", "max_events")
        )

    smallest: dict[tuple, tuple[int, int]] = {}
    for cell in matching:
        smallest[workload(cell)] = min(smallest.get(workload(cell), size(cell)), size(cell))
    return [cell for cell in matching if size(cell) == smallest[workload(cell)]]
