"""A cell's CPU time per event is divided by the scan floor's on the same stream in the same round, so what slows every process of a round alike cancels out of the ratio.

Two figures per repetition, kept in the history beside the raw measures (``harness.bench.history``):

- ``cpu_us_per_event``: the repetition's CPU time per pass (``cpu_s``: the engine's work, the harness's decoding
  taken out) over the events of a pass, in microseconds.
- ``cpu_over_scan``: that figure over the reference's, the ``scan`` cells (``REFERENCE``, the cost floor: it touches
  every triple and matches nothing) of the same run over the same stream (``STREAM_KEYS``: the same dataset, scale
  and event shape, whatever the query, window or prefix) at the same repetition number. The runner interleaves
  repetitions in rounds (``harness.bench.execute``), so repetition k of a cell and of its reference ran in the
  same round, minutes apart at most: a machine slower for a while (another process's load, a lower clock) slows
  both, and their ratio keeps what the engine's code costs. Several scan cells over one stream: the median of
  theirs at that repetition. No scan cell over the stream, or none finished at that repetition: no ratio.

A scan repetition whose CPU time rounds to 0 (a loop too short for the process clock) gives no ratio either:
a ratio to 0 would be infinite, not slow.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

REFERENCE = "scan"
STREAM_KEYS = ("dataset", "scale", "event_shape", "streams")
PER_EVENT, OVER_FLOOR = "cpu_us_per_event", "cpu_over_scan"
FIGURES = (PER_EVENT, OVER_FLOOR)


def _stream_key(frame: pd.DataFrame) -> pd.Series:
    """Each row's stream, as one string (the columns an older table lacks count as empty)."""
    parts = [frame[column].astype(str) if column in frame else pd.Series("", index=frame.index)
             for column in STREAM_KEYS]
    key = parts[0]
    for part in parts[1:]:
        key = key + "\x1f" + part.fillna("")
    return key


def with_figures(repetitions: pd.DataFrame) -> pd.DataFrame:
    """``repetitions`` (a row per cell and repetition, as ``harness.bench.store.load_results`` gives them) with
    ``cpu_us_per_event``, ``cpu_over_scan`` and ``reference`` (the scan cells the ratio divides by) added."""
    frame = repetitions.copy()
    ok = frame["status"].eq("ok") if "status" in frame else pd.Series(True, index=frame.index)
    cpu = pd.to_numeric(frame.get("cpu_s"), errors="coerce") if "cpu_s" in frame else np.nan
    events = pd.to_numeric(frame.get("events"), errors="coerce") if "events" in frame else np.nan
    per_event = (cpu / events * 1e6).where(ok & (events > 0)) if "cpu_s" in frame and "events" in frame else \
        pd.Series(np.nan, index=frame.index)
    frame[PER_EVENT] = per_event
    frame[OVER_FLOOR] = np.nan
    frame["reference"] = ""
    if "engine" not in frame or "repetition" not in frame:
        return frame
    stream = _stream_key(frame)
    floor = frame["engine"].eq(REFERENCE) & (per_event > 0)
    if not floor.any():
        return frame
    reference = (pd.DataFrame({"stream": stream[floor], "repetition": frame.loc[floor, "repetition"],
                               "value": per_event[floor]})
                 .groupby(["stream", "repetition"])["value"].median())
    names = (pd.DataFrame({"stream": stream[floor], "cell_id": frame.loc[floor, "cell_id"]})
             .drop_duplicates().groupby("stream")["cell_id"].agg(lambda ids: ";".join(sorted(ids))))
    keys = pd.MultiIndex.from_arrays([stream, frame["repetition"]])
    divisor = pd.Series(reference.reindex(keys).to_numpy(), index=frame.index)
    frame[OVER_FLOOR] = per_event / divisor
    frame["reference"] = stream.map(names).fillna("")
    return frame
