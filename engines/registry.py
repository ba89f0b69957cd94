"""Engines are found by reference: a registered name, ``package.module:Class``, or an external engine's descriptor file.

Names come from the in-tree table first, then the ``cgpm.engines`` entry points (Python engines),
then the external engines' TOML descriptors on the search path (``engines.external.descriptor``).
All are lazy: nothing is imported or started until an engine is asked for, so listing engines stays
cheap and a broken engine package cannot stop the others from running: ``load_problem`` says why
an engine does not load, ``loadable_engines`` are the ones that run when none is named, and only
asking for a broken engine by name fails. ``resolve`` is the one place every command turns what the
user typed into an engine class.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points
from pathlib import Path

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
    "spark-streaming": "engines.spark_streaming:SparkStreamingEngine",
}


# Engines whose own semantics is a profile other than cgpm (DESIGN.md section 2, Profiles): what reports at every
# event is not what they compute, so the suites that check cgpm at every instant, and a bench that names no engine,
# leave them out; ``cgpm verify --semantics`` checks them (and ``cgpm engines`` lists them).
OTHER_SEMANTICS = frozenset({"spark-streaming"})


def _entry_point_targets() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def _python_engines() -> set[str]:
    return set(BUILTIN) | set(_entry_point_targets())


def known_engines() -> list[str]:
    """The in-process (Python) engines of the cgpm semantics: the property, differential and dataset suites run these."""
    return sorted(_python_engines() - OTHER_SEMANTICS)


def profile_engines() -> list[str]:
    """The in-process engines of another semantics (``OTHER_SEMANTICS``)."""
    return sorted(_python_engines() & OTHER_SEMANTICS)


def external_engines() -> list[str]:
    """The external engines whose descriptors are on the search path (in-tree and ``CGPM_ENGINE_PATH``)."""
    from engines.external.descriptor import discover

    return sorted(set(discover()) - _python_engines())


def all_engine_names() -> list[str]:
    return sorted(set(known_engines()) | set(profile_engines()) | set(external_engines()))


def _load(target: str, name: str) -> type:
    module_name, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as error:
        raise EngineError(f"engine {name!r} could not be loaded from {target}: {error}") from error


@cache
def _external_class(path: Path, modified_ns: int) -> type:
    from engines.external import external_engine_class, read_descriptor

    return external_engine_class(read_descriptor(path))


def descriptor_engine(path: str | Path) -> type:
    """The engine class of the descriptor at ``path`` (one class per file version, so names compare equal)."""
    path = Path(path).resolve()
    if not path.is_file():
        raise EngineError(f"engine descriptor {path} does not exist")
    return _external_class(path, path.stat().st_mtime_ns)


def get_engine(name: str) -> type:
    """The engine registered as ``name``; an unknown name lists the known ones."""
    target = BUILTIN.get(name) or _entry_point_targets().get(name)
    if target is not None:
        return _load(target, name)
    from engines.external.descriptor import discover

    descriptor = discover().get(name)
    if descriptor is None:
        raise EngineError(f"unknown engine {name!r}; known engines: {', '.join(all_engine_names())}")
    return descriptor_engine(descriptor)


def resolve(reference: str | type) -> type:
    """An engine class from a class, a registered name, ``package.module:Class``, or a ``.toml`` descriptor path."""
    if isinstance(reference, type):
        engine_cls = reference
    elif reference.endswith(".toml"):
        engine_cls = descriptor_engine(reference)
    elif ":" in reference:
        engine_cls = _load(reference, reference)
    else:
        return get_engine(reference)
    if not hasattr(engine_cls, "capabilities") or not hasattr(engine_cls, "name"):
        raise EngineError(f"engine {reference!r} has no name or capabilities: it does not follow the engine protocol")
    return engine_cls


def load_problem(name: str) -> str | None:
    """Why the registered engine ``name`` cannot be loaded (its import failed), or None when it loads."""
    try:
        get_engine(name)
    except EngineError as error:
        return str(error)
    return None


def loadable_engines() -> list[str]:
    """The in-process engines that load: what a command runs when none is named (a broken plugin is left out, not fatal)."""
    return [name for name in known_engines() if load_problem(name) is None]


def all_engines() -> dict[str, type]:
    return {name: get_engine(name) for name in loadable_engines()}
