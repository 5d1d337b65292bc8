'use strict';
// With evidence, a value whose numbers the evidence does not hold is blocked by default (seed
// 004's hard rule); `failClosed: false` reports it instead. And the safety guard's comment policy.

const test = require('node:test');
const assert = require('node:assert/strict');
const llmjson = require('..');

const EVIDENCE = 'Sample B reached 38.2 MPa in the tensile test.';

test('an ungrounded value is blocked by default', () => {
  assert.throws(
    () => llmjson.parse('{"sample": "B", "mpa": 39.9}', { evidence: EVIDENCE }),
    (error) => {
      assert.ok(error instanceof llmjson.GroundingError);
      assert.equal(error.kind, 'grounding');
      assert.equal(error.reason, 'numeric_grounding_failed');
      assert.match(error.message, /^VERIFICATION FAILED: 1 number/);
      assert.equal(error.verification.unmatched, 1);
      assert.equal(error.verification.unmatched_examples[0].number, '39.9');
      return true;
    },
  );
});

test('a grounded value passes, with its verification', () => {
  const result = llmjson.parse('{"sample": "B", "mpa": 38.2}', { evidence: [EVIDENCE] });
  assert.deepEqual(result.value, { sample: 'B', mpa: 38.2 });
  assert.equal(result.verification.verified, true);
  assert.equal(result.verification.matched, 1);
  assert.equal(llmjson.parse('{"a": 1}').verification, null);
});

test('failClosed: false reports an ungrounded value instead of blocking it', () => {
  const result = llmjson.parse('{"mpa": 39.9}', { evidence: EVIDENCE, failClosed: false });
  assert.deepEqual(result.value, { mpa: 39.9 });
  assert.equal(result.verification.verified, false);
  assert.throws(() => llmjson.parse('{}', { failClosed: 'no' }), TypeError);
  assert.throws(() => llmjson.parse('{}', { evidence: 12 }), TypeError);
});

test('prose comments do not count toward the guard unless every comment does', () => {
  const note = 'this value comes from the Q3 report and may change after the audit';
  const reply = `{"a": 1, // ${note}\n "b": 2}`;
  assert.deepEqual(llmjson.parse(reply).value, { a: 1, b: 2 });
  assert.throws(() => llmjson.parse(reply, { guardComments: 'all' }), llmjson.JSONRepairFailed);
  const data = `{"a": 1, /* "c": "${'x'.repeat(60)}", */ "b": 2}`;
  assert.throws(() => llmjson.parse(data), llmjson.JSONRepairFailed);
  assert.throws(() => llmjson.parse('{}', { guardComments: 'some' }), TypeError);
});

test('verify checks a text answer as llmjson verify does, failing closed by default', () => {
  const grounded = llmjson.verify('Sample B reached 38.2 MPa.', EVIDENCE);
  assert.equal(grounded.verified, true);
  assert.equal(grounded.blocked, false);
  assert.equal(grounded.output, 'Sample B reached 38.2 MPa.');
  assert.equal(grounded.diagnostics.outcome, 'verified');
  const blocked = llmjson.verify('Sample B reached 39.9 MPa.', [EVIDENCE]);
  assert.equal(blocked.verified, false);
  assert.equal(blocked.blocked, true);
  assert.equal(blocked.reason, 'numeric_grounding_failed');
  assert.match(blocked.output, /^VERIFICATION FAILED/);
  assert.equal(blocked.verification.unmatched_examples[0].number, '39.9 MPa');
  assert.equal(blocked.diagnostics.fail_closed_triggered, true);
  assert.equal(blocked.diagnostics.failed_stage, 'verify');
  const reported = llmjson.verify('Sample B reached 39.9 MPa.', EVIDENCE, { failClosed: false });
  assert.equal(reported.blocked, false);
  assert.equal(reported.output, 'Sample B reached 39.9 MPa.');
  assert.throws(() => llmjson.verify('x', EVIDENCE, { fail_closed: false }), TypeError);
  assert.throws(() => llmjson.verify('x', EVIDENCE, { locale: 'xx' }), TypeError);
  assert.throws(() => llmjson.verify(3, EVIDENCE), TypeError);
});
