"""Descriptors for the misbehaving engine (Python, so these tests need no Node) written to a temporary folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def write_descriptor(folder: Path, mode: str, at: int = 2, name: str = "misbehaving", **settings) -> Path:
    command = ", ".join(f'"{part}"' for part in [sys.executable, str(HERE / "misbehaving.py"), mode, str(at)])
    settings = {"event_timeout_s": 1.5, "startup_timeout_s": 1.5, **settings}
    extra = "\n".join(f"{key} = {value!r}" for key, value in settings.items())
    path = folder / f"{name}-{mode}.toml"
    path.write_text(f"""name = "{name}"
command = [{command}]
{extra}

[capabilities]
windows = ["event", "sliding", "unbounded"]
deletions = true
entailment = ["none"]
static = true
filters = true
output = "delta"
""", encoding="utf-8")
    return path


@pytest.fixture
def descriptor(tmp_path):
    return lambda mode, at=2, **settings: write_descriptor(tmp_path, mode, at, **settings)
