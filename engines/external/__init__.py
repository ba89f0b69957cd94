"""Engines in any language: a child process speaking JSON Lines, registered by a TOML descriptor (see docs/external-engines.md)."""

from engines.external.client import ExternalEngine, external_engine_class
from engines.external.descriptor import Descriptor, discover, read_descriptor

__all__ = ["Descriptor", "ExternalEngine", "discover", "external_engine_class", "read_descriptor"]
