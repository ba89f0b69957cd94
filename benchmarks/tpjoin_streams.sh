#!/usr/bin/env bash
# The streams of TP-Join's LSBench and SNB experiments (issue 11), made once before the runs of
# benchmarks/configs/tpjoin-*.toml that name them (the runner's `generate` table takes no generator options,
# and these need --option). Deterministic: the same command makes the same rows. Pure-Python twins (--no-spark)
# write the same rows as the Spark generators.
#   taskset -c 0 bash benchmarks/tpjoin_streams.sh     (from the repository root)
set -euo pipefail
out=results/runs/tpjoin-streams
python=${PYTHON:-.venv/bin/python}   # the repository's venv (make install); PYTHON=... for another
gen() { local name=$1; shift; [ -f "$out/$name/stream.json" ] || "$python" -m harness generate "$@" --no-spark --out "$out/$name"; }
mkdir -p "$out"
# LSBench post events (10-14 triples each) of users u900-u1099, 1000 triples per second of stream time: figure 7's
# events (CQELS's queries named u984 and p984 when this stream was chosen; figure 7's queries name no user)
gen lsbench-u200-posts-rate1000 lsbench --index 900 --scale 200 --option stream=posts --rate 1000
# the same shape for users u0-u199: figure 15 (Q1-Q3 name u0 and p0 since 1ef35ca; Q2, Q3 join static.nt)
gen lsbench-u200-from0-posts-rate1000 lsbench --index 0 --scale 200 --option stream=posts --rate 1000
# a stream's events without its static graph: figure 7 (its queries need none, as the paper's Q1; E-CGPM* would
# otherwise scan the static triples at every join, which measures the static graph, not partitioning)
without_static() {
  local source=$1 name=$2
  [ -f "$out/$name/stream.json" ] && return
  rm -rf "$out/$name.partial"
  cp -r "$out/$source" "$out/$name.partial"
  rm "$out/$name.partial/static.nt"
  "$python" - "$out/$name.partial/stream.json" "$source" <<'PY'
import json, sys
path, source = sys.argv[1], sys.argv[2]
info = json.load(open(path))
info.get("files", {}).pop("static.nt", None)
info["derived"] = f"{source} without static.nt (benchmarks/tpjoin_streams.sh)"
json.dump(info, open(path, "w"), indent=1)
PY
  mv "$out/$name.partial" "$out/$name"
}
without_static lsbench-u200-posts-rate1000 lsbench-u200-posts-nostatic
# SNB, one event per week of one year (event size grows with the persons): figures 8-12, Table I
for persons in 100 200 400; do gen "snb-p$persons-week" snb --scale "$persons" --option events=week; done
# SNB, one event per message (10-50 triples), 1000 triples per second: windows (figure 13) and FILTERs (figure 14)
gen snb-p200-message-rate1000 snb --scale 200 --rate 1000
# the same at 1000 persons (1.43M triples): figure 13 past 2*10^5 triples (tpjoin-snb-large-windows.toml)
gen snb-p1000-message-rate1000 snb --scale 1000 --rate 1000
# The paper-scale streams (issue 23), only with PAPER_SCALE=1: made on local Spark (minutes, not hours, on one core)
if [ "${PAPER_SCALE:-0}" = 1 ]; then
  spark_gen() { local name=$1; shift; [ -f "$out/$name/stream.json" ] || "$python" -m harness generate "$@" --master 'local[1]' --out "$out/$name"; }
  # LSBench post events of users u0-u42999: 10,011,615 triples (figure 15 at 10M, tpjoin-lsbench-windows-paper-scale.toml)
  spark_gen lsbench-u43k-posts-rate1000 lsbench --scale 43000 --option stream=posts --rate 1000
  # the same without its static graph: figure 7 at 10M (tpjoin-partition-paper-scale.toml)
  without_static lsbench-u43k-posts-rate1000 lsbench-u43k-posts-nostatic
  # SNB for 30,000 persons, one event per week of one year: 44,995,970 triples in 53 events of 24k to 2.5M triples
  # (figures 8-12 at the paper's scale, tpjoin-snb-events-paper-scale*.toml)
  spark_gen snb-p30000-week snb --scale 30000 --option events=week
  # the same persons in message events (10-50 triples), 1000 triples per second: figure 13 at a window of 10^7
  spark_gen snb-p30000-message-rate1000 snb --scale 30000 --rate 1000
fi
