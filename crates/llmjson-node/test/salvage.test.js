'use strict';
// Salvage with a schema: `invalidItems: 'drop'` returns the valid items of a list and names
// the others; the default stays fail-closed.
const test = require('node:test');
const assert = require('node:assert/strict');
const { z } = require('zod');
const llmjson = require('llmjson');

const SCHEMA = {
  type: 'object',
  required: ['records'],
  properties: {
    records: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
    },
  },
};

// Non-ASCII and astral names: spans are JavaScript string indices, not bytes.
function reply(n, bad) {
  const records = [];
  for (let i = 0; i < n; i++) {
    records.push(bad.has(i) ? `{"id": ${i}}` : `{"id": ${i}, "name": "Zoë 🎉 ${i}"}`);
  }
  const text = 'Aqui estão:\n```json\n{"records": [\n  ' + records.join(',\n  ') + '\n]}\n```';
  return { text, records };
}

test('a hundred records with three invalid return ninety-seven and name three', () => {
  const bad = new Set([3, 41, 99]);
  const { text, records } = reply(100, bad);
  const r = llmjson.parse(text, { schema: SCHEMA, invalidItems: 'drop' });
  assert.equal(r.value.records.length, 97);
  assert.deepEqual(
    r.value.records.map((x) => x.id),
    [...Array(100).keys()].filter((i) => !bad.has(i)),
  );
  assert.deepEqual(r.dropped.map((d) => d.path), ['/records/3', '/records/41', '/records/99']);
  for (const [k, i] of [3, 41, 99].entries()) {
    const d = r.dropped[k];
    assert.equal(text.slice(d.start, d.end), records[i]);
    assert.equal(d.line, 4 + i);
    assert.equal(d.column, 3);
    assert.deepEqual(d.errors, [
      { path: `/records/${i}`, keyword: 'required', message: "the required property 'name' is missing" },
    ]);
  }
  assert.equal(r.repairs.filter((x) => x.kind === 'dropped_invalid_item').length, 3);
  assert.ok(r.repaired);
  assert.deepEqual(r.diagnostics.dropped_items.map((d) => d.path), ['/records/3', '/records/41', '/records/99']);
  assert.deepEqual(JSON.parse(JSON.stringify(r)).dropped, r.dropped);
});

test('the default throws with every violation; a list mostly invalid still throws', () => {
  const { text } = reply(100, new Set([3, 41, 99]));
  assert.throws(
    () => llmjson.parse(text, { schema: SCHEMA }),
    (e) => e instanceof llmjson.JSONSchemaError && e.errors.length === 3,
  );
  const mostly = reply(10, new Set([0, 1, 2, 3, 4, 5, 6])).text;
  assert.throws(() => llmjson.parse(mostly, { schema: SCHEMA, invalidItems: 'drop' }), llmjson.JSONSchemaError);
  const opened = llmjson.parse(mostly, { schema: SCHEMA, invalidItems: 'drop', maxRemovedRatio: 1 });
  assert.equal(opened.value.records.length, 3);
});

test('nothing dropped from a valid reply, a valid document, or without the option', () => {
  assert.deepEqual(llmjson.parse(reply(5, new Set()).text, { schema: SCHEMA, invalidItems: 'drop' }).dropped, []);
  assert.deepEqual(llmjson.parse('{"a": 1}').dropped, []);
  assert.deepEqual(llmjson.parse('{"a": 1}').diagnostics.dropped_items, []);
});

test('a Zod schema, parseAll, parseAsync and a stream take the option', async () => {
  const { text } = reply(20, new Set([7]));
  const Records = z.object({ records: z.array(z.object({ id: z.number().int(), name: z.string() })) });
  const typed = llmjson.parse(text, { schema: Records, invalidItems: 'drop' });
  assert.equal(typed.value.records.length, 19);
  assert.equal(typed.dropped[0].path, '/records/7');
  const all = llmjson.parseAll(text, { schema: SCHEMA, invalidItems: 'drop' });
  assert.equal(all.values[0].records.length, 19);
  assert.equal(all.dropped[0].path, '/records/7');
  const later = await llmjson.parseAsync(text, { schema: SCHEMA, invalidItems: 'drop' });
  assert.equal(later.dropped[0].path, '/records/7');
  const parser = llmjson.createStreamParser({ schema: SCHEMA, invalidItems: 'drop' });
  for (let i = 0; i < text.length; i += 5) parser.feed(text.slice(i, i + 5));
  assert.equal(parser.finish().dropped[0].path, '/records/7');
});

test('an unknown policy is refused', () => {
  assert.throws(() => llmjson.parse('[1]', { schema: { type: 'array' }, invalidItems: 'skip' }), TypeError);
});
