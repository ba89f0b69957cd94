"""No figure text runs off its canvas, and an engine that timed out is drawn as a hatched bound, never left out."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from harness.bench import figures  # noqa: E402
from harness.bench.style import legend_columns, wrapped  # noqa: E402
from harness.bench.summary import per_cell  # noqa: E402

KEY = {"dataset": "lubm", "scale": 1, "event_shape": "triples:1", "entailment": "none", "max_events": 0}
LONG_QUERY = "P1_offer_type_with_a_name_long_enough_to_run_off_one_panel · rdfs · entity"


def _repetitions(timed_out: str | None = "reeval") -> pd.DataFrame:
    rows = []
    for engine, wall in (("spectra", 1.0), ("reeval", 4.0), ("spectra-rev-onchange", 2.0)):
        for repetition in range(3):
            row = {**KEY, "cell_id": f"{engine}-c", "engine": engine, "query": LONG_QUERY, "window": "sliding:1000000:1",
                   "repetition": repetition, "status": "ok", "verdict": "not checked", "error": "", "events": 100,
                   "triples": 100, "wall_s": wall, "triples_per_s": 100 / wall}
            if engine == timed_out:
                row.update(status="timeout", wall_s=float("nan"), triples_per_s=float("nan"), latency_mean_ms=50.0)
            rows.append(row)
    return pd.DataFrame(rows)


@pytest.fixture
def kept(monkeypatch):
    """The figures drawn, kept open (``_save`` closes them) to measure their text after the save."""
    figures_seen, close = [], plt.close
    monkeypatch.setattr(figures.plt, "close", figures_seen.append)
    yield figures_seen
    for figure in figures_seen:
        close(figure)


def _outside(figure) -> list[str]:
    """The texts (titles, legend, annotations) whose drawn extent leaves the figure's canvas."""
    renderer = figure.canvas.get_renderer()
    width, height = figure.bbox.width, figure.bbox.height
    texts = [figure._suptitle] + [text for axis in figure.axes for text in (axis.title, *axis.texts)]
    texts += [legend for legend in figure.legends]
    bad = []
    for artist in texts:
        if artist is None or not artist.get_visible() or not getattr(artist, "get_text", lambda: "x")():
            continue
        box = artist.get_window_extent(renderer)
        if box.x0 < -1 or box.x1 > width + 1 or box.y0 < -1 or box.y1 > height + 1:
            bad.append(getattr(artist, "get_text", lambda: "legend")())
    return bad


def test_a_one_panel_figure_keeps_its_long_title_and_panel_name_on_the_canvas(tmp_path, kept):
    assert figures.engines_at_window(per_cell(_repetitions(timed_out=None)), tmp_path, formats=("png",)) == [
        "engines_at_window.png"]
    figure = kept[-1]
    assert figure.get_figwidth() < 5  # one panel: the title is longer than the figure is wide
    assert _outside(figure) == []
    assert "\n" in figure._suptitle.get_text()


def test_a_legend_below_the_panels_takes_only_the_columns_that_fit(tmp_path, kept):
    summary = per_cell(_repetitions(timed_out=None).assign(window="sliding:1000:1"))
    summary = pd.concat([summary, summary.assign(window="sliding:10000:1", cell_id=summary["cell_id"] + "-2")])
    figures.throughput_vs_window(summary, tmp_path, formats=("png",))
    assert _outside(kept[-1]) == []
    assert legend_columns(["spectra-rev-onchange"] * 6, 4.3, 10) < 6 <= legend_columns(["a"] * 6, 20, 10)


def test_wrapped_lines_fit_the_width_and_short_text_is_kept_whole():
    assert wrapped("L1", 4.3, 10) == "L1"
    lines = wrapped("Engines side by side at one window (1000 s / 1 ms, the run's largest)", 4.3, 12).split("\n")
    assert len(lines) == 2 and all(len(line) <= 4.3 * 72 / (12 * 0.6) for line in lines)


def test_an_engine_that_timed_out_is_a_hatched_bar_at_its_bound(tmp_path, kept):
    summary = per_cell(_repetitions())
    bounds = pd.Series({"reeval-c": 2000.0})  # 1000 ms / 50 ms mean latency, times 100 triples / 100 events: 20/s
    figures.engines_at_window(summary, tmp_path, formats=("png",), bounds=bounds)
    axis = kept[-1].axes[0]
    labels = [label.get_text() for label in axis.get_xticklabels()]
    assert labels == ["spectra", "reeval", "spectra-rev-onchange"]  # reeval is there, in the run's order
    bars = dict(zip(labels, axis.patches))
    assert bars["reeval"].get_hatch() == "//" and bars["reeval"].get_height() == pytest.approx(2000.0)
    assert bars["spectra"].get_hatch() is None and bars["spectra"].get_height() == pytest.approx(100.0)
    assert [text.get_text() for text in axis.texts] == ["≤ 2k\ntimed out"]
    figures.engines_at_window(summary, tmp_path, formats=("png",))  # no bound known: marked, not missing
    axis = kept[-1].axes[0]
    assert "reeval" in [label.get_text() for label in axis.get_xticklabels()]
    assert [text.get_text() for text in axis.texts] == ["timed out"]
