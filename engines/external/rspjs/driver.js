// RSP-JS behind cgpm-bench's process protocol (docs/external-engines.md).
//
// RSP-JS keeps CQELS/C-SPARQL windows [o, c) and reports a window's content when it closes, i.e.
// when an element with a later timestamp than c arrives; its R2R operator evaluates the query
// over that content with Comunica, asynchronously. The project's `event` window (the content at
// instant i is event i alone) is mapped onto it exactly:
//   - event i's triples enter RSP-JS's stream at time 3i, into the window [3i, 3i+1) of RANGE 1 STEP 1;
//   - a tick triple <urn:cgpm:tick> at time 3i+2 then closes that window (the one with the largest
//     c < 3i+2), and RSP-JS reports it; its content is event i's triples, deduplicated by N3's store;
//   - the reported content goes through RSP-JS's R2R operator (Comunica over the content plus the static data);
//     bindings that mention the tick IRI come from the tick and are dropped (no query names that IRI).
// RSPEngine.register() fires a binding at a time and never says a window's results are complete,
// so the driver subscribes to the window operator and runs the R2R operator itself, as register()
// does, and waits for the end of the bindings stream before it answers the event.
//
// Sliding windows are RSP-JS's own semantics, reported natively under the profile rspjs (capability
// reports): each event's triples enter the window operator at the event's own timestamp, and each
// instance the operator reports is relayed as one report, its content evaluated as above (nothing for
// an empty content or a result without bindings, as register() emits nothing then). An event without
// triples enters as one clock quad <urn:cgpm:tick> (RSP-JS's elements are quads), and at the end
// (finish) a clock quad at c + 1 closes each instance left, oldest first, as a clock passing its close
// would; clock quads are taken out of every content before it is evaluated. Unbounded windows: refused.
"use strict";

const fs = require("fs");
fs.mkdirSync("logs", {recursive: true});  // RSP-JS's logger writes there
const quiet = () => {};
console.log = console.debug = console.info = quiet;  // RSP-JS prints a line per element and per window
const {RSPEngine} = require("rsp-js");
const {QuadContainer} = require("rsp-js/dist/operators/s2r");
const N3 = require("n3");

const CAPABILITIES = {windows: ["event", "sliding"], deletions: false, entailment: ["none"], static: true,
  filters: true, output: "delta", matches: true, reports: "rspjs"};
const TICK = "urn:cgpm:tick", STREAM = "urn:cgpm:stream", WINDOW = "urn:cgpm:window";
const {namedNode, quad} = N3.DataFactory;
const send = (value) => process.stdout.write(JSON.stringify(value) + "\n");
const silentLogger = {info: quiet, debug: quiet, warn: quiet, error: quiet, trace: quiet, log: quiet};

let engine, window, stream, variables, sparqlVariables, sliding = false, current = new Map();
const original = new Map();  // a term's key -> its N-Triples string as the harness spelt it

function termKey(term) {
  if (term.termType === "Literal") return `L${term.value}\u0000${term.language}\u0000${term.datatype.value}`;
  return term.termType[0] + term.value;
}

// Comunica qualifies a source's blank nodes by the source (label n1 comes back as bc_0_n1): undo that.
const SOURCE_BLANK = /^bc_\d+_(.*)$/;

function ntriples(term) {
  if (term.termType === "BlankNode" && SOURCE_BLANK.test(term.value)) {
    term = {termType: "BlankNode", value: term.value.replace(SOURCE_BLANK, "$1")};
  }
  const known = original.get(termKey(term));
  if (known !== undefined) return known;
  if (term.termType === "NamedNode") return `<${term.value}>`;
  if (term.termType === "BlankNode") return `_:${term.value}`;
  return JSON.stringify(term.value) + (term.language ? `@${term.language}` : `^^<${term.datatype.value}>`);
}

function parseTriples(triples) {
  if (!triples.length) return [];
  const text = triples.map(([s, p, o]) => `${s} ${p} ${o} .`).join("\n");
  const quads = new N3.Parser({format: "N-Triples", blankNodePrefix: ""}).parse(text);
  quads.forEach((q, i) => {
    original.set(termKey(q.subject), triples[i][0]);
    original.set(termKey(q.predicate), triples[i][1]);
    original.set(termKey(q.object), triples[i][2]);
  });
  return quads;
}

// The window clause: event windows as RANGE 1 STEP 1 over event indexes (above), sliding ones as they are.
function windowClause(message) {
  const w = message.query.window;
  if (w.kind === "event") return "[RANGE 1 STEP 1]";
  if (w.kind !== "sliding") throw new Error(`${w.kind} windows are not supported (event and sliding only)`);
  if (!message.reports || message.reports.name !== "rspjs") {
    throw new Error("sliding windows are reported under RSP-JS's own semantics, the profile rspjs, only");
  }
  if (w.range_ms % w.slide_ms) {
    throw new Error(`RANGE ${w.range_ms} is not a multiple of STEP ${w.slide_ms}: RSP-JS's instances then close, ` +
      "rather than open, at multiples of STEP, which the profile rspjs does not describe");
  }
  sliding = true;
  return `[RANGE ${w.range_ms} STEP ${w.slide_ms}]`;
}

function start(message) {
  const q = message.query;
  if (q.entailment !== "none") throw new Error(`entailment ${q.entailment} is not supported`);
  const clause = windowClause(message);
  variables = q.variables;
  sparqlVariables = q.sparql_variables.map((v) => v.slice(1));
  const where = q.select_sparql.slice(q.select_sparql.indexOf("{") + 1, q.select_sparql.lastIndexOf("}"));
  const text = [`REGISTER RStream <urn:cgpm:out> AS`, `SELECT ${q.sparql_variables.join(" ") || "*"}`,
    `FROM NAMED WINDOW <${WINDOW}> ON STREAM <${STREAM}> ${clause}`, `WHERE {`, `WINDOW <${WINDOW}> {`,
    ...where.split("\n").map((line) => line.trim()).filter((line) => line), `}`, `}`].join("\n");
  engine = new RSPEngine(text);
  engine.logger = silentLogger;
  window = engine.windows[0];
  window.logger = silentLogger;
  stream = engine.getStream(STREAM);
  for (const q3 of parseTriples(message.static)) {
    engine.addStaticData(quad(q3.subject, q3.predicate, q3.object, namedNode(WINDOW)));
  }
  window.subscribe("RStream", (content) => {
    reported = content;
    // the operator emits before it evicts, so the instance is still in its map: find it by its content
    if (!sliding) return;
    for (const [instance, held] of window.active_windows) if (held === content) emitted.push({instance, content});
  });
}

let reported = null, emitted = [], lastTs = null, reportsMade = 0;
const tick = () => quad(namedNode(TICK), namedNode(TICK), namedNode(TICK));

// One reported instance as a report, or null: nothing for a content without a stream triple (register() skips
// an empty one) or a result without bindings (register() then emits nothing).
async function instanceReport(time, {instance, content}) {
  const quads = [...content.elements].filter((q) => q.subject.value !== TICK);
  if (!quads.length) return null;
  const bindings = await engine.r2r.execute(new QuadContainer(new Set(quads), content.last_time_changed()));
  const rows = new Map();
  await new Promise((resolve, reject) => {
    bindings.on("data", (binding) => {
      const mapping = sparqlVariables.map((v) => ntriples(binding.get(v)));
      rows.set(JSON.stringify(mapping), mapping);
    });
    bindings.on("end", resolve);
    bindings.on("error", reject);
  });
  if (!rows.size) return null;
  reportsMade += 1;
  return {ts: time, window: [instance.open, instance.close], relation: [...rows.values()]};
}

// Add elements at `time` and relay what the window operator reports meanwhile (at most one instance per element).
async function reportsOf(time, quads) {
  emitted = [];
  for (const q3 of quads) stream.add(q3, time);
  const reports = [];
  for (const item of emitted.splice(0)) {
    const report = await instanceReport(time, item);
    if (report) reports.push(report);
  }
  return reports;
}

async function onSlidingEvent([index, ts, updates]) {
  if (updates.some(([op]) => op < 0)) throw new Error(`event ${index} deletes a triple: only inserts are supported`);
  const quads = parseTriples(updates.map(([, s, p, o]) => [s, p, o]));
  lastTs = ts;
  const reports = await reportsOf(ts, quads.length ? quads : [tick()]);
  return reports.length ? JSON.stringify({type: "reports", event: index, reports}) : "[]";
}

// The end of the stream: a clock quad just after each instance left that holds an event closes it, oldest first.
async function onFinish() {
  const reports = [];
  while (lastTs !== null) {
    let next = null;
    for (const instance of window.active_windows.keys()) {
      if (instance.open <= lastTs && (next === null || instance.close < next.close)) next = instance;
    }
    if (next === null) break;
    reports.push(...await reportsOf(next.close + 1, [tick()]));
  }
  return JSON.stringify({type: "finish", reports});
}

async function onEvent([index, , updates]) {
  if (updates.some(([op]) => op < 0)) throw new Error(`event ${index} deletes a triple: only inserts are supported`);
  for (const q3 of parseTriples(updates.map(([, s, p, o]) => [s, p, o]))) stream.add(q3, 3 * index);
  reported = null;
  stream.add(tick(), 3 * index + 2);
  const content = reported || new QuadContainer(new Set(), 3 * index);
  const bindings = await engine.r2r.execute(content);
  const next = new Map();
  await new Promise((resolve, reject) => {
    bindings.on("data", (binding) => {
      const mapping = sparqlVariables.map((v) => ntriples(binding.get(v)));
      if (!mapping.some((term) => term === `<${TICK}>`)) next.set(JSON.stringify(mapping), mapping);
    });
    bindings.on("end", resolve);
    bindings.on("error", reject);
  });
  const added = [], removed = [];
  for (const [k, m] of next) if (!current.has(k)) added.push(m);
  for (const [k, m] of current) if (!next.has(k)) removed.push(m);
  current = next;
  return added.length || removed.length ? JSON.stringify([index, added, removed]) : "[]";
}

async function onLine(line) {
  const message = JSON.parse(line);
  if (Array.isArray(message)) return sliding ? onSlidingEvent(message) : onEvent(message);
  if (message.type === "finish") return onFinish();
  if (message.type === "start") {
    try { start(message); } catch (error) { return JSON.stringify({type: "error", message: error.message}); }
    return JSON.stringify({type: "ready"});
  }
  if (message.type === "answers") return JSON.stringify({type: "answers", answers: [...current.values()]});
  if (message.type === "stats") {
    return JSON.stringify({type: "stats", stats: sliding ? {reports: reportsMade} : {answers: current.size}});
  }
  throw new Error(`unknown message ${line.slice(0, 80)}`);
}

// Lines are handled one at a time, in order: an event's answer waits for its evaluation.
const queue = [];
let pending = "", busy = false, ended = false;
async function drain() {
  if (busy) return;
  busy = true;
  try {
    // each answer is written as soon as it is known: an evaluation takes milliseconds, a write microseconds
    while (queue.length) process.stdout.write(await onLine(queue.shift()) + "\n");
  } catch (error) {
    send({type: "error", message: String(error && error.message || error)});
    process.exit(1);
  }
  busy = false;
  if (ended) process.exit(0);
}

send({type: "hello", protocol: 1, name: "rsp-js", capabilities: CAPABILITIES});
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop();
  for (const line of lines) if (line) queue.push(line);
  drain();
});
process.stdin.on("end", () => { ended = true; if (!busy) process.exit(0); });
