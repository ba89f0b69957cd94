"""An external engine is registered by a small TOML descriptor: its name, command, working directory and capabilities.

Descriptors are found on a search path: the in-tree ``engines/external/*.toml`` first, then every
directory (or file) named in ``CGPM_ENGINE_PATH`` (``os.pathsep``-separated); a name found twice
keeps its first descriptor. A descriptor can also be given directly as a file path. The command's
relative paths resolve against ``directory``, itself relative to the descriptor's folder; ``{python}``
in the command is the harness's own interpreter (for engines written in Python)::

    name = "reeval-js"
    command = ["node", "reeval.js"]
    directory = "js"                   # optional, default: the descriptor's folder
    requires = ["node"]                # optional: programs that must be on PATH
    requires_files = []                # optional: files (relative to directory) that must exist
    setup = "make external-engines"    # optional: what to run when a required file is missing
    startup_timeout_s = 30             # optional: start-up and hello
    event_timeout_s = 30               # optional: longest silence while answers are owed
    [capabilities]                     # as engines.protocol.Capabilities
    windows = ["sliding", "event", "unbounded"]
    deletions = true
    entailment = ["none"]
    static = true
    filters = false
    output = "delta"
    reports = "rspjs"                  # optional: it reports natively under this profile (a shipped name, or a
                                       # [capabilities.reports] table of a profile's keys) on sliding windows
"""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from common.errors import ConfigError, EngineError
from engines.model.semantics import Profile, load_profile, profile_from_reference
from engines.protocol import Capabilities

SEARCH_PATH_VARIABLE = "CGPM_ENGINE_PATH"
IN_TREE = Path(__file__).resolve().parent
_KEYS = {"name", "command", "directory", "requires", "requires_files", "setup", "description",
         "startup_timeout_s", "event_timeout_s", "capabilities"}
_CAPABILITY_KEYS = {"windows", "deletions", "entailment", "static", "filters", "output", "matches", "streams", "shares",
                    "profiles", "reports"}


@dataclass(frozen=True)
class Descriptor:
    name: str
    command: tuple[str, ...]
    directory: Path
    capabilities: Capabilities
    path: Path
    requires: tuple[str, ...] = ()
    requires_files: tuple[str, ...] = ()
    setup: str = ""
    description: str = ""
    startup_timeout_s: float = 30.0
    event_timeout_s: float = 30.0

    def unavailable(self) -> str | None:
        """Why this engine cannot start on this machine (a missing program or installed file), or None."""
        for program in self.requires:
            if shutil.which(program) is None:
                return f"external engine {self.name!r} needs {program!r} on PATH, which this machine lacks"
        for name in self.requires_files:
            if not (self.directory / name).exists():
                hint = f"; install it with: {self.setup}" if self.setup else ""
                return f"external engine {self.name!r} is not installed ({self.directory / name} is missing){hint}"
        return None


def native_profile(value, where: str, name: str) -> Profile:
    """The profile of a ``reports`` capability (a shipped name or a table, that one called ``name``); EngineError naming ``where``."""
    try:
        profile = profile_from_reference(value, name)
    except ConfigError as error:
        raise EngineError(f"{where}: capabilities reports: {error}") from None
    if profile.rules() == load_profile("cgpm").rules():
        raise EngineError(f"{where}: capabilities reports names this project's semantics (cgpm), which delta answer "
                          "lines already are: leave reports out")
    if profile.t0 == "any":
        raise EngineError(f"{where}: capabilities reports has t0 = any, but an engine runs from one origin: give an "
                          'integer t0 or "aligned"')
    return profile


def capabilities_from(table: dict, where: str, name: str = "native") -> Capabilities:
    """Capabilities from their JSON/TOML form (the same as ``Capabilities.as_json``); EngineError naming ``where``.
    A ``reports`` table is a profile called ``name`` (the engine's)."""
    if not isinstance(table, dict):
        raise EngineError(f"{where}: capabilities must be a table")
    unknown = set(table) - _CAPABILITY_KEYS
    missing = {"windows", "deletions", "entailment", "static", "filters"} - set(table)
    if unknown or missing:
        what = [f"unknown key(s) {', '.join(sorted(unknown))}"] if unknown else []
        what += [f"missing key(s) {', '.join(sorted(missing))}"] if missing else []
        raise EngineError(f"{where}: capabilities have {' and '.join(what)}")
    if table.get("streams", 1) != 1:
        raise EngineError(f"{where}: capabilities streams must be 1: the wire to an external engine carries no stream IRI")
    if table.get("profiles", ["cgpm"]) != ["cgpm"]:
        raise EngineError(f"{where}: capabilities profiles must be [\"cgpm\"]: the harness cannot re-drive an external "
                          "engine under a profile (one with a semantics of its own declares reports = PROFILE)")
    if table.get("shares", ""):
        raise EngineError(f"{where}: capabilities shares must be empty: the wire to an external engine carries one query")
    reports = None if table.get("reports") is None else native_profile(table["reports"], where, name)
    try:
        capabilities = Capabilities(
            windows=frozenset(table["windows"]), deletions=bool(table["deletions"]),
            entailment=frozenset(table["entailment"]), static=bool(table["static"]), filters=bool(table["filters"]),
            output=str(table.get("output", "delta")), matches=bool(table.get("matches", True)), reports=reports,
        )
    except (TypeError, ValueError) as error:
        raise EngineError(f"{where}: invalid capabilities: {error}") from None
    if reports is not None and "sliding" not in capabilities.windows:
        raise EngineError(f"{where}: capabilities reports apply to sliding windows, which windows does not list")
    return capabilities


def read_descriptor(path: str | Path) -> Descriptor:
    """The descriptor in ``path``; an unreadable or malformed file is an EngineError naming it and the problem."""
    path = Path(path).resolve()
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise EngineError(f"engine descriptor {path}: cannot be read ({error.strerror or error})") from None
    except tomllib.TOMLDecodeError as error:
        raise EngineError(f"engine descriptor {path}: not valid TOML ({error})") from None
    unknown = set(table) - _KEYS
    if unknown:
        raise EngineError(f"engine descriptor {path}: unknown key(s) {', '.join(sorted(unknown))}")
    name, command = table.get("name"), table.get("command")
    if not isinstance(name, str) or not name or ":" in name or "/" in name:
        raise EngineError(f"engine descriptor {path}: 'name' must be a non-empty string without ':' or '/'")
    if isinstance(command, str):
        command = [command]
    if not isinstance(command, list) or not command or not all(isinstance(part, str) and part for part in command):
        raise EngineError(f"engine descriptor {path}: 'command' must be a non-empty list of strings")
    command = [part.replace("{python}", sys.executable) for part in command]
    if "capabilities" not in table:
        raise EngineError(f"engine descriptor {path}: a [capabilities] table is required")
    directory = (path.parent / table.get("directory", ".")).resolve()
    return Descriptor(
        name=name, command=tuple(command), directory=directory, path=path,
        capabilities=capabilities_from(table["capabilities"], f"engine descriptor {path}", name),
        requires=tuple(table.get("requires", ())), requires_files=tuple(table.get("requires_files", ())),
        setup=str(table.get("setup", "")), description=str(table.get("description", "")),
        startup_timeout_s=float(table.get("startup_timeout_s", 30.0)),
        event_timeout_s=float(table.get("event_timeout_s", 30.0)),
    )


def search_path() -> list[Path]:
    """Where descriptors are looked for, in order: in-tree, then ``CGPM_ENGINE_PATH``."""
    extra = [Path(part) for part in os.environ.get(SEARCH_PATH_VARIABLE, "").split(os.pathsep) if part]
    return [IN_TREE, *extra]


def discover() -> dict[str, Path]:
    """Every descriptor on the search path by engine name (the first one found wins); unreadable ones are skipped
    here and reported when that engine is asked for by its file."""
    found: dict[str, Path] = {}
    for place in search_path():
        files = sorted(place.glob("*.toml")) if place.is_dir() else [place] if place.suffix == ".toml" else []
        for file in files:
            try:
                name = read_descriptor(file).name
            except EngineError:
                continue
            found.setdefault(name, file)
    return found
