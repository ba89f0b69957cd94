"""Every figure is drawn from the stored results alone (cells, RSS series, latencies), labelled with units, as PDF and PNG.

Figures: throughput against window size, break-even (wall time against re-evaluation's, by
window size), latency CDFs, RSS against time (repetition 0 of each cell), peak RSS growth against
window size. A figure whose data is absent (one window size only, no ``reeval`` cells) is not
drawn, and ``draw_all`` says why in its return value instead.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a display

import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker as ticker  # noqa: E402
import pandas as pd  # noqa: E402
import seaborn as sns  # noqa: E402

from harness.bench.summary import window_range_ms  # noqa: E402

FORMATS = ("pdf", "png")
DPI = 200


def _plain_ticks(grid) -> None:
    """Log axes labelled 5, 10, 20 rather than 5×10⁰."""
    for axis in grid.axes.flat:
        for which in (axis.xaxis, axis.yaxis):
            if which.get_scale() == "log":
                which.set_major_formatter(ticker.FuncFormatter(lambda value, _: f"{value:g}"))
                which.set_minor_formatter(ticker.NullFormatter())


def _save(grid, directory: Path, name: str, title: str) -> list[str]:
    _plain_ticks(grid)
    if hasattr(grid, "set_titles"):
        grid.set_titles("{col_name}")  # the panel's own label, not "panel = ..."
    figure = grid.figure if hasattr(grid, "figure") else grid
    figure.suptitle(title, y=1.02)
    written = []
    for extension in FORMATS:
        path = directory / f"{name}.{extension}"
        figure.savefig(path, bbox_inches="tight", dpi=DPI)
        written.append(path.name)
    plt.close(figure)
    return written


PANEL_KEYS = ("dataset", "event_shape", "entailment")


def with_panels(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with a ``panel`` column: the query, plus the dataset, event shape or entailment where the run has
    several, so that one curve never joins cells of different workloads (scales may differ along a curve: a large
    window needs a larger stream)."""
    varying = [key for key in PANEL_KEYS if key in frame and frame[key].nunique() > 1]
    panel = frame["query"].astype(str)
    for key in varying:
        panel = panel + " · " + frame[key].astype(str)
    return frame.assign(panel=panel)


def _with_window_size(summary: pd.DataFrame) -> pd.DataFrame:
    frame = with_panels(summary)
    frame["window_s"] = frame["window"].map(window_range_ms) / 1000
    return frame[frame["window_s"].notna()]


def throughput_vs_window(summary: pd.DataFrame, directory: Path) -> list[str] | str:
    frame = _with_window_size(summary).dropna(subset=["triples_per_s"])
    if frame["window_s"].nunique() < 2:
        return "throughput against window size needs at least two window sizes"
    grid = sns.relplot(data=frame, x="window_s", y="triples_per_s", hue="engine", style="engine", col="panel",
                       col_wrap=min(3, frame["panel"].nunique()), kind="line", markers=True, height=3, aspect=1.2,
                       facet_kws={"sharey": False})
    grid.set(xscale="log", yscale="log")
    grid.set_axis_labels("window range (s)", "throughput (triples/s, median)")
    return _save(grid, directory, "throughput_vs_window", "Throughput against window size")


def break_even(summary: pd.DataFrame, directory: Path) -> list[str] | str:
    frame = _with_window_size(summary).dropna(subset=["x_reeval"])
    if frame.empty or frame["window_s"].nunique() < 2:
        return "break-even curves need reeval cells and at least two window sizes"
    grid = sns.relplot(data=frame, x="window_s", y="x_reeval", hue="engine", style="engine", col="panel",
                       col_wrap=min(3, frame["panel"].nunique()), kind="line", markers=True, height=3, aspect=1.2)
    grid.set(xscale="log", yscale="log")
    for axis in grid.axes.flat:
        axis.axhline(1.0, color="grey", linestyle="--", linewidth=1)
    grid.set_axis_labels("window range (s)", "wall time / re-evaluation's")
    return _save(grid, directory, "break_even", "Break-even against re-evaluation (below 1: incremental wins)")


def latency_cdf(latencies: pd.DataFrame, summary: pd.DataFrame, directory: Path) -> list[str] | str:
    if latencies.empty:
        return "no per-event latencies were stored"
    labels = summary.set_index("cell_id")[["engine", "query", "window"]]
    frame = latencies.join(labels, on="cell_id", how="inner")
    frame = frame[frame["latency_ms"] > 0]
    if frame.empty:
        return "no per-event latencies were stored"
    frame["query / window"] = frame["query"] + " " + frame["window"].astype(str)
    grid = sns.displot(data=frame, x="latency_ms", hue="engine", col="query / window", kind="ecdf",
                       col_wrap=min(3, frame["query / window"].nunique()), height=3, aspect=1.2, log_scale=(True, False))
    grid.set_axis_labels("per-event latency (ms)", "fraction of events")
    return _save(grid, directory, "latency_cdf", "Per-event latency, all repetitions")


def rss_over_time(rss: pd.DataFrame, summary: pd.DataFrame, directory: Path) -> list[str] | str:
    if rss.empty:
        return "no RSS series were stored (rss_hz = 0)"
    labels = summary.set_index("cell_id")[["engine", "query", "window"]]
    frame = rss[rss["repetition"] == rss["repetition"].min()].join(labels, on="cell_id", how="inner")
    if frame.empty:
        return "no RSS series were stored"
    frame["rss_mib"] = frame["rss_bytes"] / 2**20
    frame["query / window"] = frame["query"] + " " + frame["window"].astype(str)
    grid = sns.relplot(data=frame, x="t_s", y="rss_mib", hue="engine", col="query / window", kind="line",
                       col_wrap=min(3, frame["query / window"].nunique()), height=3, aspect=1.2,
                       facet_kws={"sharex": False}, estimator=None, units="cell_id")
    grid.set_axis_labels("time since the timed loop began (s)", "RSS (MiB)")
    return _save(grid, directory, "rss_over_time", "Resident memory over time (first repetition)")


def rss_vs_window(summary: pd.DataFrame, directory: Path) -> list[str] | str:
    frame = _with_window_size(summary).dropna(subset=["rss_growth_bytes"])
    if frame["window_s"].nunique() < 2:
        return "RSS against window size needs at least two window sizes"
    frame = frame.assign(rss_growth_mib=frame["rss_growth_bytes"] / 2**20)
    grid = sns.relplot(data=frame, x="window_s", y="rss_growth_mib", hue="engine", style="engine", col="panel",
                       col_wrap=min(3, frame["panel"].nunique()), kind="line", markers=True, height=3, aspect=1.2)
    grid.set(xscale="log")
    grid.set_axis_labels("window range (s)", "peak RSS − baseline (MiB, median)")
    return _save(grid, directory, "rss_vs_window", "Memory growth against window size")


def draw_all(summary: pd.DataFrame, rss: pd.DataFrame, latencies: pd.DataFrame, directory: Path) -> dict[str, list[str] | str]:
    """Figure name -> files written, or the reason it was not drawn."""
    directory.mkdir(parents=True, exist_ok=True)
    sns.set_theme(context="paper", style="whitegrid")
    return {
        "throughput_vs_window": throughput_vs_window(summary, directory),
        "break_even": break_even(summary, directory),
        "latency_cdf": latency_cdf(latencies, summary, directory),
        "rss_over_time": rss_over_time(rss, summary, directory),
        "rss_vs_window": rss_vs_window(summary, directory),
    }
