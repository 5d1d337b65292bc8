'use strict';
// The drop-in: `llmjson/jsonrepair` against the jsonrepair package on the faults its README
// documents, one example each. Both outputs are read back with JSON.parse and compared (llmjson
// writes repaired JSON compact; jsonrepair keeps the input's layout).

const test = require('node:test');
const assert = require('node:assert/strict');
const ours = require('llmjson/jsonrepair');
const theirs = require('jsonrepair');

// One input per item of jsonrepair's feature list (its README, "Features").
const DOCUMENTED = {
  'missing quotes around keys': '{name: "John", age: 30}',
  'missing escape characters': '{"text": "He said "hi" to me"}',
  'missing commas': '{"a": 1 "b": 2}',
  'missing closing brackets': '{"a": [1, 2, 3',
  'truncated JSON': '{"items": [{"id": 1}, {"id": 2, "name": "Wid',
  'single quotes': "{'name': 'John'}",
  'special quote characters': '{“name”: “John”}',
  'special white space': '{"a":\u00a01,\u2003"b": 2}',
  'Python constants': '{"a": None, "b": True, "c": False}',
  'trailing commas': '{"a": [1, 2, 3,],}',
  'comments': '{/* block */ "a": 1, // line\n "b": 2}',
  'fenced code blocks': '```json\n{"a": 1}\n```',
  'ellipsis': '[1, 2, 3, ...]',
  'JSONP notation': 'callback({"a": 1});',
  'escaped string': '{\\"stringified\\": \\"content\\"}',
  'MongoDB data types': '{"n": NumberLong("2"), "d": ISODate("2012-12-19T06:01:17.171Z")}',
  'string concatenation': '{"text": "long text" + "more text on next line"}',
};

// Documented features where llmjson chose differently, and why (also in
// crates/llmjson/tests/conformance/expected_failures.txt).
// llmjson's own API keeps the first of several top-level values; the drop-in makes
// newline-delimited values one array, as jsonrepair does.
const NEWLINE_DELIMITED = '{"a": 1}\n{"b": 2}';

for (const [feature, input] of Object.entries(DOCUMENTED)) {
  test(`the drop-in repairs ${feature} as jsonrepair does`, () => {
    const expected = JSON.parse(theirs.jsonrepair(input));
    assert.deepEqual(JSON.parse(ours.jsonrepair(input)), expected, input);
  });
}

test('newline-delimited JSON: an array in the drop-in, the first value in our own API', () => {
  assert.deepEqual(JSON.parse(theirs.jsonrepair(NEWLINE_DELIMITED)), [{ a: 1 }, { b: 2 }]);
  assert.equal(ours.jsonrepair(NEWLINE_DELIMITED), theirs.jsonrepair(NEWLINE_DELIMITED));
  assert.deepEqual(require('llmjson').parse(NEWLINE_DELIMITED).value, { a: 1 });
});

test("the README's example", () => {
  assert.equal(ours.jsonrepair("{name: 'John'}"), '{"name": "John"}');
  assert.equal(ours.jsonrepair("{name: 'John'}"), theirs.jsonrepair("{name: 'John'}"));
});

test('valid JSON comes back exactly as given, layout and all', () => {
  const input = '{\n  "a" : [1, 2.50, 1e3],\n  "b": "x"\n}\n';
  assert.equal(ours.jsonrepair(input), input);
  assert.equal(theirs.jsonrepair(input), input);
});

test('an input it cannot repair throws JSONRepairError with a message and a position', () => {
  assert.throws(() => theirs.jsonrepair(''), theirs.JSONRepairError);
  // prose-is-not-json: jsonrepair makes prose a list of strings; a refusal or an explanation
  // handed on as data would be a wrong answer, not an error (seed 003: "no JSON in the response").
  assert.deepEqual(JSON.parse(theirs.jsonrepair('no json at all, sorry')), ['no json at all', 'sorry']);
  for (const input of ['', 'no json at all, sorry']) {
    assert.throws(
      () => ours.jsonrepair(input),
      (error) => {
        assert.ok(error instanceof ours.JSONRepairError);
        assert.ok(error instanceof Error);
        assert.equal(typeof error.position, 'number');
        assert.match(error.message, / at position \d+$/);
        return true;
      },
    );
  }
  assert.throws(() => ours.jsonrepair(42), TypeError);
});

test('no size limit, as jsonrepair: 12 MB of broken JSON is repaired', () => {
  const input = '[' + '{"a": 1, "b": "xyz",},'.repeat(600_000) + ']';
  assert.ok(input.length > 12_000_000);
  const value = JSON.parse(ours.jsonrepair(input));
  assert.equal(value.length, 600_000);
});

test('newline-delimited values become one array, as jsonrepair makes them', () => {
  for (const input of [
    '{"a":1}\n{"b":2}',
    '{"a":1}\n{"b":2}\n',
    '[1]\n[2]\n[3]',
    '{a:1}\n{b:2}',
    '{"id": 1, "tags": ["x",]}\n{"id": 2}\n',
  ]) {
    assert.deepEqual(JSON.parse(ours.jsonrepair(input)), JSON.parse(theirs.jsonrepair(input)), input);
  }
  // Valid lines keep their text, as jsonrepair keeps them.
  assert.equal(ours.jsonrepair('{"a":1}\n{"b":2}\n'), theirs.jsonrepair('{"a":1}\n{"b":2}\n'));
  // One value over several lines stays one value.
  assert.deepEqual(JSON.parse(ours.jsonrepair('{"a": 1,\n "b": [1,\n 2]}')), { a: 1, b: [1, 2] });
  assert.deepEqual(JSON.parse(ours.jsonrepair('[\n{"a":1},\n{"b":2}\n]')), [{ a: 1 }, { b: 2 }]);
});

test("a repaired value keeps the input's layout, as jsonrepair keeps its whitespace", () => {
  for (const input of [
    '{a: 2}',
    '{\n  a: 2,\n  b: {\n    c: [\n      1,\n    ],\n  },\n}',
    "{\n    'name': 'Ana',\n    'tags': ['x', 'y']\n}\n",
    '[a,b]',
    '{\nmessage: hello world\n}',
    '{"a":\u00a0"foo"}',
  ]) {
    assert.equal(ours.jsonrepair(input), theirs.jsonrepair(input), JSON.stringify(input));
  }
  // One layout for the whole value: an inner list written on one line inside a broken object
  // is broken too (jsonrepair keeps it on one line); the values are the same.
  const mixed = '{\n  a: 2,\n  b: [1, 2,],\n}';
  assert.deepEqual(JSON.parse(ours.jsonrepair(mixed)), JSON.parse(theirs.jsonrepair(mixed)));
});
