"""What LSBench (S2Gen) and LDBC SNB share: counter-based draws, a friendship graph, timed activity, time-ordered rows."""
