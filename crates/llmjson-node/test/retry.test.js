'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const llmjson = require('llmjson');

test('retries until a reply parses; feedback names what was wrong, never the same text twice', async () => {
  const seen = [];
  const replies = ['Sorry, I cannot.', 'Still no JSON.', '{"ok": true}'];
  const r = await llmjson.parseWithRetries(async (feedback, attempt) => {
    seen.push([feedback, attempt]);
    return replies[attempt - 1];
  });
  assert.deepEqual(r.value, { ok: true });
  assert.equal(r.attempts, 3);
  assert.equal(seen[0][0], null);
  assert.match(seen[1][0], /Attempt 1 of 3/);
  assert.match(seen[1][0], /no JSON/);
  assert.notEqual(seen[1][0], seen[2][0]);
});

test('the budget runs out: RetriesExhausted holds every attempt', async () => {
  await assert.rejects(
    llmjson.parseWithRetries(() => 'nope', { maxRetries: 1 }),
    (e) => {
      assert.ok(e instanceof llmjson.RetriesExhausted);
      assert.equal(e.attempts.length, 2);
      assert.equal(e.lastReply, 'nope');
      assert.ok(e.errors.every((x) => x instanceof llmjson.NoJSONError));
      return true;
    },
  );
});

test('a reply cut at the token limit gets advice; a schema failure gets the violations', async () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
  const feedbacks = [];
  const r = await llmjson.parseWithRetries(
    (feedback, attempt) => {
      feedbacks.push(feedback);
      return [{ text: '{"m": 1', hitTokenLimit: true }, '{"m": 1}', '{"n": 2}'][attempt - 1];
    },
    { schema },
  );
  assert.deepEqual(r.value, { n: 2 });
  assert.match(feedbacks[1], /cut off|token/i);
  assert.match(feedbacks[2], /n/);
});

test('an invalid schema throws before the model is called', async () => {
  let called = false;
  await assert.rejects(
    llmjson.parseWithRetries(() => {
      called = true;
      return '{}';
    }, { schema: { type: 'nope' } }),
    llmjson.InvalidSchemaError,
  );
  assert.equal(called, false);
});

// The same script and the same expected text as the Python test
// (crates/llmjson-py/tests/test_retry.py) and the Rust one (tests/it/retry.rs).
const SCHEMA = {
  type: 'object',
  properties: { id: { type: 'string' }, tool: { enum: ['python', 'shell'] } },
  required: ['id', 'tool'],
};

test('the feedback text is the Rust and Python one, word for word', async () => {
  const feedback = [];
  const replies = ['{"id": "s1", "tool": "perl"}', '{"id": "s1", "tool": "shell"}'];
  const r = await llmjson.parseWithRetries((f, attempt) => {
    feedback.push(f);
    return replies[attempt - 1];
  }, { schema: SCHEMA });
  assert.deepEqual(r.value, { id: 's1', tool: 'shell' });
  assert.equal(r.attempts, 2);
  assert.equal(
    feedback[1],
    "Attempt 1 of 3 failed. Your JSON does not match the required schema:\n" +
      "- /tool: 'perl' is not one of 'python', 'shell'\n" +
      'Reply with the corrected JSON only.',
  );
});

test('a repeated failure says so; the budget is kept', async () => {
  const feedback = [];
  const replies = ['no json', 'still none', '{"id": 1}', 'x'];
  await assert.rejects(
    llmjson.parseWithRetries((f, attempt) => {
      feedback.push(f);
      return replies[attempt - 1];
    }, { schema: SCHEMA, maxRetries: 2 }),
    llmjson.RetriesExhausted,
  );
  assert.equal(feedback.length, 3, '1 + maxRetries attempts');
  const sent = feedback.filter(Boolean);
  assert.equal(new Set(sent).size, sent.length);
  assert.ok(sent[1].endsWith('(The previous attempt failed the same way.)'), sent[1]);
});
