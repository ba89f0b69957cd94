"""One SparkSession for the whole test session (starting a JVM costs seconds), made only when a test asks for it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def spark():
    from harness.spark import spark_session

    session = spark_session("local[2]", app_name="cgpm-tests", progress=False)
    yield session
    session.stop()
