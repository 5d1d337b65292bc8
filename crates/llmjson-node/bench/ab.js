'use strict';
// Two builds of the package, A and B, timed on the same replies in one process: whether a change
// to the addon or its JavaScript made `parse(text).value` faster, and by how much.
//
//   # after `npm run build` of each variant, copy what the package loads into a folder:
//   mkdir /tmp/a && cp *.js package.json llmjson.node /tmp/a
//   node bench/ab.js /tmp/a /tmp/b [replies.jsonl]
//
// Why this way. Timing two builds one after the other on the same reply favours the one that
// runs second by 1.5-2 µs on a 30 µs call (the reply and its allocations are warm): enough to
// report a change as a gain when it is a loss. So each reply is timed in the order
// A B B A A B B A (the best of the four calls of each build), and the whole run is made twice
// with the builds' places swapped: the place's bias (0.65 µs for two identical builds here)
// cancels in the mean of the two runs' differences.
//
// The replies: a JSON Lines file of `{"reply": …, "valid": …}` (default: the one
// bench/compare.js writes, target/node-bench/small-replies-4242.jsonl).

const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const [dirA, dirB, file] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error('usage: node bench/ab.js DIR_A DIR_B [replies.jsonl]');
  process.exit(2);
}
const replies = fs
  .readFileSync(file ?? path.resolve(__dirname, '../../../target/node-bench/small-replies-4242.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));

/** `parse(text).value` of the package in `dir` (a refusal is an answer too). */
function valueOf(dir) {
  const { parse } = require(path.resolve(dir, 'core.js'));
  return (text) => {
    try {
      return parse(text).value;
    } catch {
      return undefined;
    }
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Per reply, the best of four calls of each of `first` and `second`, in the order 1 2 2 1 1 2 2 1. */
function timed(first, second, key) {
  for (const r of replies) {
    first(r[key]);
    second(r[key]);
  }
  const order = [first, second, second, first, first, second, second, first];
  const a = [];
  const b = [];
  for (const r of replies) {
    let bestFirst = Infinity;
    let bestSecond = Infinity;
    for (const f of order) {
      const start = performance.now();
      f(r[key]);
      const t = (performance.now() - start) * 1000;
      if (f === first) bestFirst = Math.min(bestFirst, t);
      else bestSecond = Math.min(bestSecond, t);
    }
    a.push(bestFirst);
    b.push(bestSecond);
  }
  return { a, b };
}

const A = valueOf(dirA);
const B = valueOf(dirB);
for (const key of ['reply', 'valid']) {
  const run1 = timed(A, B, key); // A in the first place
  const run2 = timed(B, A, key); // B in the first place
  const diff1 = median(run1.a.map((x, i) => x - run1.b[i])); // A - B + bias
  const diff2 = median(run2.b.map((x, i) => x - run2.a[i])); // A - B - bias
  const d = (diff1 + diff2) / 2;
  const medianA = (median(run1.a) + median(run2.b)) / 2;
  const medianB = (median(run1.b) + median(run2.a)) / 2;
  console.log(
    `${key === 'reply' ? 'broken replies' : 'valid twins   '}: A ${medianA.toFixed(2)} µs, B ${medianB.toFixed(2)} µs; ` +
      `A - B per reply (median) ${d >= 0 ? '+' : ''}${d.toFixed(2)} µs; the first place's bias ${((diff1 - diff2) / 2).toFixed(2)} µs`,
  );
}
