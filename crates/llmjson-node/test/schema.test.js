'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { z } = require('zod');
const llmjson = require('llmjson');

const PLAN = {
  type: 'object',
  properties: {
    steps: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, done: { type: 'boolean' } }, required: ['id'] } },
  },
  required: ['steps'],
};

test('a JSON Schema coerces what fits ("3" to 3, "true" to true)', () => {
  const r = llmjson.parse('{"steps": [{"id": "3", "done": "true"}]}', { schema: PLAN });
  assert.deepEqual(r.value, { steps: [{ id: 3, done: true }] });
  assert.ok(r.diagnostics.coercions >= 2);
});

test('a value that does not fit is a JSONSchemaError with every violation', () => {
  assert.throws(
    () => llmjson.parse('{"steps": [{"done": false}, {"id": "x"}]}', { schema: PLAN }),
    (e) => {
      assert.ok(e instanceof llmjson.JSONSchemaError);
      assert.equal(e.kind, 'schema');
      assert.deepEqual(e.errors.map((v) => v.path).sort(), ['/steps/0', '/steps/1/id']);
      assert.deepEqual(e.value, { steps: [{ done: false }, { id: 'x' }] });
      assert.match(e.feedback, /steps/);
      return true;
    },
  );
});

test('validate only: no coercion', () => {
  assert.throws(() => llmjson.parse('{"steps": [{"id": "3"}]}', { schema: PLAN, coercion: 'validate_only' }), llmjson.JSONSchemaError);
});

test('the schema as text, and as a compiled Schema', () => {
  assert.deepEqual(llmjson.parse('{"steps": []}', { schema: JSON.stringify(PLAN) }).value, { steps: [] });
  const schema = new llmjson.Schema(PLAN);
  assert.deepEqual(llmjson.parse('{"steps": [{"id": 1}]}', { schema }).value, { steps: [{ id: 1 }] });
  assert.equal(schema.isValid({ steps: [] }), true);
  assert.deepEqual(schema.validate({}).map((v) => v.keyword), ['required']);
});

test('an invalid schema is an InvalidSchemaError', () => {
  assert.throws(() => llmjson.parse('{}', { schema: { type: 'no-such-type' } }), llmjson.InvalidSchemaError);
  assert.throws(() => llmjson.parse('{}', { schema: 42 }), llmjson.InvalidSchemaError);
  assert.throws(() => new llmjson.Schema('{not json'), llmjson.InvalidSchemaError);
  const cyclic = { type: 'object' };
  cyclic.properties = { self: cyclic };
  assert.throws(() => llmjson.parse('{}', { schema: cyclic }), llmjson.InvalidSchemaError);
});

test('a Zod schema: converted, coerced, then Zod’s own parse (its transforms apply)', () => {
  const Step = z.object({ id: z.number().int(), action: z.string().transform((s) => s.toUpperCase()) });
  const Plan = z.object({ steps: z.array(Step) });
  const r = llmjson.parse("```json\n{'steps': [{'id': '1', 'action': 'search'}]}\n```", { schema: Plan });
  assert.deepEqual(r.value, { steps: [{ id: 1, action: 'SEARCH' }] });
  assert.throws(
    () => llmjson.parse('{"steps": [{"id": 1.5, "action": "x"}]}', { schema: Plan }),
    (e) => e instanceof llmjson.JSONSchemaError && e.errors.some((v) => v.path === '/steps/0/id'),
  );
});

test('a Zod 3 schema goes through zod-to-json-schema', () => {
  const { z: z3 } = require('zod/v3');
  const Plan = z3.object({ steps: z3.array(z3.object({ id: z3.number().int(), done: z3.boolean() })) });
  const r = llmjson.parse('{"steps": [{"id": "2", "done": "true"}]}', { schema: Plan });
  assert.deepEqual(r.value, { steps: [{ id: 2, done: true }] });
  assert.throws(() => llmjson.parse('{"steps": [{"id": "two"}]}', { schema: Plan }), llmjson.JSONSchemaError);
});

test('a Zod pattern violation is worded without the regular expression', () => {
  const Code = z.object({ code: z.string().regex(/^[A-Z]{3}-\d{4}$/), email: z.string().email() });
  assert.throws(
    () => llmjson.parse('{"code": "abc", "email": "nope"}', { schema: Code }),
    (error) => {
      assert.ok(error instanceof llmjson.JSONSchemaError);
      assert.doesNotMatch(error.message, /\[A-Z\]|\\d/);
      const at = (path) => error.errors.filter((e) => e.path === path).map((e) => e.message);
      assert.match(at('/code').join(), /does not match the pattern the schema requires/);
      assert.match(at('/email').join(), /not a valid email|Invalid email/);
      return true;
    },
  );
});
