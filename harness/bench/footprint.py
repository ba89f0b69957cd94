"""An engine's footprint is the RSS it adds from its first event to its peak, over the distinct triples its window holds at the end.

The quick, in-process form of a bench cell's memory columns (``rss_growth_bytes``,
``bytes_per_window_triple``), for working on an engine's layout: one pass, the stream read batch by
batch (so the term strings an engine keeps are its own cost, as in every run), RSS sampled from a
thread by the cell's own ``RssSampler``, the baseline taken after the stream is opened, the engine
class resolved, garbage collected and Arrow's pool released, just before the engine is built. The
growth includes the reader's own bounded memory (a batch, the term cache): ``scan``'s growth is that
floor, to be read beside an engine's. Throughput is the pass's
push time alone (decoding excluded), as in a cell. For published figures use ``cgpm bench``: a
fresh process per cell and repetitions with their spread.

    python -m harness.bench.footprint --engine tpjoin-lazy --stream DIR --query Q.rq --window sliding:1000s:20ms
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Footprint:
    engine: str
    events: int
    triples: int
    window_triples: int
    rss_base_bytes: int
    rss_peak_bytes: int
    push_s: float
    decode_s: float

    @property
    def rss_growth_bytes(self) -> int:
        return self.rss_peak_bytes - self.rss_base_bytes

    @property
    def bytes_per_window_triple(self) -> float | None:
        return self.rss_growth_bytes / self.window_triples if self.window_triples else None

    def as_json(self) -> dict:
        return {**asdict(self), "rss_growth_bytes": self.rss_growth_bytes,
                "bytes_per_window_triple": self.bytes_per_window_triple,
                "triples_per_s": self.triples / self.push_s if self.push_s > 0 else None}


def measure(engine: str, query, stream, *, rss_hz: float = 50.0) -> Footprint:
    """One pass of ``engine`` over ``stream`` (a ``OpenStream`` or a ``Stream``) for ``query``, measured."""
    import pyarrow as pa

    from harness.bench.latencies import PassLatencies
    from harness.bench.passes import timed_pass
    from harness.bench.quantiles import LatencySketch
    from harness.bench.sampler import RssSampler
    from harness.bench.steady import retained_triples
    from harness.engines_setup import close_engine, engine_class_for
    from harness.streams.event_index import facts_of

    engine_cls = engine_class_for(engine, query, stream)
    timeline = facts_of(stream)
    gc.collect()
    pa.default_memory_pool().release_unused()  # what the window count's Arrow scan freed must not hide the engine's growth
    sampler = RssSampler(rss_hz).start()
    latencies = PassLatencies(LatencySketch())
    try:
        base = sampler.rss()
        instance, totals = timed_pass(engine_cls, query, stream, latencies)
        end = sampler.rss()
    finally:
        sampler.stop()
    close_engine(instance)
    window_triples = retained_triples(stream, query.window)  # after the pass: its memory must not hide the engine's
    peak = max([end, *(value for _, value, _ in sampler.series)])
    return Footprint(engine_cls.name, timeline.events, timeline.triples, window_triples, base, peak,
                     latencies.sketch.total / 1e9, totals["decode_s"])


def main(argv: list[str] | None = None) -> int:
    from common.errors import CgpmError
    from engines.model.query import load_query
    from engines.model.windows import parse_window
    from harness.streams.reader import open_stream

    parser = argparse.ArgumentParser(prog="python -m harness.bench.footprint", description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True)
    parser.add_argument("--stream", required=True)
    parser.add_argument("--query", required=True)
    parser.add_argument("--window", help="window spec (default: the query's)")
    parser.add_argument("--entailment", choices=("none", "rdfs"))
    parser.add_argument("--max-events", type=int)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        query = load_query(args.query, window=parse_window(args.window) if args.window else None,
                           entailment=args.entailment)
        stream = open_stream(args.stream, max_events=args.max_events).checked_against(query.window)
        result = measure(args.engine, query, stream)
    except CgpmError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_json()))
    else:
        figures = result.as_json()
        per_triple = figures["bytes_per_window_triple"]
        print(f"{result.engine}: {result.events} events, {result.triples} triples, window holds {result.window_triples} "
              f"distinct triples at the end; RSS +{result.rss_growth_bytes / 2**20:.1f} MiB = "
              f"{per_triple:.0f} bytes per window triple; {figures['triples_per_s'] or 0:,.0f} triples/s "
              f"(push {result.push_s:.2f}s, decode {result.decode_s:.2f}s apart)" if per_triple is not None else
              f"{result.engine}: the window is empty at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
