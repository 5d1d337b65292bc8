'use strict';
// What a parse costs a caller who reads only `.value`: the repair log stays native until read,
// and a valid reply is read by JSON.parse alone — giving exactly what the native path gives.
const test = require('node:test');
const assert = require('node:assert/strict');
const llmjson = require('llmjson');
const core = require('../core');
const { native } = core;

/** Counts the calls of `native[name]` while `body` runs (the original is put back). */
function counting(name, body) {
  const original = native[name];
  let calls = 0;
  native[name] = (...args) => {
    calls++;
    return original(...args);
  };
  try {
    body(() => calls);
  } finally {
    native[name] = original;
  }
}

test('repairs are made when first read, once, with every field', () => {
  counting('repairLog', (calls) => {
    const r = llmjson.parse("{a: 1, 'b': [1, 2,],}");
    assert.deepEqual(r.value, { a: 1, b: [1, 2] });
    assert.equal(r.repaired, true);
    assert.equal(calls(), 0, 'nothing built for the log before it is read');
    const log = r.repairs;
    assert.equal(calls(), 1);
    assert.equal(r.repairs, log, 'read once, then kept');
    assert.equal(calls(), 1);
    assert.deepEqual(
      log.map((x) => ({ ...x })),
      [
        { kind: 'unquoted_key', start: 1, end: 2, line: 1, column: 2, path: '/a', detail: 'quoted' },
        { kind: 'single_quotes', start: 7, end: 8, line: 1, column: 8, path: '/b', detail: 'replaced by \'"\'' },
        { kind: 'trailing_comma', start: 17, end: 18, line: 1, column: 18, path: '/b', detail: 'removed' },
        { kind: 'trailing_comma', start: 19, end: 20, line: 1, column: 20, path: '', detail: 'removed' },
      ],
    );
    assert.equal(String(log[0]), '1:2 unquoted_key at /a: quoted');
  });
});

test('a repair span counts UTF-16 code units past non-ASCII text (kept native until read)', () => {
  // CJK, accented and astral characters (an emoji is two code units) before every repair.
  const text = '{"名前": “太郎”, "😀": \'Tōkyō\', /* 注 */ "x": [1, 2,], "y": True, "z": "終"';
  const r = llmjson.parse(text);
  assert.deepEqual(
    r.repairs.map((x) => [x.kind, text.slice(x.start, x.end)]),
    [
      ['smart_quotes', '“'],
      ['single_quotes', "'"],
      ['comment', '/* 注 */'],
      ['trailing_comma', ','],
      ['python_literal', 'True'],
      ['closed_truncated_object', ''],
    ],
  );
  assert.equal(r.repairs.at(-1).start, text.length);
});

test("a log's lines and columns, computed when it is read, are the ones parse gives the Rust way", () => {
  // Repairs on later lines, after non-ASCII text (columns count characters, start counts UTF-16
  // units), in a reply that looks like a document (V8 refuses it first) and in one after prose;
  // read at once, and read after the log was let go (made again by the same parse). The
  // figures are the ones the package gave when the Rust parse computed them.
  const doc = "{\n  '名前': “太郎”,\n  \"😀\": 'Tōkyō', // 注\n  x: [1, 2,],\n  \"y\": True\n}";
  const prose = `Here it is:\n${doc.slice(0, -2)}`;
  const expected = {
    [doc]: [
      ['single_quotes', 2, 3],
      ['smart_quotes', 2, 9],
      ['single_quotes', 3, 8],
      ['comment', 3, 17],
      ['unquoted_key', 4, 3],
      ['trailing_comma', 4, 11],
      ['python_literal', 5, 8],
    ],
    [prose]: [
      ['single_quotes', 3, 3],
      ['smart_quotes', 3, 9],
      ['single_quotes', 4, 8],
      ['comment', 4, 17],
      ['unquoted_key', 5, 3],
      ['trailing_comma', 5, 11],
      ['python_literal', 6, 8],
      ['closed_truncated_object', 6, 12],
    ],
  };
  for (const [text, want] of Object.entries(expected)) {
    const now = llmjson.parse(text);
    const later = llmjson.parse(text);
    for (let i = 0; i < 3000; i++) llmjson.parse(`{n: ${i}, 'm': [${i},]}`);
    for (const r of [now, later]) {
      assert.deepEqual(
        r.repairs.map((x) => [x.kind, x.line, x.column]),
        want,
        text,
      );
      const lines = text.split('\n');
      for (const x of r.repairs) {
        // A line and column point where the span starts.
        const before = lines.slice(0, x.line - 1).join('\n').length + (x.line > 1 ? 1 : 0);
        assert.equal(before + [...lines[x.line - 1]].slice(0, x.column - 1).join('').length, x.start, x.kind);
      }
    }
  }
});

test('a repair log read long after its parse is the same (made again when let go)', () => {
  // The native side keeps the logs of recent results only: read after thousands of parses,
  // the first result's log is made again by the same parse, and equals a fresh one.
  const text = "{a: 1, 'b': [1, 2,], c: True} // done";
  const first = llmjson.parse(text);
  const all = llmjson.parseAll("{a: 1} then ['x',]");
  for (let i = 0; i < 3000; i++) llmjson.parse(`{n: ${i}, 'm': [${i},]}`);
  const fresh = llmjson.parse(text).repairs.map((x) => ({ ...x }));
  assert.ok(fresh.length >= 4);
  assert.deepEqual(first.repairs.map((x) => ({ ...x })), fresh);
  assert.deepEqual(
    all.repairs.map((x) => x.kind),
    ['unquoted_key', 'single_quotes', 'trailing_comma'],
  );
});

test('parseAll makes its repair log when read too', () => {
  counting('repairLog', (calls) => {
    const all = llmjson.parseAll("{a: 1} then ['x',]");
    assert.deepEqual(all.values, [{ a: 1 }, ['x']]);
    assert.equal(calls(), 0);
    assert.deepEqual(
      all.repairs.map((x) => x.kind),
      ['unquoted_key', 'single_quotes', 'trailing_comma'],
    );
    assert.equal(calls(), 1);
    assert.deepEqual(Object.keys(all), ['values', 'repairs', 'dropped', 'span']);
  });
});

test('a reply with no repair reads none natively', () => {
  counting('repairLog', (calls) => {
    const r = llmjson.parse('Sure:\n```json\n{"a": 1}\n```');
    assert.deepEqual(r.repairs, []);
    assert.equal(r.repaired, false);
    assert.equal(calls(), 0);
  });
});

test('a plain valid object or array is read by JSON.parse with no native call', () => {
  counting('parse', (calls) => {
    const r = llmjson.parse('  {"a": [1, 2.50, "x\\ny"], "b": {"c": null}}\n');
    assert.deepEqual(r.value, { a: [1, 2.5, 'x\ny'], b: { c: null } });
    assert.deepEqual(r.span, [2, 44]);
    assert.equal(r.source, 'text');
    assert.equal(r.repaired, false);
    assert.equal(r.truncated, false);
    assert.deepEqual(r.repairs, []);
    assert.equal(calls(), 0);
    // The diagnostics record is the full path's, made when read.
    assert.equal(r.diagnostics.outcome, 'ok');
    assert.equal(calls(), 1);
  });
});

// Replies where JSON.parse alone and llmjson could disagree, and plain ones: `parse` (which may
// read a valid reply with JSON.parse alone) must give what `parseAsync` (always native, its
// valid check in Rust) gives — value, repairs, span, source, flags, or the same error.
const deep = (n) => '['.repeat(n) + ']'.repeat(n);
const CASES = [
  ['{"a": 1}'],
  ['[1, 2, 3]'],
  [String.raw`{"formula": "$\frac{1}{2}$"}`],
  [String.raw`{"greek": "\beta and \theta"}`],
  [String.raw`{"escaped": "\\frac is text"}`],
  [String.raw`{"lines": "one\nNext\tTab\r"}`],
  [String.raw`{"pair": "\ud83d\ude00", "nu": "\nu"}`],
  [String.raw`{"lone": "x\ud800y"}`],
  [String.raw`{"low": "x\uDC00"}`],
  ['{"a": 1, "a": 2}'],
  ['{"__proto__": {"x": 1}, "n": 12345678901234567890}'],
  ['  \n[{"k": "v"}]\t\n'],
  ['"just a string"'],
  ['42'],
  ['{"a": 1} trailing prose'],
  ["{'a': 1}"],
  ['{"a": [1, 2}'],
  [deep(120)],
  [deep(127)],
  [deep(128)],
  [deep(300)],
  [deep(5), { maxDepth: 4 }],
  [deep(4), { maxDepth: 4 }],
  ['{"text": "' + 'x'.repeat(200) + '"}', { maxSize: 100 }],
  ['{"text": "' + 'é'.repeat(60) + '"}', { maxSize: 100 }],
  ['{"text": "' + 'é'.repeat(40) + '"}', { maxSize: 100 }],
  ['{"a": "\\frac"}', { latex: false }],
  ['{"a": 1, "a": 2}', { duplicateKeys: 'first' }],
  ['{"a": 1, "a": 2}', { duplicateKeys: 'error' }],
  ['{"a": "1"}', { schema: { type: 'object', properties: { a: { type: 'integer' } } } }],
  ['{"a": 1}', { level: 'none' }],
];

function outcome(thunk) {
  try {
    const r = thunk();
    return { value: r.value, repairs: r.repairs.map((x) => ({ ...x })), span: r.span, source: r.source, repaired: r.repaired, truncated: r.truncated };
  } catch (error) {
    return { error: error.name, message: error.message };
  }
}

test('JSON.parse alone reads a valid reply as the native path does', async () => {
  for (const [text, options] of CASES) {
    const direct = outcome(() => llmjson.parse(text, options));
    let viaNative;
    try {
      const r = await llmjson.parseAsync(text, options);
      viaNative = outcome(() => r);
    } catch (error) {
      viaNative = { error: error.name, message: error.message };
    }
    assert.deepEqual(direct, viaNative, `${text.slice(0, 60)} ${JSON.stringify(options ?? {})}`);
  }
});

test('a LaTeX escape or a lone surrogate escape goes native', () => {
  counting('parse', (calls) => {
    assert.equal(llmjson.parse(String.raw`{"f": "\frac{1}{2}"}`).value.f, String.raw`\frac{1}{2}`);
    assert.equal(calls(), 1);
    llmjson.parse(String.raw`{"s": "\ud800"}`);
    assert.equal(calls(), 2);
    // `\n` before a word that names no command: JSON.parse's reading is llmjson's.
    assert.equal(llmjson.parse(String.raw`{"s": "a\nNote"}`).value.s, 'a\nNote');
    assert.equal(calls(), 2);
  });
});

test('a broken reply that looks like a document leaves the stack setting as it was', () => {
  const before = Error.stackTraceLimit;
  assert.deepEqual(llmjson.parse('{"a": 1,}').value, { a: 1 });
  assert.equal(Error.stackTraceLimit, before);
});

test('a success crosses as one string: its fields read back whole, a number each and the source', () => {
  // Astral characters before the fence (the span counts UTF-16 code units), a label of every
  // character a label may hold, a cut-off value (repaired and truncated) with repairs.
  const text = '😀 说明 😀\n```json+ld.v_2-x\n{"名": \'値\', "n": [1, 2,';
  const answer = native.parse(text, undefined, null, native.CALL_VALID_AS_IS);
  assert.equal(typeof answer, 'string', 'a plain success is one string');
  const r = llmjson.parse(text);
  assert.equal(r.source, 'fence:json+ld.v_2-x');
  assert.equal(text.slice(r.span[0], r.span[1]), '{"名": \'値\', "n": [1, 2,');
  assert.deepEqual([r.repaired, r.truncated], [true, true]);
  assert.deepEqual(r.value, { 名: '値', n: [1, 2] });
  assert.deepEqual(
    r.repairs.map((x) => [x.kind, text.slice(x.start, x.end)]),
    [
      ['single_quotes', "'"],
      ['trailing_comma', ','],
      ['closed_truncated_array', ''],
      ['closed_truncated_object', ''],
    ],
  );
  // Nothing to log: no ticket, and the log is empty.
  const clean = llmjson.parse('Here: {"a": 1}');
  assert.deepEqual([clean.value, clean.repairs, clean.repaired, clean.source], [{ a: 1 }, [], false, 'text']);
});

test('no log is kept until a caller reads one; then the log read is the same, and logs are kept', () => {
  // A fresh copy of the package's JavaScript: no result's repairs read yet.
  const path = require.resolve('../core');
  const saved = require.cache[path];
  delete require.cache[path];
  const fresh = require('../core');
  require.cache[path] = saved;
  const text = "Sure: {a: 1, 'b': [1, 2,], c: True} // done";
  const expected = llmjson.parse(text).repairs.map((x) => ({ ...x }));
  counting('parse', (parses) => {
    const early = fresh.parse(text);
    const later = fresh.parse(text);
    assert.equal(parses(), 2);
    assert.deepEqual(early.value, { a: 1, b: [1, 2], c: true });
    assert.equal(early.repaired, true);
    // Read: parsed again, once, for its log.
    assert.deepEqual(early.repairs.map((x) => ({ ...x })), expected);
    assert.equal(parses(), 3);
    assert.equal(early.repairs, early.repairs);
    assert.equal(parses(), 3);
    // A result from before the first read is parsed again too; one after it is not.
    assert.deepEqual(later.repairs.map((x) => ({ ...x })), expected);
    assert.equal(parses(), 4);
    const kept = fresh.parse(text);
    assert.deepEqual(kept.repairs.map((x) => ({ ...x })), expected);
    assert.equal(parses(), 5, 'a log kept is read without parsing again');
  });
  // A reply with nothing to repair reads an empty log without parsing again.
  counting('parse', (parses) => {
    const clean = fresh.parse('x {"a": [1]}');
    assert.deepEqual(clean.repairs, []);
    assert.equal(parses(), 1);
  });
});

test('a reply given as bytes reads its repairs as its string does', async () => {
  // Only a string is handed back to place a log's repairs when it is read: bytes are placed at
  // the parse (this threw `the log's lines need the text parsed`).
  for (const text of ["{a: 1, 'b': [1, 2,],}", "{a: 'é😀', /* 注 */ b: True}"]) {
    const expected = llmjson.parse(text).repairs.map((x) => ({ ...x }));
    assert.ok(expected.length > 2, text);
    const bytes = Buffer.from(text);
    for (const input of [bytes, new Uint8Array(bytes)]) {
      assert.deepEqual(llmjson.parse(input).repairs.map((x) => ({ ...x })), expected, text);
    }
    const later = await llmjson.parseAsync(bytes);
    assert.deepEqual(later.repairs.map((x) => ({ ...x })), expected, text);
  }
});
