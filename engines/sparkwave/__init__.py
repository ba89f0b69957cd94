"""Sparkwave (Komazec, Cerri, Fensel, DEBS 2012): continuous schema-enhanced pattern matching over RDF streams with Rete.

An ε-network (``epsilon``) derives what the schema entails from each triple and feeds the
α-network (``alpha``), one of each per window graph (``graphs``: a window over a stream, or the
static graph); the β-network (``beta``, built by ``network``) joins by hash on the join variables
and keeps tokens with their window bounds; the engine (``engine``) runs windows, named windows over
several streams, static data, collection (Algorithm 1) and unbounded update streams, and
``query_set`` many queries in one network.

Where the code departs from the paper, and why:

1. Window boundary. The paper's code admits a match when its span ``τ_end − τ_start`` is strictly
   less than ω. Here every window kind of DESIGN.md section 2 runs (sliding, tumbling, event,
   unbounded, and named windows over several streams): a token is made only if its bound, the last
   instant at which all its triples are in their windows, is not before the current instant; with
   one window that is ``τ_start >= τ_b(τ)``, which for ``sliding(ω, 1)`` is the paper's rule.
2. Sets, not duplicates-as-new-matches. The paper's code treats a repeated triple as a new
   streamed triple and reports the new matches it makes. Here a triple is one working-memory
   element however often it is streamed or derived; a repeat re-stamps it, so it leaves with its
   last occurrence, and each mapping has at most one match. The production still counts matches
   per mapping (a mapping is an answer while any of its matches is present).
3. Output. The paper emits new matches (Istream); every push here returns exactly
   ``Δ⁺ = M(τ_i) − M(τ_{i−1})`` and ``Δ⁻``: the complete matches collected or retracted are the
   removed answers, netted over the event.
4. Re-stamped tokens. A token's stored bound is a lower bound once one of its triples has been
   re-stamped; the join test refreshes it from the chain before refusing (``BetaMemory.refresh``).
   ``τ_end`` is not stored: with the window test on the bound (note 1) nothing reads it.
5. Collection runs at the end of every event on a time-ordered queue of stamps, not by scanning
   every α-memory; the ε-network keeps no per-triple tokens, so Algorithm 1's first loop has
   nothing to clear.
6. Derivation counting. In windows a triple's stamp is the latest of its sources' (a source
   leaves the window before any later one), which is how a triple streamed and derived, or derived
   twice, outlives the source that leaves first; on unbounded streams, where sources leave by
   deletion in any order, the derivations are counted (``SparkwaveEngine.support``).
7. Join order is chosen at build time (most constants first, connected patterns next), not taken
   from the pattern text.
8. Compact state (issue 22). A token ``(parent, triple)`` is kept as its row of bound values, which
   names both (the parent's row is its prefix; the triple is the pattern filled from the row), with its
   bound: a memory with children holds each token once, as a held row (values, then bound) in its
   children's hash indexes, and only the last memory of a chain keeps a dict from row to bound. A WME is an item of each α-memory it passes (its terms at the memory's variable
   positions, interned, then its stamp), found through the memory's home index: there is no working
   memory beside the α-memories and no per-triple object beside the item, and a first join's token is
   its triple's item itself. No token links to its children or its triple, so retraction is
   rematch-based (Doorenbos 1995): a leaving triple's tokens are its joins now, found by the same hash
   indexes as when it arrived, and Algorithm 1's ``triple.tokens`` is computed, not stored. Hash buckets
   holding one tuple are the tuple itself (``bags``). When every variable is selected, the last memory's
   rows are the answers.
9. Beyond the paper: deletions on unbounded streams (Rete retraction), FILTERs tested at the first
   join where their variables are bound (``engines.model.filters``), variable predicates, constants in
   any position, repeated variables in one pattern (α tests), disconnected patterns, and
   generalized triples inside the ε-network (``x p "v"`` with p inverse of q and q ranged entails
   a type for x, as the oracle's RDFS regime does), and patterns allotted to named windows over
   several streams, each window with its range and slide (RSP-QL; the paper's section 5 plans
   "the allocation of sub-patterns to different streams" and windows "at the level of sub-patterns").
10. Window bounds per token, read through each triple's window. The paper keeps each token's interval
   and tests it at the join against the pattern's window (section 3.5), so that one join node can serve
   patterns of different windows. Here a WME's stamp is the last instant it is in its own window and a
   token's bound is the least of its triples' (``graphs``, ``beta``), tested against one clock, the
   current instant: the test is the same whatever the windows, so one chain joins patterns of named
   windows of different ranges over different streams (RSP-QL, DESIGN.md section 2), and queries of
   different time windows are productions of one network (``query_set``). What is not shared across
   windows is memory: a triple is a WME of each window graph it enters, since its stamp is its window's,
   so patterns of different windows read different α-memories and join nodes are shared between
   patterns of equal windows only. Sharing them across windows, as the paper suggests, would keep a
   triple for its largest window and make tokens for it, and each production would then have to drop
   its matches when its own, smaller window moves past them: an expiry of complete matches per
   production that Rete's retraction (driven by a triple leaving its α-memories) does not give, and that
   the paper's own collector (Algorithm 1: one ``timeWindow`` threshold) does not have either. Not built.
"""

from engines.sparkwave.engine import SparkwaveEngine

__all__ = ["SparkwaveEngine"]
