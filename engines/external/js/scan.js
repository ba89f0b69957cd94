// The scan cost floor as an external engine: reads every term of every update, matches nothing.
// Beside `scan` in-process it measures what the process protocol itself costs (docs/external-engines.md).
"use strict";

let triples = 0, characters = 0, pending = "";
const out = [];
const reply = (line) => {
  const message = JSON.parse(line);
  if (Array.isArray(message)) {
    for (const [, s, p, o] of message[2]) characters += s.length + p.length + o.length;
    triples += message[2].length;
    return "[]";
  }
  if (message.type === "start") return JSON.stringify({type: "ready"});
  if (message.type === "answers") return JSON.stringify({type: "answers", answers: []});
  if (message.type === "stats") return JSON.stringify({type: "stats", stats: {triples, term_characters: characters}});
  throw new Error(`unknown message ${line.slice(0, 80)}`);
};
process.stdout.write(JSON.stringify({type: "hello", protocol: 1, name: "scan-js", capabilities: {
  windows: ["event", "sliding", "unbounded"], deletions: true, entailment: ["none", "rdfs"], static: true,
  filters: true, output: "delta", matches: false}}) + "\n");
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop();
  for (const line of lines) if (line) out.push(reply(line));
  if (out.length) { process.stdout.write(out.join("\n") + "\n"); out.length = 0; }
});
