"""Benchmark runs: a matrix of cells measured in fresh processes, stored whole, reported and compared from the stored results.

``config`` (TOML + flags), ``matrix`` (cells), ``cell``, ``passes``, ``latencies``, ``quantiles``, ``pacing``,
``steady`` and ``sampler`` (what runs in the measured process), ``runners`` (Spark tasks or spawned processes),
``execute`` (the run, resumable), ``store`` (the run directory and ``load_results``), ``summary``
(medians and IQRs), ``report``, ``paper`` (a table per metric), ``figures`` and ``style``,
``provenance`` and ``publish`` (folders that say how to rebuild them), ``compare`` and ``baselines``. See docs/benchmarking.md. Nothing is imported here, so the measured process
loads only what a cell needs (not pandas).
"""

__all__ = ["load_latencies", "load_results", "load_rss"]


def __getattr__(name: str):
    if name in __all__:
        from harness.bench import store

        return getattr(store, name)
    raise AttributeError(name)
