'use strict';
// What real users feed the package by mistake: binary files, text in another encoding, inputs
// over the size limit, option values spelled the CLI's way; and the repair log printed.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const {
  parse,
  parseAll,
  parseWithRetries,
  createStreamParser,
  BinaryInputError,
  NoJSONError,
  InputTooLargeError,
  JSONParseError,
  JSONSchemaError,
} = require('..');

// The head of an executable with a JSON-looking `[]` inside.
const ELF = Buffer.concat([
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0]),
  Buffer.from('GLIBC_2.17 [] main'),
]);

/** Random bytes from a fixed seed (xorshift). */
function noise(length, seed) {
  let s = BigInt(seed);
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    s ^= (s << 13n) & 0xffffffffffffffffn;
    s ^= s >> 7n;
    s ^= (s << 17n) & 0xffffffffffffffffn;
    out[i] = Number((s >> 24n) & 0xffn);
  }
  return out;
}

for (const level of ['full', 'conservative', 'none']) {
  test(`binary bytes are refused as not text (level ${level})`, () => {
    assert.throws(
      () => parse(ELF, { level }),
      (e) => {
        assert.ok(e instanceof BinaryInputError && e instanceof NoJSONError);
        assert.equal(e.kind, 'binary');
        assert.equal(e.message, 'the input is binary, not text (a NUL byte at offset 7)');
        return true;
      },
    );
  });
}

test('random bytes, an executable of this machine and a string holding a NUL are refused', () => {
  assert.throws(() => parse(noise(4096, 7)), BinaryInputError);
  const withoutNul = noise(4096, 11).filter((b) => b !== 0);
  assert.throws(() => parse(withoutNul), (e) => e instanceof BinaryInputError && /% of its bytes are not UTF-8\)$/.test(e.message));
  if (fs.existsSync('/bin/ls')) assert.throws(() => parse(fs.readFileSync('/bin/ls').subarray(0, 1 << 20)), BinaryInputError);
  assert.throws(() => parse('{"a": "x\u0000y"}'), BinaryInputError);
  assert.throws(() => parseAll('[1] \u0000'), BinaryInputError);
  const stream = createStreamParser();
  stream.feed(ELF);
  assert.throws(() => stream.finish(), BinaryInputError);
});

test('text in another encoding is repaired and logged, and refused at level none', () => {
  const latin1 = Buffer.from('{"name": "Jo\xe3o"}', 'latin1');
  const r = parse(latin1);
  assert.deepEqual(r.value, { name: 'Jo\ufffdo' });
  assert.deepEqual(r.repairs.map((x) => x.kind), ['invalid_utf8']);
  assert.throws(() => parse(latin1, { level: 'none' }), (e) => e instanceof JSONParseError && e.kind === 'invalid_utf8');
});

test('a size error names the option that raises the limit', () => {
  assert.throws(
    () => parse('{"a": "0123456789"}', { maxSize: 10 }),
    (e) => e instanceof InputTooLargeError && e.message === 'input is 19 bytes, over the limit of 10 bytes (the maxSize option raises it)',
  );
});

test('a repair prints as one line, as in Rust and Python', () => {
  const r = parse('{"a": 1,}');
  assert.equal(String(r.repairs[0]), '1:8 trailing_comma at (root): removed');
  assert.equal(`${r.repairs[0]}`, '1:8 trailing_comma at (root): removed');
  // It is still plain data: it compares and serialises as its fields.
  assert.deepEqual(Object.keys(r.repairs[0]).sort(), ['column', 'detail', 'end', 'kind', 'line', 'path', 'start']);
  assert.equal(JSON.stringify(r.repairs[0]).includes('toString'), false);
  assert.equal(String(parseAll('[1,] [2,]').repairs[1]), '1:8 trailing_comma at (root): removed');
});

for (const spelling of ['validate_only', 'validate-only']) {
  test(`coercion takes ${spelling}`, () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } } };
    assert.throws(() => parse('{"n": "5"}', { schema, coercion: spelling }), JSONSchemaError);
  });
}

for (const spelling of ['drop_element', 'drop-element']) {
  test(`truncation takes ${spelling}`, () => {
    assert.deepEqual(parse('[[1], [2, 3', { truncation: spelling }).value, [[1]]);
  });
}

test('parseWithRetries checks its options before calling the model', async () => {
  let calls = 0;
  const generate = () => {
    calls += 1;
    return '{}';
  };
  await assert.rejects(parseWithRetries(generate, { level: 'lenient' }), /level: unknown value "lenient"/);
  await assert.rejects(parseWithRetries(generate, { nope: 1 }), /unknown option "nope"/);
  await assert.rejects(parseWithRetries(generate, { schema: { type: 12 } }), (e) => e.kind === 'invalid_schema');
  await assert.rejects(parseWithRetries(generate, { maxRetries: 'two' }), /maxRetries/);
  await assert.rejects(parseWithRetries(generate, { coercion: 'validate-only' }), /coercion: does nothing without schema/);
  assert.equal(calls, 0);
  const schema = { type: 'object' };
  assert.deepEqual((await parseWithRetries(generate, { schema, coercion: 'validate-only' })).value, {});
});
