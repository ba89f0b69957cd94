"""The Spark oracle tests' session (one local JVM for the test session, one shuffle partition), reused here."""

from tests.oracles.conftest import spark  # noqa: F401 (a fixture)
