"""A small results folder with every layout the site reads: a run of its own folder, prefixed runs sharing one, a history.

Not a test module: the site tests and the browser test build their site from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from harness.bench import history, store
from harness.bench.matrix import cell_id_of
from harness.site.runs import open_run

ENGINES = ("spectra", "spectra-rev", "scan")
WINDOWS = ("sliding:1000:100", "sliding:10000:100")
MARKUP = "<script>alert('not escaped')</script> & more"


def _repetitions(queries, windows, seed: int, slower: dict | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = []
    for engine_number, engine in enumerate(ENGINES):
        for query in queries:
            for window_number, window in enumerate(windows):
                key = {"engine": engine, "dataset": "lubm", "scale": 1, "event_shape": "triples:1", "query": query,
                       "window": window, "entailment": "none", "max_events": 1000}
                for repetition in range(5):
                    wall = 0.2 * (1 + engine_number) * (1 + window_number) * (slower or {}).get(engine, 1.0)
                    wall *= rng.normal(1, 0.02)
                    rows.append({"cell_id": cell_id_of(key), **key, "repetition": repetition, "status": "ok",
                                 "verdict": "not checked", "error": "", "wall_s": wall, "cpu_s": wall, "events": 1000,
                                 "triples": 1000, "window_triples": 100, "triples_per_s": 1000 / wall,
                                 "rss_base_bytes": 9e7, "rss_peak_bytes": 1e8 + 1e6 * engine_number})
    return pd.DataFrame(rows)


def _info(run_id: str, benchmark: str, commit: str, created: str) -> dict:
    return {"schema_version": store.SCHEMA_VERSION, "run_id": run_id, "created": created, "status": "complete",
            "machine": {"hostname": "box", "processor": "cpu", "cpus_logical": 2, "memory_bytes": 2**34},
            "git": {"commit": commit, "dirty": False}, "runner": {"description": "made up"},
            "config": {"name": benchmark, "repetitions": 5}}


def make_results(root):
    """``root/published`` (three runs, two layouts, and a script's folder) and ``root/history`` (spectra-demo at two commits, one slower)."""
    published = root / "published"
    own = published / "spectra-demo"
    own.mkdir(parents=True)
    _repetitions(("L1", "L7"), WINDOWS, seed=1, slower={"spectra-rev": 1.6}).to_csv(own / "repetitions.csv",
                                                                                      index=False)
    store.write_json(own / store.RUN_FILE, _info("spectra-demo", "spectra-demo", "b" * 40, "2026-01-02T00:00:00+00:00"))
    (own / "README.md").write_text(f"# spectra-demo\n\nA note with markup: {MARKUP}\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(2, 2))
    axis.plot([0, 1], [0, 1])
    figure.savefig(own / "published_figure.png")
    plt.close(figure)
    shared = published / "sparkwave"
    shared.mkdir()
    for number, name in enumerate(("windows", "static")):
        _repetitions(("P1",), WINDOWS[number:], seed=2 + number).to_csv(shared / f"{name}.repetitions.csv", index=False)
        store.write_json(shared / f"{name}.run.json", _info(f"sparkwave-{name}", f"sparkwave-{name}", "c" * 40,
                                                          "2026-01-03T00:00:00+00:00"))
        (shared / f"{name}.md").write_text(f"# {name}\n")
    script = published / "delta" / "updates"  # a script's folder: a run.json of its own making, its own columns
    script.mkdir(parents=True)
    (script / "run.json").write_text('{"run_id": "updates", "git": {"commit": "' + "d" * 40 + '"}, "config": {"sizes": "10"}}')
    pd.DataFrame({"engine": ["delta", "delta"], "query": ["ground", "star"], "us_per_update": [0.9, 1.2]}).to_csv(
        script / "repetitions.csv", index=False)
    older = root / "runs" / "spectra-demo-old"
    older.mkdir(parents=True)
    _repetitions(("L1", "L7"), WINDOWS, seed=9).to_csv(older / "repetitions.csv", index=False)
    store.write_json(older / store.RUN_FILE, _info("spectra-demo-old", "spectra-demo", "a" * 40,
                                                   "2026-01-01T00:00:00+00:00"))
    for run in (older, own):
        history.add_run(run, root / "history")
    for run, verdict in ((older, "met"), (own, "missed")):  # a claim that stopped holding
        history.add_verdicts([ClaimVerdict("spectra", "demo", "demo.rev-speedup", verdict, 1.2, False, 3.0)],
                             open_run(run), root / "history")
    return published, root / "history"


@dataclass(frozen=True)
class ClaimVerdict:
    """The fields of harness.claims.Verdict that the claim history keeps."""

    paper: str
    experiment: str
    claim_id: str
    verdict: str
    value: float | None
    bound: bool
    paper_value: float | None
