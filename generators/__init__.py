"""Synthetic stream generators, one package per dataset, each a Spark job with a pure-Python twin."""
