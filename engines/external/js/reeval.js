// The re-evaluation baseline as an external engine: keeps the window's triples, re-matches the
// basic graph pattern after every event that changed them, and answers with the difference.
// It proves the process protocol end to end (docs/external-engines.md); no dependencies but Node.
// Departs from reeval (Python): no FILTERs and no entailment, which it declares.
"use strict";

const CAPABILITIES = {windows: ["event", "sliding", "unbounded"], deletions: true, entailment: ["none"],
  static: true, filters: false, output: "delta", matches: true};
let query = null, staticKeys = new Set(), windowCount = new Map(), occurrences = [], head = 0;
let graph = new Set(), current = new Map(), first = true;
const key = (s, p, o) => JSON.stringify([s, p, o]);
const out = [];

function start(message) {
  query = message.query;
  if (query.filters.length) throw new Error("FILTERs are not supported");
  if (query.entailment !== "none") throw new Error(`entailment ${query.entailment} is not supported`);
  for (const [s, p, o] of message.static) staticKeys.add(key(s, p, o));
}

// The window's content after event [index, ts, updates], as DESIGN.md section 2 defines it.
function advance(ts, updates) {
  const w = query.window;
  if (w.kind === "unbounded") {
    for (const [op, s, p, o] of updates) op > 0 ? graph.add(key(s, p, o)) : graph.delete(key(s, p, o));
    return true;
  }
  if (w.kind === "event") { graph = new Set(updates.map(([, s, p, o]) => key(s, p, o))); return true; }
  const begin = (Math.floor((ts - w.range_ms) / w.slide_ms) + 1) * w.slide_ms;
  for (const [, s, p, o] of updates) {
    const k = key(s, p, o);
    occurrences.push([ts, k]);
    windowCount.set(k, (windowCount.get(k) || 0) + 1);
  }
  let changed = updates.length > 0;
  while (head < occurrences.length && occurrences[head][0] < begin) {
    const k = occurrences[head++][1], n = windowCount.get(k) - 1;
    n ? windowCount.set(k, n) : windowCount.delete(k);
    changed = true;
  }
  if (head > 4096 && head * 2 > occurrences.length) { occurrences = occurrences.slice(head); head = 0; }
  graph = windowCount;
  return changed;
}

function evaluate() {
  const triples = [...new Set([...graph.keys(), ...staticKeys])].map((k) => JSON.parse(k));
  const results = new Map();
  const vars = query.variables;
  const match = (depth, binding) => {
    if (depth === query.patterns.length) {
      const mapping = vars.map((v) => binding[v]);
      results.set(JSON.stringify(mapping), mapping);
      return;
    }
    const pattern = query.patterns[depth];
    for (const triple of triples) {
      const extended = Object.assign({}, binding);
      let ok = true;
      for (let i = 0; i < 3 && ok; i++) {
        const x = pattern[i], t = triple[i];
        if (x[0] !== "?") ok = x === t;
        else if (x in extended) ok = extended[x] === t;
        else extended[x] = t;
      }
      if (ok) match(depth + 1, extended);
    }
  };
  match(0, {});
  return results;
}

function onEvent([index, ts, updates]) {
  if (!advance(ts, updates) && !first) return "[]";
  first = false;
  const next = evaluate(), added = [], removed = [];
  for (const [k, m] of next) if (!current.has(k)) added.push(m);
  for (const [k, m] of current) if (!next.has(k)) removed.push(m);
  current = next;
  return added.length || removed.length ? JSON.stringify([index, added, removed]) : "[]";
}

function onLine(line) {
  const message = JSON.parse(line);
  if (Array.isArray(message)) return out.push(onEvent(message));
  if (message.type === "start") {
    try { start(message); } catch (error) { return out.push(JSON.stringify({type: "error", message: error.message})); }
    return out.push(JSON.stringify({type: "ready"}));
  }
  if (message.type === "answers") return out.push(JSON.stringify({type: "answers", answers: [...current.values()]}));
  if (message.type === "stats") return out.push(JSON.stringify({type: "stats", stats: {answers: current.size, window_triples: graph.size}}));
  throw new Error(`unknown message ${line.slice(0, 80)}`);
}

process.stdout.write(JSON.stringify({type: "hello", protocol: 1, name: "reeval-js", capabilities: CAPABILITIES}) + "\n");
let pending = "";
process.stdin.setEncoding("utf8");
// Answers go out when a read is handled, and at least every FLUSH_MS while one takes long: a read can hold
// thousands of events, and a silence as long as all of them would look like a hung engine to the harness.
const FLUSH_MS = 1000;
const flush = () => { if (out.length) { process.stdout.write(out.join("\n") + "\n"); out.length = 0; } };
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop();
  let flushed = Date.now();
  for (const line of lines) {
    if (line) onLine(line);
    if (Date.now() - flushed > FLUSH_MS) { flush(); flushed = Date.now(); }
  }
  flush();
});
process.stdin.on("end", () => process.exitCode = 0);
