"""An operational semantics is data: a Profile is read once, from a shipped name or a TOML file, and every value in it is valid.

A profile says when a continuous query is evaluated and what is reported (DESIGN.md section 2, Profiles):
the window origin ``t0``, the ``bounds`` of an instance, the ``tick`` that drives evaluation, the ``report``
policies (all must hold for a report), whether an ``empty`` result is reported, and the relation-to-stream
``output``; optionally ``close``, when ``window-close`` counts an instance closed (``after-last``, the default:
at the first tick after its last included timestamp; ``after-c``: at the first tick after its close c, as
RSP4J's and RSP-JS's ``OnWindowClose`` test ``c < t``). The range and slide stay in the query's window. ``profiles.toml`` beside this module holds the
named profiles, each with its source; ``cgpm`` is this project's semantics, the default.

A ``Report`` is one item of the report stream a query gives under a profile. This module holds data only:
the oracles (``oracles.reports``) and the engines' adapter (``engines.profiled``) each compute reports with
their own code.
"""

from __future__ import annotations

import functools
import importlib.resources
import tomllib
from dataclasses import dataclass
from pathlib import Path

from common.errors import ConfigError, WindowError
from engines.model.stream import Mapping
from engines.model.windows import parse_duration

# read as a package resource: inside a Spark task the project is a zip on sys.path, where a file path cannot be opened
PROFILES_FILE = importlib.resources.files(__package__).joinpath("profiles.toml")
DEFAULT_PROFILE = "cgpm"

BOUNDS = ("[o,c)", "(o,c]", "[o,c]")
TICKS = "tuple, batch or time:P"
POLICIES = "every-tick, content-change, window-close, non-empty or periodic:P"
OUTPUTS = ("rstream", "istream", "dstream", "delta")
T0_VALUES = 'an integer (ms), "any" or "aligned"'
KEYS = ("t0", "bounds", "tick", "report", "empty", "output")
CLOSES = ("after-last", "after-c")
OPTIONAL_KEYS = {"close": CLOSES[0]}  # a profile without them keeps the default, so every older file still reads
# the rows a report carries under each output (a trace line's and an external engine's report keys)
OUTPUT_KEYS = {"rstream": ("relation",), "istream": ("added",), "dstream": ("removed",), "delta": ("added", "removed")}


@dataclass(frozen=True)
class Profile:
    """One operational semantics; ``t0`` is an integer, ``"any"`` (unknown origin) or ``"aligned"`` (instances at every k·slide)."""

    name: str
    t0: int | str
    bounds: str
    tick: str  # "tuple", "batch" or "time:P" with P in whole ms
    report: frozenset[str]  # "periodic:P" with P in whole ms
    empty: bool
    output: str
    source: str = ""
    close: str = CLOSES[0]  # "after-last" or "after-c": when window-close counts an instance closed

    @property
    def tick_period(self) -> int | None:
        """P of a ``time:P`` tick, None for the tuple and batch ticks."""
        return int(self.tick.split(":")[1]) if self.tick.startswith("time:") else None

    @property
    def report_period(self) -> int | None:
        """P of a ``periodic:P`` report policy, None without one."""
        periods = [int(policy.split(":")[1]) for policy in self.report if policy.startswith("periodic:")]
        return periods[0] if periods else None

    @property
    def base(self) -> int:
        """Where instances, time ticks and periods are counted from: t0, or 0 when aligned."""
        return self.t0 if isinstance(self.t0, int) else 0

    def rules(self) -> tuple:
        """Everything that decides the report stream: two profiles with equal rules are one semantics, whatever their names."""
        return (self.t0, self.bounds, self.tick, self.report, self.empty, self.output, self.close)

    def as_json(self) -> dict:
        return {"name": self.name, "t0": self.t0, "bounds": self.bounds, "tick": self.tick,
                "report": sorted(self.report), "empty": self.empty, "output": self.output, "close": self.close}

    def as_table(self) -> dict:
        """The profile's keys as a profile file has them (no name, no source)."""
        table = self.as_json()
        del table["name"]
        return table


@dataclass(frozen=True)
class Report:
    """``(time, window instance, rows)``: ``relation`` for rstream, ``added`` for istream, ``removed`` for dstream, both for delta.

    ``window`` is the reported instance's ``(open, close)`` in ms as the profile's bounds define them, or None
    for the windows that have no instances (``event``, ``unbounded``, under ``cgpm`` only). Rows are full mappings.
    """

    time: int
    window: tuple[int, int] | None
    relation: frozenset[Mapping] | None = None
    added: frozenset[Mapping] | None = None
    removed: frozenset[Mapping] | None = None


def _period(key: str, text: str, allowed: str) -> int:
    try:
        period = parse_duration(text)
    except WindowError as error:
        raise ConfigError(f"profile key {key!r}: {error} (allowed: {allowed})") from None
    if period < 1:
        raise ConfigError(f"profile key {key!r}: a period of {text!r} is not at least 1 ms (allowed: {allowed})")
    return period


def _t0(value) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)) or (isinstance(value, str) and value not in ("any", "aligned")):
        raise ConfigError(f"profile key 't0' is {value!r}; allowed: {T0_VALUES}")
    return value


def _tick(value) -> str:
    if value in ("tuple", "batch"):
        return value
    if isinstance(value, str) and value.startswith("time:"):
        return f"time:{_period('tick', value[5:], TICKS)}"
    raise ConfigError(f"profile key 'tick' is {value!r}; allowed: {TICKS}")


def _report(value) -> frozenset[str]:
    if not isinstance(value, list) or not value:
        raise ConfigError(f"profile key 'report' is {value!r}; allowed: a non-empty list of {POLICIES}")
    policies = set()
    for policy in value:
        if policy in ("every-tick", "content-change", "window-close", "non-empty"):
            policies.add(policy)
        elif isinstance(policy, str) and policy.startswith("periodic:"):
            policies.add(f"periodic:{_period('report', policy[9:], POLICIES)}")
        else:
            raise ConfigError(f"profile key 'report' has {policy!r}; allowed: {POLICIES}")
    if sum(policy.startswith("periodic:") for policy in policies) > 1:
        raise ConfigError("profile key 'report' names two periods; allowed: one periodic:P")
    return frozenset(policies)


def _choice(key: str, value, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"profile key {key!r} is {value!r}; allowed: {', '.join(allowed)}")
    return value


def _close(value, report: frozenset[str]) -> str:
    close = _choice("close", value, CLOSES)
    if close != CLOSES[0] and "window-close" not in report:
        raise ConfigError(f"profile key 'close' is {close!r}, which says when window-close counts an instance closed; "
                          f"allowed without window-close in 'report': {CLOSES[0]}")
    return close


def profile_from_table(name: str, table: dict, *, source: str = "") -> Profile:
    """A Profile from a TOML table with the keys of ``KEYS``, optionally ``OPTIONAL_KEYS`` (and ``source`` in the shipped file)."""
    allowed = (*KEYS, *OPTIONAL_KEYS)
    unknown = sorted(set(table) - set(allowed) - {"source"})
    if unknown:
        raise ConfigError(f"profile {name}: unknown key {unknown[0]!r}; allowed: {', '.join(allowed)}")
    missing = [key for key in KEYS if key not in table]
    if missing:
        raise ConfigError(f"profile {name}: missing key {missing[0]!r} (a profile has {', '.join(KEYS)})")
    if not isinstance(table["empty"], bool):
        raise ConfigError(f"profile key 'empty' is {table['empty']!r}; allowed: true or false")
    report = _report(table["report"])
    return Profile(name, _t0(table["t0"]), _choice("bounds", table["bounds"], BOUNDS), _tick(table["tick"]),
                   report, table["empty"], _choice("output", table["output"], OUTPUTS),
                   table.get("source", source), _close(table.get("close", OPTIONAL_KEYS["close"]), report))


def named_profiles() -> dict[str, Profile]:
    """Every shipped profile by name, in the file's order."""
    return dict(_shipped())


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[tuple[str, Profile], ...]:
    tables = tomllib.loads(PROFILES_FILE.read_text(encoding="utf-8"))
    return tuple((name, profile_from_table(name, table)) for name, table in tables.items())


def same_but_tick_period(profile: Profile, other: Profile) -> bool:
    """Whether two profiles say the same, save their names, sources and the periods of their ``time:P`` ticks."""
    def kept(p: Profile) -> tuple:
        rules = p.rules()  # (t0, bounds, tick, ...): the tick's period left out
        return rules[:2] + (p.tick if p.tick_period is None else "time",) + rules[3:]

    return kept(profile) == kept(other)


def load_profile(spec: str | None) -> Profile:
    """The profile a ``--semantics`` value names: a shipped name, or a TOML file with the keys of ``KEYS``."""
    shipped = named_profiles()
    if spec is None:
        return shipped[DEFAULT_PROFILE]
    if spec in shipped:
        return shipped[spec]
    path = Path(spec)
    if not path.is_file():
        raise ConfigError(f"unknown profile {spec!r}; expected one of {', '.join(shipped)} or a TOML file")
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise ConfigError(f"profile file {path}: not TOML ({error})") from None
    return profile_from_table(path.stem, table, source=str(path))


def profile_reference(profile: Profile) -> str | dict:
    """How a capability names a profile: its shipped name when it is that profile, else its table of keys."""
    shipped = named_profiles().get(profile.name)
    return profile.name if shipped is not None and shipped.rules() == profile.rules() else profile.as_table()


def profile_from_reference(value, name: str) -> Profile:
    """The profile a capability names: a shipped name, or a table of its keys (that profile called ``name``)."""
    if isinstance(value, str):
        shipped = named_profiles()
        if value not in shipped:
            raise ConfigError(f"unknown profile {value!r}; expected one of {', '.join(shipped)} or a table of its keys")
        return shipped[value]
    if not isinstance(value, dict):
        raise ConfigError(f"a profile is a shipped name or a table of its keys, not {value!r}")
    return profile_from_table(name, value)
