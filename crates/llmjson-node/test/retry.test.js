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
