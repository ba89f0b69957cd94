"""The user's door: CLI, stream I/O, Spark, runs, metrics, verification, reports."""
