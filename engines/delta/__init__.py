"""The delta engine of Gergatsoulis and Damigos: delta embeddings of BGP queries over insert/delete update streams, by query class."""

from engines.delta.engine import DeltaEngine, DeltaGenericEngine
from engines.delta.explain import explain, explain_text

__all__ = ["DeltaEngine", "DeltaGenericEngine", "explain", "explain_text"]
