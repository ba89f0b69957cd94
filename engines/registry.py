"""Engines are found by name: the in-tree table first, then the ``cgpm.engines`` entry points.

Both are lazy: nothing is imported until an engine is asked for, so listing engines stays cheap and
a broken engine package cannot stop the others from running.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from common.errors import EngineError

ENTRY_POINT_GROUP = "cgpm.engines"

# name -> "module:Class". A new in-tree engine is one line here and one in pyproject.toml.
BUILTIN: dict[str, str] = {
    "reeval": "engines.baselines.reeval:ReevalEngine",
    "oxigraph": "engines.baselines.oxigraph_engine:OxigraphEngine",
    "scan": "engines.baselines.scan:ScanEngine",
    "spectra": "engines.spectra:SpectraEngine",
    "spectra-rev": "engines.spectra:SpectraRevEngine",
    "spectra-rev-onchange": "engines.spectra:SpectraRevOnChangeEngine",
    "delta": "engines.delta:DeltaEngine",
    "delta-generic": "engines.delta:DeltaGenericEngine",
    "tpjoin-event": "engines.tpjoin:TPJoinEventEngine",
    "tpjoin-event-nopart": "engines.tpjoin:TPJoinEventNoPartitionEngine",
    "tpjoin-lazy": "engines.tpjoin:TPJoinIncrementalEngine",
    "tpjoin-eager": "engines.tpjoin:TPJoinEagerEngine",
    "sparkwave": "engines.sparkwave:SparkwaveEngine",
}


def _entry_point_targets() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def known_engines() -> list[str]:
    return sorted(set(BUILTIN) | set(_entry_point_targets()))


def _load(target: str, name: str) -> type:
    module_name, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as error:
        raise EngineError(f"engine {name!r} could not be loaded from {target}: {error}") from error


def get_engine(name: str) -> type:
    """The engine class registered as ``name``; an unknown name lists the known ones."""
    target = BUILTIN.get(name) or _entry_point_targets().get(name)
    if target is None:
        raise EngineError(f"unknown engine {name!r}; known engines: {', '.join(known_engines())}")
    return _load(target, name)


def all_engines() -> dict[str, type]:
    return {name: get_engine(name) for name in known_engines()}
