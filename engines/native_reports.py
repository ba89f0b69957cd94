"""An engine that reports natively under its own profile is relayed, never re-driven: its reports are compared as it gives them.

``NativeRun`` has ``engines.profiled.ProfiledRun``'s interface, ``push(event)`` and ``finish()`` each giving
a list of ``engines.model.semantics.Report``, so ``verify`` compares and ``run --trace`` writes either one
way. Where ProfiledRun moves an engine of this project's semantics with clock events and shifted times
until its state is the profile's, NativeRun only passes the events on (``push_reports``) and asks for the
end-of-stream flush (``finish_reports``): the engine's semantics is its own (``Capabilities.reports``),
so it is taken only under that profile, or one equal to it as data, and refused by name under any other.

``report_run`` gives the run an engine and query take: native on one time-based window of an engine that
declares native reports, profiled otherwise (its event and unbounded windows answer with deltas).
"""

from __future__ import annotations

from collections.abc import Iterable

from common.errors import EngineError
from engines.model.semantics import Profile, Report
from engines.model.stream import ContinuousQuery, Event
from engines.profiled import ProfiledRun


class NativeRun:
    """Feeds an engine that reports natively the stream event by event and returns the reports it gives."""

    def __init__(self, engine, query: ContinuousQuery, profile: Profile) -> None:
        engine_cls = type(engine)
        reason = engine_cls.capabilities.native_refusal(query, profile)
        if reason is not None:
            raise EngineError(f"engine {engine_cls.name!r} does not support {reason}")
        built_for = getattr(engine, "profile", None)  # an engine built with profile= (Capabilities.any_period)
        if built_for is not None and built_for != profile:
            raise EngineError(f"engine {engine_cls.name!r} was built for profile {built_for.name}, not {profile.name}")
        self.engine = engine

    def push(self, event: Event) -> list[Report]:
        return list(self.engine.push_reports(event))

    def finish(self) -> list[Report]:
        """The reports the end of the stream flushes, as the engine gives them."""
        return list(self.engine.finish_reports())


def report_run(engine, query: ContinuousQuery, profile: Profile) -> NativeRun | ProfiledRun:
    """The run that gives ``engine``'s reports for ``query`` under ``profile`` (module docstring)."""
    if type(engine).capabilities.reports_natively(query):
        return NativeRun(engine, query, profile)
    return ProfiledRun(engine, query, profile)


def run_profiled(engine, query: ContinuousQuery, profile: Profile, events: Iterable[Event]) -> list[Report]:
    """Every report the engine gives over ``events`` under ``profile``, natively or re-driven (``report_run``)."""
    run = report_run(engine, query, profile)
    reports = [report for event in events for report in run.push(event)]
    return reports + run.finish()
