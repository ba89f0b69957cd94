"""Engines for continuous graph pattern matching, their shared vocabulary and the registry."""
