'use strict';
// The shared corpora scored through the Node API: the same cases pass as in the Rust
// scoreboard (crates/llmjson/tests/it/corpus.rs), the same ones fail on purpose (its
// expected-failure list), and no other one fails.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const llmjson = require('..');

const ROOT = path.resolve(__dirname, '../../..');
const CORPORA = process.env.LLMJSON_CORPORA || path.resolve(ROOT, '../shared/corpora');
const EXPECTED_FAILURES = path.join(ROOT, 'crates/llmjson/tests/conformance/expected_failures.txt');

function load(name) {
  const file = path.join(CORPORA, `${name}.jsonl`);
  if (!fs.existsSync(file)) return null;
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

function expectedFailures() {
  const listed = new Set();
  for (const line of fs.readFileSync(EXPECTED_FAILURES, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    listed.add(trimmed.split(/\s+/)[0]);
  }
  return listed;
}

/** The case's options in the Node API's names, or why the case cannot run here. */
function optionsOf(row) {
  const o = row.options || {};
  const options = {};
  if (o.strict === true) options.level = 'none';
  if (typeof o.level === 'string') options.level = o.level;
  if (o.truncation === 'drop') options.truncation = 'drop';
  if (typeof o.max_removed_ratio === 'number') options.maxRemovedRatio = o.max_removed_ratio;
  if (o.schema !== undefined && o.schema !== null) {
    if (o.partial === true) return { skip: 'streaming stage' };
    if (JSON.stringify(o.schema).includes('"x-baml-')) return { skip: 'BAML-only schema extensions' };
    if (row.expected_is_json !== true && row.must_fail !== true) return { skip: 'no expected value' };
    options.schema = o.schema;
  }
  return { options };
}

/** Values equal, numbers by numeric value (as the Rust scoreboard compares them). */
function sameValue(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return a === b;
}

/** null when the Node API agrees with the expectation, else what it did. */
function run(row, options) {
  // Bytes that are not UTF-8 (a JavaScript string cannot hold them) go in as a Buffer.
  const input = typeof row.input === 'string' ? row.input : Buffer.from(row.input_b64, 'base64');
  let result;
  let error;
  try {
    result = llmjson.parse(input, options);
  } catch (e) {
    if (!(e instanceof llmjson.LLMJSONError)) throw e;
    error = e;
  }
  if (row.id.startsWith('jsontestsuite/')) {
    if (row.category === 'y') {
      if (error) return `error: ${error.message}`;
      return sameValue(result.value, JSON.parse(input.toString())) ? null : `got ${JSON.stringify(result.value)}`;
    }
    if (row.category === 'n') return error ? null : `accepted as ${JSON.stringify(result.value)}`;
    return null;
  }
  if (row.must_fail) return error ? null : `expected an error, got ${JSON.stringify(result.value)}`;
  if (error) return `error: ${error.message}`;
  if (row.expected_is_json === true && !sameValue(result.value, row.expected_value)) {
    return `got ${JSON.stringify(result.value)} want ${JSON.stringify(row.expected_value)}`;
  }
  return null;
}

const names = ['seeds', 'jsonrepair', 'jsontestsuite', 'baml'];
const corpora = names.map((name) => [name, load(name)]);
const missing = corpora.filter(([, rows]) => rows === null).map(([name]) => name);

test('the corpora pass through the Node API as in the Rust scoreboard', { skip: missing.length ? `SKIPPED: no corpora at ${CORPORA} (${missing.join(', ')})` : false }, () => {
  const listed = expectedFailures();
  const unexplained = [];
  const fixed = [];
  const counts = {};
  for (const [name, rows] of corpora) {
    const c = (counts[name] = { pass: 0, expectedFail: 0, notApplicable: 0 });
    for (const row of rows) {
      const { options, skip } = optionsOf(row);
      if (skip) {
        c.notApplicable++;
        continue;
      }
      const failure = run(row, options);
      if (listed.has(row.id)) {
        if (failure === null) fixed.push(row.id);
        else c.expectedFail++;
      } else if (failure !== null) {
        unexplained.push(`${row.id}: ${failure}`);
      } else {
        c.pass++;
      }
    }
  }
  console.log(JSON.stringify(counts));
  assert.deepEqual(unexplained, [], 'cases the Rust scoreboard passes');
  assert.deepEqual(fixed, [], 'cases the Rust scoreboard fails on purpose');
  assert.ok(counts.jsonrepair.pass > 300 && counts.jsontestsuite.pass === 340, JSON.stringify(counts));
});
