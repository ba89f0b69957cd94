"""An engine's figures per micro-batch are Spark's own: read from the streaming query's progress reports, never timed here.

``StreamingQuery.recentProgress`` holds a dict per micro-batch (Spark's ``StreamingQueryProgress``:
``durationMs.triggerExecution`` the batch's wall time, ``numInputRows`` (the rows every scan of the source read:
a query of n patterns reads each triple n times), ``processedRowsPerSecond``,
``stateOperators[*].numRowsTotal`` and ``memoryUsedBytes`` for every stateful operator: the joins' and
ISTREAM's state). ``BatchFigures`` keeps one line per batch as they come (Spark keeps only the last
100) and sums them into the integers ``Engine.stats()`` returns, so ``cgpm bench`` records them with
every cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0


@dataclass
class BatchFigures:
    """Per micro-batch: its id, wall time (ms), input rows, state rows and state bytes."""

    batches: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    output_rows: int = 0

    def add(self, progress: list[dict]) -> None:
        """Fold in the progress reports of batches not seen yet (``recentProgress`` repeats earlier ones)."""
        seen = self.batches[-1][0] if self.batches else -1
        for report in progress:
            if report["batchId"] <= seen:
                continue
            operators = report.get("stateOperators") or []
            self.batches.append((report["batchId"], int(report["durationMs"].get("triggerExecution", 0)),
                                 int(report.get("numInputRows", 0)),
                                 sum(int(operator.get("numRowsTotal", 0)) for operator in operators),
                                 sum(int(operator.get("memoryUsedBytes", 0)) for operator in operators)))
            seen = report["batchId"]

    def stats(self) -> dict[str, int]:
        times = [batch[1] for batch in self.batches]
        rows = sum(batch[2] for batch in self.batches)
        total_ms = sum(times)
        return {
            "micro_batches": len(self.batches),
            "input_rows": rows,
            "output_rows": self.output_rows,
            "batch_ms_p50": _percentile(times, 0.5),
            "batch_ms_p95": _percentile(times, 0.95),
            "batch_ms_max": max(times, default=0),
            "batch_ms_total": total_ms,
            "rows_per_s": int(rows * 1000 / total_ms) if total_ms else 0,
            "state_rows": self.batches[-1][3] if self.batches else 0,
            "state_rows_peak": max((batch[3] for batch in self.batches), default=0),
            "state_bytes_peak": max((batch[4] for batch in self.batches), default=0),
        }
