// Times npm jsonrepair on the benchmark inputs; prints JSON Lines like bench/peers-rs.
//   node jsonrepair_bench.js PEERS_DIR INPUT_DIR
const fs = require("fs");
const path = require("path");
const { jsonrepair } = require(path.resolve(process.argv[2], "node_modules", "jsonrepair"));
const dir = process.argv[3];

const isDeepStrictEqual = require("util").isDeepStrictEqual;
function value(text) {
  try {
    return JSON.parse(jsonrepair(text));
  } catch (e) {
    return undefined;
  }
}
// Numbers compare by value here (JSON.parse), like the Python runners. Sizes after one whose
// single run exceeds the budget are skipped (the peer is superlinear on some inputs).
const BUDGET_SECONDS = 5;
for (const family of ["valid", "broken", "all-faults"]) {
  for (const size of ["1KB", "64KB", "1MB", "10MB"]) {
    const name = `${family}-${size}`;
    const text = fs.readFileSync(path.join(dir, `${name}.txt`), "utf8");
    const expected = JSON.parse(fs.readFileSync(path.join(dir, `${name}.expected.json`), "utf8"));
    const rounds = size === "1KB" || size === "64KB" ? 20 : 3;
    let best = Infinity;
    let v;
    for (let r = 0; r < rounds && (r === 0 || best <= BUDGET_SECONDS); r++) {
      const start = process.hrtime.bigint();
      v = value(text);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
    }
    console.log(JSON.stringify({ tool: "jsonrepair (node)", input: name, bytes: Buffer.byteLength(text), seconds: best, correct: isDeepStrictEqual(v, expected) }));
    if (best > BUDGET_SECONDS) break;
  }
}
const cases = fs.readFileSync(path.join(dir, "replies.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const times = new Array(cases.length).fill(Infinity);
let correct = 0;
for (let r = 0; r < 3; r++) {
  cases.forEach((c, i) => {
    const start = process.hrtime.bigint();
    const v = value(c.input);
    times[i] = Math.min(times[i], Number(process.hrtime.bigint() - start) / 1e9);
    if (r === 0 && isDeepStrictEqual(v, c.expected)) correct++;
  });
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ tool: "jsonrepair (node)", input: "replies", median: times[times.length >> 1], p99: times[Math.floor((times.length * 99) / 100)], correct, count: cases.length }));
