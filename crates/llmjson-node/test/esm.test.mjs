// The import lines the README and the issue promise work from an ES module.
import test from 'node:test';
import assert from 'node:assert/strict';
import { jsonrepair, JSONRepairError } from 'llmjson/jsonrepair';
import { parse, LLMJSONError, parseWithRetries } from 'llmjson';

test('named imports from an ES module', () => {
  assert.equal(jsonrepair('[1, 2,]'), '[1, 2]'); // the input's spacing, as jsonrepair keeps it
  assert.equal(typeof JSONRepairError, 'function');
  assert.deepEqual(parse("{'a': 1}").value, { a: 1 });
  assert.equal(typeof LLMJSONError, 'function');
  assert.equal(typeof parseWithRetries, 'function');
});

test('every export of the package has its name in an ES module', async () => {
  const { createRequire } = await import('node:module');
  const cjs = createRequire(import.meta.url)('llmjson');
  const esm = await import('llmjson');
  for (const name of Object.keys(cjs)) assert.ok(name in esm, name);
});
