"""A TOML file is read into its table, or refused in one ConfigError line that names the file and what was wrong.

Every file a user hands the harness as TOML (a bench configuration, a claim file, a scale file, the regression
suite's acceptances) is read here, so each says the same thing about an unreadable or malformed file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from common.errors import ConfigError


def read_toml(path: str | Path, what: str) -> dict:
    """The TOML table of ``path``, a ``what`` (e.g. "configuration"); an unreadable or malformed file is a ConfigError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ConfigError(f"cannot read {what} {path}: {reason}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
