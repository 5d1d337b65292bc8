'use strict';
// What a streaming UI costs in Node (issue 59): a reply — a list of 64 KB plans — fed in chunks
// with snapshot() read after every chunk, against one parse of the whole reply (best of 3, same
// run), at 16 KB, 256 KB and 1 MB. `node bench/stream_snapshots.js [CHUNK]`; prints a markdown
// table (the same replies as scripts/bench_stream_snapshots.py). With partial-json (npm) found
// (`PARTIAL_JSON=/path/to/node_modules/partial-json`, or resolvable from here), its `parse` of
// the text so far after every chunk is the peer column, given 5 s per reply.
const { createStreamParser, parse } = require('..');

let partial = null;
try {
  partial = require(process.env.PARTIAL_JSON ?? 'partial-json');
} catch {
  partial = null;
}

/** partial-json re-reads the text so far at each chunk: stopped after `budget` ms. */
function partialPeer(text, chunk, budget = 5000) {
  const started = process.hrtime.bigint();
  let at = 0;
  for (; at < text.length; at += chunk) {
    partial.parse(text.slice(0, at + chunk));
    if (Number(process.hrtime.bigint() - started) / 1e6 > budget) break;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return at + chunk >= text.length ? `${ms.toFixed(1)} ms` : `> ${budget} ms (${Math.round((100 * at) / text.length)}% read)`;
}

const STEP = {
  id: 's12',
  title: 'Normalise the 日本語 documents',
  tool: 'python',
  depends_on: ['s10', 's11'],
  params: { retries: 3, timeout_s: 12.5, dry_run: false, owner: null },
  code: 'def run(doc):\n    if doc.get("lang") == "ja":\n        return normalise(doc["body"])\n    return doc\n',
  expected_output: 'a list of {"path", "title"} records',
};

function plan(size) {
  const one = Buffer.byteLength(JSON.stringify(STEP)) + 2;
  return { objective: 'Migrate the archive', steps: Array(Math.max(1, Math.floor((size - 256) / one))).fill(STEP) };
}

function reply(size) {
  const one = JSON.stringify(plan(Math.min(size, 64 << 10)));
  return '[' + Array(Math.max(1, Math.floor(size / Buffer.byteLength(one)))).fill(one).join(',\n') + ']';
}

function best(f, runs = 3) {
  let out = Infinity;
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    f();
    out = Math.min(out, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return out;
}

/** Feeds `text` in `chunk`-character pieces; after each reads nothing (events on, as by
 * default), the snapshot, or the events. */
function streamed(text, chunk, read) {
  const p = createStreamParser({ events: read !== 'snapshot' && read !== 'live' });
  for (let at = 0; at < text.length; at += chunk) {
    p.feed(text.slice(at, at + chunk));
    if (read === 'snapshot') p.snapshot();
    else if (read === 'live') p.live();
    else if (read === 'events') p.events();
  }
  p.finish();
}

const chunk = Number(process.argv[2] ?? 256);
const peer = partial ? ' partial-json `parse(text so far)` every chunk |' : '';
console.log(
  `| reply, ${chunk} B chunks | one-shot \`parse\` | feed only | feed + \`events()\` every chunk | feed + \`snapshot()\` every chunk | ratio | feed + \`live()\` every chunk |${peer}`,
);
console.log('|---|---:|---:|---:|---:|---:|---:|' + (partial ? '---:|' : ''));
for (const size of [16 << 10, 256 << 10, 1 << 20]) {
  const text = reply(size);
  const oneShot = best(() => parse(text));
  const fed = best(() => streamed(text, chunk, ''));
  const events = best(() => streamed(text, chunk, 'events'));
  const read = best(() => streamed(text, chunk, 'snapshot'));
  const live = best(() => streamed(text, chunk, 'live'));
  console.log(
    `| ${Buffer.byteLength(text) >> 10} KB | ${oneShot.toFixed(2)} ms | ${(fed / oneShot).toFixed(2)}× | ` +
      `${(events / oneShot).toFixed(2)}× | ` +
      `${read.toFixed(1)} ms | **${(read / oneShot).toFixed(2)}×** | ` +
      `${live.toFixed(1)} ms (${(live / oneShot).toFixed(2)}×) |` +
      (partial ? ` ${partialPeer(text, chunk)} |` : ''),
  );
}
