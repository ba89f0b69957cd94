// ivm: a differential-dataflow engine behind cgpm-bench's process protocol (docs/external-engines.md).
//
// The dataflow (dataflow.js) sees the graph G(τ) = D(τ) ∪ S as one collection of triples: the static graph S
// is sent once, before the first event, and after each event the window's content D(τ) (DESIGN.md section 2)
// changes by +1 for a triple that entered it and -1 for one that left: an expired sliding-window triple, the
// previous event's triples of an event window, a deleted triple of an unbounded one. The answer to event i is
// the dataflow's change at that instant: the mappings that became answers and those that stopped being ones.
//
// CGPM_IVM_PLANT=drop-retractions plants a bug (retractions are never sent) for the test that verify catches it.
"use strict";

const {Dataflow} = require("./dataflow");

const CAPABILITIES = {windows: ["event", "sliding", "unbounded"], deletions: true, entailment: ["none"],
  static: true, filters: true, output: "delta", matches: true};
const DROP_RETRACTIONS = process.env.CGPM_IVM_PLANT === "drop-retractions";
const key = (s, p, o) => `${s}\n${p}\n${o}`;  // canonical terms hold no raw newline

// The window's content as a set of triples, and its change per event as [[s, p, o], ±1] pairs.
class WindowContent {
  constructor(window) {
    this.window = window;
    this.present = new Map();  // key -> [s, p, o] (event, unbounded) or [[s, p, o], occurrences] (sliding)
    this.occurrences = [];  // sliding: [ts, key] in arrival order
    this.head = 0;
  }

  advance(ts, updates) {
    const change = new Map();  // key -> [triple, net change]
    const bump = (k, triple, by) => {
      const entry = change.get(k);
      entry ? (entry[1] += by) : change.set(k, [triple, by]);
    };
    const kind = this.window.kind;
    if (kind === "unbounded") {
      for (const [op, s, p, o] of updates) {
        const k = key(s, p, o);
        if (op > 0 && !this.present.has(k)) { const triple = [s, p, o]; this.present.set(k, triple); bump(k, triple, 1); }
        else if (op < 0 && this.present.has(k)) { bump(k, this.present.get(k), -1); this.present.delete(k); }
      }
    } else if (kind === "event") {
      const next = new Map(updates.map(([, s, p, o]) => [key(s, p, o), [s, p, o]]));
      for (const [k, triple] of this.present) if (!next.has(k)) bump(k, triple, -1);
      for (const [k, triple] of next) if (!this.present.has(k)) bump(k, triple, 1);
      this.present = next;
    } else {
      this.slide(ts, updates, bump);
    }
    const changes = [];
    for (const [triple, net] of change.values()) if (net > 0 || (net < 0 && !DROP_RETRACTIONS)) changes.push([triple, net]);
    return changes;
  }

  // Sliding windows: each occurrence enters at its event and leaves once τ_b(τ) passes its timestamp; a triple
  // is in the content while one of its occurrences is.
  slide(ts, updates, bump) {
    const {range_ms: range, slide_ms: slide} = this.window;
    const begin = (Math.floor((ts - range) / slide) + 1) * slide;
    for (const [, s, p, o] of updates) {
      const k = key(s, p, o);
      const entry = this.present.get(k);
      if (entry) entry[1] += 1;
      else { const triple = [s, p, o]; this.present.set(k, [triple, 1]); bump(k, triple, 1); }
      this.occurrences.push([ts, k]);
    }
    while (this.head < this.occurrences.length && this.occurrences[this.head][0] < begin) {
      const k = this.occurrences[this.head++][1], entry = this.present.get(k);
      if (--entry[1] === 0) { this.present.delete(k); bump(k, entry[0], -1); }
    }
    if (this.head > 4096 && this.head * 2 > this.occurrences.length) {
      this.occurrences = this.occurrences.slice(this.head);
      this.head = 0;
    }
  }

  get size() { return this.present.size; }
}

let dataflow = null, content = null, staticChanges = [];

function start(message) {
  const query = message.query;
  if (query.entailment !== "none") throw new Error(`entailment ${query.entailment} is not supported`);
  dataflow = new Dataflow(query);
  content = new WindowContent(query.window);
  // static triples, each once (G is a set; a triple also in the window then has multiplicity 2, which the
  // answer counts absorb), enter with the first event so that nothing is reported before it
  const seen = new Set();
  for (const [s, p, o] of message.static) {
    const k = key(s, p, o);
    if (!seen.has(k)) { seen.add(k); staticChanges.push([[s, p, o], 1]); }
  }
}

function onEvent([index, ts, updates]) {
  let changes = content.advance(ts, updates);
  if (staticChanges) { changes = changes.concat(staticChanges); staticChanges = null; }
  const {added, removed} = dataflow.step(changes);
  return added.length || removed.length ? `[${index},[${added.join(",")}],[${removed.join(",")}]]` : "[]";
}

const out = [];
function onLine(line) {
  const message = JSON.parse(line);
  if (Array.isArray(message)) return out.push(onEvent(message));
  if (message.type === "start") {
    try { start(message); } catch (error) { return out.push(JSON.stringify({type: "error", message: error.message})); }
    return out.push(JSON.stringify({type: "ready"}));
  }
  if (message.type === "answers") return out.push(`{"type":"answers","answers":[${dataflow.answers().join(",")}]}`);
  if (message.type === "stats") {
    return out.push(JSON.stringify({type: "stats", stats: {answers: dataflow.answers().length, window_triples: content.size}}));
  }
  throw new Error(`unknown message ${line.slice(0, 80)}`);
}

// Answers go out when a read is handled, and at least every FLUSH_MS while one takes long (as reeval.js does).
const FLUSH_MS = 1000;
const flush = () => { if (out.length) { process.stdout.write(out.join("\n") + "\n"); out.length = 0; } };
process.stdout.write(JSON.stringify({type: "hello", protocol: 1, name: "ivm", capabilities: CAPABILITIES}) + "\n");
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop();
  let flushed = Date.now();
  try {
    for (const line of lines) {
      if (line) onLine(line);
      if (Date.now() - flushed > FLUSH_MS) { flush(); flushed = Date.now(); }
    }
  } catch (error) {  // e.g. a FILTER form found unsupported only on a value: say so, never answer differently
    flush();
    process.stdout.write(JSON.stringify({type: "error", message: String(error && error.message || error)}) + "\n");
    process.exit(1);
  }
  flush();
});
process.stdin.on("end", () => process.exitCode = 0);
