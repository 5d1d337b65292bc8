'use strict';
// llmjson against jsonrepair (npm) and JSON.parse, in one process, one run: 1 MB broken, 1 MB
// valid, 10,000 small replies (examples/replies.jsonl, round and round) one call at a time, and
// 10,000 small broken replies of the fault generator (0.5-4 KB, every fault class, with their
// valid twins) timed per reply as the Rust library is timed on the same replies in the same run
// (examples/reply_latency.rs with the system allocator, examples/reply_latency_mimalloc.rs with the
// mimalloc the addon runs with). Writes the Node section of docs/benchmarks.md (from its marker on).
//
//   cd crates/llmjson-node && npm install && node bench/compare.js

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const { isDeepStrictEqual } = require('node:util');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const llmjson = require('llmjson');
const dropIn = require('llmjson/jsonrepair');
const { jsonrepair } = require('jsonrepair');

const ROOT = path.resolve(__dirname, '../../..');
const MARKER = '<!-- node: written by crates/llmjson-node/bench/compare.js -->';

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Median milliseconds of `runs` calls (after one warm-up). */
function time(fn, runs) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

function records(n) {
  const out = [];
  for (let i = 0; out.length < n * 40; i++) {
    out.push(`{"id": ${i}, "name": "item ${i}", "tags": ["a", "b"], "score": ${(i % 97) / 7}, "ok": ${i % 2 === 0}}`);
  }
  return out;
}

// 1 MB: the same records, valid; and broken the way models break them (single quotes,
// unquoted keys, trailing commas, a comment, Python constants), cut off at the end.
const valid = '[' + records(600).join(',\n') + ']';
const validMB = valid.slice(0, valid.lastIndexOf('}', 1 << 20) + 1) + ']';
let broken = '';
for (let i = 0; broken.length < 1 << 20; i++) {
  broken += `{'id': ${i}, name: 'item ${i}', tags: ['a', 'b',], ok: ${i % 2 ? 'True' : 'None'}}, // row ${i}\n`;
}
broken = '[\n' + broken + "{'id': -1, 'name': 'cut";

const rows = [];
const RUNS = 15;
const jsonParse = time(() => JSON.parse(validMB), RUNS);
const theirsValid = time(() => jsonrepair(validMB), RUNS);
const oursValid = time(() => llmjson.parse(validMB), RUNS);
const dropInValid = time(() => dropIn.jsonrepair(validMB), RUNS);
const theirsBroken = time(() => jsonrepair(broken), 5);
const oursBroken = time(() => llmjson.parse(broken), RUNS);
const dropInBroken = time(() => dropIn.jsonrepair(broken), RUNS);

// The values agree (the broken one read back from jsonrepair's text).
const agree = JSON.stringify(JSON.parse(jsonrepair(broken))) === JSON.stringify(llmjson.parse(broken).value);

const replies = fs
  .readFileSync(path.join(ROOT, 'examples/replies.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).reply);
function perCall(fn) {
  const times = [];
  for (let i = 0; i < 10_000; i++) {
    const reply = replies[i % replies.length];
    const start = performance.now();
    try {
      fn(reply);
    } catch {
      // a refusal: an error is an answer too
    }
    times.push((performance.now() - start) * 1000);
  }
  return [median(times), quantile(times, 0.99), times.reduce((a, b) => a + b, 0) / times.length];
}
perCall((r) => llmjson.parse(r));
const oursSmall = perCall((r) => llmjson.parse(r));
const theirsSmall = perCall((r) => JSON.parse(jsonrepair(r)));
const dropInSmall = perCall((r) => JSON.parse(dropIn.jsonrepair(r)));

// The fault generator's small replies (0.5-4 KB, the default options), with their valid twins:
// written once under target/ by the generator's own binary.
const FAULT_SEED = 4242;
const SMALL = path.join(ROOT, 'target/node-bench', `small-replies-${FAULT_SEED}.jsonl`);
if (!fs.existsSync(SMALL)) {
  const cases = execFileSync(
    'cargo',
    ['run', '-q', '--release', '-p', 'llmjson-faults', '--', '--seed', String(FAULT_SEED), '--count', '36000'],
    { cwd: ROOT, maxBuffer: 1 << 30, encoding: 'utf8' },
  );
  const kept = [];
  for (const line of cases.split('\n')) {
    if (!line || kept.length === 10_000) continue;
    const c = JSON.parse(line);
    const bytes = Buffer.byteLength(c.input);
    if (Object.keys(c.options).length === 0 && bytes >= 512 && bytes <= 4096) {
      kept.push(JSON.stringify({ reply: c.input, valid: JSON.stringify(c.expected), expected: c.expected }));
    }
  }
  fs.mkdirSync(path.dirname(SMALL), { recursive: true });
  fs.writeFileSync(SMALL, kept.join('\n') + '\n');
}
const small = fs.readFileSync(SMALL, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
/** The Rust library's figures on the same replies, from one of its latency examples. */
function rustLatency(example) {
  return JSON.parse(
    execFileSync('cargo', ['run', '-q', '--release', '-p', 'llmjson', '--example', example, '--', SMALL], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  );
}
// The system allocator: what a Rust program gets unless it chooses. mimalloc: what the addon
// (like the Python extension and the CLI) runs the library with.
const rust = rustLatency('reply_latency');
const rustMi = rustLatency('reply_latency_mimalloc');
/** Best of three calls per reply (after a warm-up round): median and p99 in µs, how many exact,
 * and per reply its best time and whether the call threw. */
function perReply(fn, key) {
  for (const c of small) {
    try {
      fn(c[key]);
    } catch {
      // a refusal
    }
  }
  const best = [];
  const threw = [];
  let exact = 0;
  for (const c of small) {
    let t = Infinity;
    let value;
    let failed = false;
    for (let k = 0; k < 3; k++) {
      const start = performance.now();
      try {
        value = fn(c[key]);
        failed = false;
      } catch {
        value = undefined;
        failed = true;
      }
      t = Math.min(t, (performance.now() - start) * 1000);
    }
    best.push(t);
    threw.push(failed);
    if (isDeepStrictEqual(value, c.expected)) exact++;
  }
  return { median: median(best), p99: quantile(best, 0.99), exact, best, threw };
}
const twinsJsonParse = perReply((t) => JSON.parse(t), 'valid');
const twinsOurs = perReply((t) => llmjson.parse(t).value, 'valid');
const smallOurs = perReply((t) => llmjson.parse(t).value, 'reply');
const smallTheirs = perReply((t) => JSON.parse(jsonrepair(t)), 'reply');
const smallDropIn = perReply((t) => JSON.parse(dropIn.jsonrepair(t)), 'reply');
// jsonrepair throws on many replies (prose around the JSON, a cut reply), and a throw is quick:
// the like-for-like comparison is on the replies it gives a value for.
const answered = small.map((_, i) => i).filter((i) => !smallTheirs.threw[i]);
const answeredOurs = median(answered.map((i) => smallOurs.best[i]));
const answeredTheirs = median(answered.map((i) => smallTheirs.best[i]));

const ms = (x) => `${x.toFixed(2)} ms`;
const us = (x) => `${x.toFixed(1)} µs`;
const out = [
  MARKER,
  '',
  '## Node.js (`llmjson` npm package)',
  '',
  `Node ${process.version}, ${os.cpus().length} cores, ${os.arch()}; one process, one run, medians of ${RUNS} calls ` +
    '(5 for jsonrepair on the broken MB). Command: `cd crates/llmjson-node && npm install && node bench/compare.js`.',
  '',
  '| input | JSON.parse | jsonrepair (npm) | llmjson `parse` | llmjson `jsonrepair` drop-in | parse vs jsonrepair | parse vs JSON.parse |',
  '|---|---:|---:|---:|---:|---:|---:|',
  `| valid, ${(validMB.length / 1e6).toFixed(2)} MB | ${ms(jsonParse)} | ${ms(theirsValid)} | ${ms(oursValid)} | ${ms(dropInValid)} | ${(theirsValid / oursValid).toFixed(1)}× faster | ${(oursValid / jsonParse).toFixed(2)}× the time |`,
  `| broken, ${(broken.length / 1e6).toFixed(2)} MB | fails | ${ms(theirsBroken)} | ${ms(oursBroken)} | ${ms(dropInBroken)} | ${(theirsBroken / oursBroken).toFixed(1)}× faster | |`,
  '',
  `The broken MB: single quotes, unquoted keys, trailing commas, comments, Python constants, cut off at the end; both read it to the same value: ${agree ? 'yes' : 'NO'}.`,
  '',
  `10,000 small replies (examples/replies.jsonl, ${replies.length} replies round and round; refusals throw), one call at a time, to a JavaScript value:`,
  '',
  '| | median | p99 | mean |',
  '|---|---:|---:|---:|',
  `| llmjson \`parse\` (value, repair log, diagnostics) | ${us(oursSmall[0])} | ${us(oursSmall[1])} | ${us(oursSmall[2])} |`,
  `| llmjson drop-in \`jsonrepair\` + JSON.parse | ${us(dropInSmall[0])} | ${us(dropInSmall[1])} | ${us(dropInSmall[2])} |`,
  `| jsonrepair (npm) + JSON.parse | ${us(theirsSmall[0])} | ${us(theirsSmall[1])} | ${us(theirsSmall[2])} |`,
  '',
  `${small.length.toLocaleString('en')} small broken replies of the fault generator (seed ${FAULT_SEED}, 0.5-4 KB, every fault class and wrapper; their valid twins beside), best of three calls per reply; the Rust library timed on the same replies in the same run, with the system allocator (\`examples/reply_latency.rs\`) and with mimalloc, the allocator the addon runs it with (\`examples/reply_latency_mimalloc.rs\`):`,
  '',
  '| call | median | p99 | exact | vs Rust `parse` (system allocator) | vs Rust `parse` (mimalloc) |',
  '|---|---:|---:|---:|---:|---:|',
  `| Rust \`llmjson::parse\`, system allocator | ${us(rust.broken.median)} | ${us(rust.broken.p99)} | | 1.00× | |`,
  `| Rust \`llmjson::parse\`, mimalloc | ${us(rustMi.broken.median)} | ${us(rustMi.broken.p99)} | | ${(rustMi.broken.median / rust.broken.median).toFixed(2)}× | 1.00× |`,
  `| llmjson \`parse(text).value\` | ${us(smallOurs.median)} | ${us(smallOurs.p99)} | ${smallOurs.exact}/${small.length} | **${(smallOurs.median / rust.broken.median).toFixed(2)}×** | **${(smallOurs.median / rustMi.broken.median).toFixed(2)}×** |`,
  `| llmjson drop-in \`JSON.parse(jsonrepair(text))\` | ${us(smallDropIn.median)} | ${us(smallDropIn.p99)} | ${smallDropIn.exact}/${small.length} | ${(smallDropIn.median / rust.broken.median).toFixed(2)}× | ${(smallDropIn.median / rustMi.broken.median).toFixed(2)}× |`,
  `| jsonrepair (npm) \`JSON.parse(jsonrepair(text))\` | ${us(smallTheirs.median)} | ${us(smallTheirs.p99)} | ${smallTheirs.exact}/${small.length} | ${(smallTheirs.median / rust.broken.median).toFixed(2)}× | ${(smallTheirs.median / rustMi.broken.median).toFixed(2)}× |`,
  `| \`JSON.parse\` on the valid twins | ${us(twinsJsonParse.median)} | ${us(twinsJsonParse.p99)} | | | |`,
  `| llmjson \`parse(text).value\` on the valid twins | ${us(twinsOurs.median)} | ${us(twinsOurs.p99)} | ${twinsOurs.exact}/${small.length} | **${(twinsOurs.median / twinsJsonParse.median).toFixed(2)}× JSON.parse** | |`,
  '',
  `llmjson \`parse\` vs jsonrepair on the broken replies: **${(smallOurs.median / smallTheirs.median).toFixed(2)}×** the median time. ` +
    `jsonrepair throws on ${(small.length - answered.length).toLocaleString('en')} of them (prose around the JSON, a cut reply, …), and a throw is quick; ` +
    `on the ${answered.length.toLocaleString('en')} it gives a value for, llmjson takes ${us(answeredOurs)} and jsonrepair ${us(answeredTheirs)} (median): **${(answeredOurs / answeredTheirs).toFixed(2)}×**.`,
  '',
];
const target = path.join(ROOT, 'docs/benchmarks.md');
const previous = fs.readFileSync(target, 'utf8');
const at = previous.indexOf(MARKER);
const head = at >= 0 ? previous.slice(0, at) : previous;
// Sections written after this one by other scripts keep their place.
const rest = at >= 0 ? previous.slice(at).split('\n<!-- ').slice(1).map((s) => '<!-- ' + s).join('\n') : '';
fs.writeFileSync(target, head.replace(/\n*$/, '\n\n') + out.join('\n') + (rest ? '\n' + rest : ''));
console.log(out.join('\n'));
