'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const llmjson = require('llmjson');
const { parse, parseAll, repair, extract, createStreamParser } = llmjson;

test('a fenced reply with prose: the value, the repairs, where it was', () => {
  const reply = 'Here is the plan:\n```json\n{"steps": [{"id": 1, action: \'search\'},]}\n```\nDone.';
  const r = parse(reply);
  assert.deepEqual(r.value, { steps: [{ id: 1, action: 'search' }] });
  assert.equal(r.source, 'fence:json');
  assert.equal(r.repaired, true);
  assert.deepEqual(
    r.repairs.map((x) => x.kind),
    ['unquoted_key', 'single_quotes', 'trailing_comma'],
  );
  assert.equal(reply.slice(r.span[0], r.span[1]), '{"steps": [{"id": 1, action: \'search\'},]}');
  assert.equal(r.diagnostics.outcome, 'repaired');
  assert.equal(r.diagnostics.repairs, 3);
});

test('repair spans are JavaScript string indices, past astral characters', () => {
  const reply = '{"emoji": "😀😀", \'k\': 1}';
  const r = parse(reply);
  const quote = r.repairs.find((x) => x.kind === 'single_quotes');
  assert.equal(reply[quote.start], "'");
  assert.equal(quote.line, 1);
  assert.equal(quote.column, 17, 'characters, not UTF-16 units');
});

test('every kind of character crosses intact: ASCII, Latin-1, other BMP, astral, escapes', () => {
  // Each call that hands a value's text across the addon boundary is held to JSON.parse.
  const texts = ['plain', 'é ü ß ÿ', '日本語 – “quoted”', '😀 a 𝄞 b', 'mixed é😀日 end', 'tab\t"q"\\ \u0001'];
  for (const s of texts) {
    const expected = { k: s, list: [s, { n: 1 }] };
    const broken = `{k: ${JSON.stringify(s)}, 'list': [${JSON.stringify(s)}, {n: 1},],}`;
    assert.deepEqual(parse(broken).value, expected, s);
    assert.deepEqual(JSON.parse(repair(broken)), expected, s);
    assert.deepEqual(parseAll(`${broken}\n${broken}`).values, [expected, expected], s);
    const stream = createStreamParser();
    stream.feed(broken.slice(0, 20));
    stream.feed(broken.slice(20));
    assert.deepEqual(stream.snapshot().value, expected, s);
    assert.deepEqual(stream.finish().value, expected, s);
  }
  assert.equal(extract('Here: {"a": "é😀"} done').text, '{"a": "é😀"}');
  // A lone surrogate in the reply itself (not an escape) reads as U+FFFD, as Node's own
  // conversion to UTF-8 reads it; its pair partner elsewhere is not joined to it.
  assert.deepEqual(parse('{a: "x\uD800y", "b": "\uDE00", c: "😀"}').value, { a: 'x\uFFFDy', b: '\uFFFD', c: '😀' });
});

test('a valid reply is JSON.parse’s value, with a lazy diagnostics record', () => {
  const text = ' {"a": [1, 2.5, "x", null, true], "b": {"c": "é"}} \n';
  const r = parse(text);
  assert.deepEqual(r.value, JSON.parse(text));
  assert.deepEqual(r.repairs, []);
  assert.equal(r.repaired, false);
  assert.deepEqual(r.span, [1, text.trimEnd().length]);
  assert.equal(r.diagnostics.outcome, 'ok');
  assert.equal(r.diagnostics.json_source, 'text');
});

test('a cut-off reply is completed and says so', () => {
  const r = parse('{"items": [{"id": 1}, {"id": 2, "name": "Wid');
  assert.equal(r.truncated, true);
  assert.deepEqual(r.value, { items: [{ id: 1 }, { id: 2, name: 'Wid' }] });
  const cut = '{"items": [{"id": 1}, {"id": 2, "name": "Wid';
  assert.deepEqual(parse(cut, { truncation: 'drop' }).value, { items: [{ id: 1 }, { id: 2 }] });
  assert.deepEqual(parse(cut, { truncation: 'drop_element' }).value, { items: [{ id: 1 }] });
});

test('errors: empty and no JSON are different, both NoJSONError', () => {
  assert.throws(() => parse('   '), (e) => e instanceof llmjson.EmptyResponseError && e.kind === 'empty');
  assert.throws(
    () => parse('I cannot help with that.'),
    (e) =>
      e instanceof llmjson.NoJSONError &&
      !(e instanceof llmjson.EmptyResponseError) &&
      e.kind === 'no_json' &&
      e instanceof llmjson.LLMJSONError &&
      e instanceof Error,
  );
});

test('a syntax error says where and why: line, column, position, excerpt', () => {
  const text = '{\n  "a": 1,\n  "b": [1, 2 3]\n}';
  assert.throws(
    () => parse(text, { level: 'none' }),
    (e) => {
      assert.ok(e instanceof llmjson.JSONParseError);
      assert.equal(e.kind, 'syntax');
      assert.equal(e.line, 3);
      assert.equal(e.column, 14);
      assert.equal(text[e.position], '3');
      assert.match(e.excerpt, /"b": \[1, 2 3\]\n +\^/);
      assert.equal(e.diagnostics.outcome, 'syntax');
      assert.ok(e.feedback.length > 0);
      return true;
    },
  );
});

test('the conservative level repairs cosmetics only', () => {
  assert.deepEqual(parse('{"a": 1,}', { level: 'conservative' }).value, { a: 1 });
  assert.throws(() => parse("{'a': 1}", { level: 'conservative' }), llmjson.JSONParseError);
});

test('limits: size, depth, and the safety guard', () => {
  assert.throws(() => parse('[1]'.padEnd(2000, ' '), { maxSize: 1000 }), (e) => e instanceof llmjson.InputTooLargeError && e.kind === 'too_large');
  assert.throws(() => parse('['.repeat(50) + ']'.repeat(50), { maxDepth: 10 }), (e) => e.kind === 'too_deep');
  // A long aside is prose: removing it loses nothing. A member commented out is data.
  const aside = '{"a": 1, /* ' + 'a long aside '.repeat(10) + '*/ "b": 2}';
  assert.deepEqual(parse(aside).value, { a: 1, b: 2 });
  const data = '{"a": 1, /* "c": "' + 'data '.repeat(20) + '", */ "b": 2}';
  assert.throws(() => parse(data), (e) => e instanceof llmjson.JSONRepairFailed && e.kind === 'repair_rejected');
  assert.deepEqual(parse(data, { maxRemovedRatio: 0.9 }).value, { a: 1, b: 2 });
});

test('duplicate keys: last by default, first, or an error', () => {
  assert.deepEqual(parse('{"a": 1, "a": 2}').value, { a: 2 });
  assert.deepEqual(parse('{"a": 1, "a": 2}', { duplicateKeys: 'first' }).value, { a: 1 });
  assert.throws(() => parse('{"a": 1, "a": 2}', { duplicateKeys: 'error' }), (e) => e.kind === 'duplicate_key');
});

test('bad arguments are TypeErrors or a clear message, not a crash', () => {
  assert.throws(() => parse(42), TypeError);
  assert.throws(() => parse('{}', { lenient: true }), TypeError);
  assert.throws(() => parse('{}', { level: 'lenient' }), /level: unknown value "lenient"/);
  assert.throws(() => parse('{}', { maxSize: -1 }), /maxSize/);
  assert.throws(() => parse('{}', { maxDepth: 'deep' }), /maxDepth/);
  assert.throws(() => parse('{}', { maxDepth: 1.5 }), /maxDepth: expected a whole number/);
  // Past the library's ceiling is the ceiling, not a number wrapped around to 0.
  assert.deepEqual(parse('{a: [[1]]}', { maxDepth: 2 ** 40 }).value, { a: [[1]] });
  assert.deepEqual(parse('{a: [[1]]}', { maxDepth: Infinity, maxSize: Infinity }).value, { a: [[1]] });
});

test('parseAll, repair and extract', () => {
  const all = parseAll('First {"a": 1} then [2, 3,] and {b: 4}');
  assert.deepEqual(all.values, [{ a: 1 }, [2, 3], { b: 4 }]);
  assert.equal(repair("{'a': 1,}"), '{"a":1}');
  assert.equal(repair('  {"a" : 1}  '), '{"a" : 1}');
  const found = extract('Sure! ```json\n{"a": 1}\n``` ok');
  assert.equal(found.text, '{"a": 1}');
  assert.equal(found.source, 'fence:json');
});

test('repairKinds and version', () => {
  assert.ok(llmjson.repairKinds().includes('trailing_comma'));
  assert.match(llmjson.version, /^\d+\.\d+\.\d+/);
});

test('hostile inputs give a value or a typed error, never a crash', () => {
  const pieces = ['{', '}', '[', ']', '"', "'", ':', ',', '\\', 'a', '1', ' ', '\n', '```', '//', '/*', '😀', '\u0000', 'true', 'null'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < 3000; i++) {
    let text = '';
    const n = next() % 40;
    for (let j = 0; j < n; j++) text += pieces[next() % pieces.length];
    try {
      const r = parse(text);
      assert.doesNotThrow(() => JSON.stringify(r.value));
    } catch (e) {
      assert.ok(e instanceof llmjson.LLMJSONError, `${JSON.stringify(text)}: ${e}`);
    }
  }
  assert.throws(() => parse('['.repeat(100000)), llmjson.LLMJSONError);
});

test('bytes: UTF-8 as text; bad bytes repaired (logged) or, at level none, an error', () => {
  assert.deepEqual(parse(Buffer.from('{"a": "é"}')).value, { a: 'é' });
  assert.deepEqual(parse(new TextEncoder().encode("{'a': 1}")).value, { a: 1 });
  const bad = Buffer.concat([Buffer.from('{"a": "x'), Buffer.from([0xff]), Buffer.from('y"}')]);
  const r = parse(bad);
  assert.deepEqual(r.value, { a: 'x\ufffdy' });
  assert.ok(r.repairs.some((x) => x.kind === 'invalid_utf8'));
  assert.throws(() => parse(bad, { level: 'none' }), (e) => e.kind === 'invalid_utf8');
});

test('parseAsync: the same results and errors, and the event loop runs meanwhile', async () => {
  const reply = 'Sure: ```json\n{"a": [1, 2,], b: \'x\'}\n```';
  const [sync, async_] = [parse(reply), await llmjson.parseAsync(reply)];
  assert.deepEqual(async_.toJSON().value, sync.value);
  assert.deepEqual(async_.repairs, sync.repairs);
  assert.deepEqual((await llmjson.parseAsync('[1, 2]')).value, [1, 2]);
  await assert.rejects(llmjson.parseAsync('no json'), llmjson.NoJSONError);
  await assert.rejects(llmjson.parseAsync(42), TypeError);
  // A large broken reply: timers fire while it is parsed.
  const big = '[' + "{'k': 1, v: [1, 2,],},".repeat(100_000) + ']';
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  const r = await llmjson.parseAsync(big);
  clearInterval(timer);
  assert.equal(r.value.length, 100_000);
  assert.ok(ticks > 0, 'the event loop ran during the parse');
});

test('LaTeX written with one backslash reads as LaTeX; latex: false keeps JSON escapes', () => {
  const reply = '{"answer": "$\\frac{a}{b} + \\beta$", "table": "Name\\tScore\\nAna\\t91"}';
  const r = parse(reply);
  assert.deepEqual(r.value, { answer: '$\\frac{a}{b} + \\beta$', table: 'Name\tScore\nAna\t91' });
  assert.deepEqual(r.repairs.map((x) => x.kind), ['latex_escape']);
  const rfc = parse(reply, { latex: false });
  assert.deepEqual(rfc.value, JSON.parse(reply));
  assert.equal(rfc.repaired, false);
  assert.throws(() => parse(reply, { latex: 'no' }), /latex: expected true or false/);
  assert.equal(repair('{"f": "\\theta = \\alpha"}'), '{"f":"\\\\theta = \\\\alpha"}');
});

test('an option that would do nothing is refused', () => {
  for (const options of [{ failClosed: false }, { coercion: 'validate_only' }, { invalidItems: 'drop' }]) {
    assert.throws(() => llmjson.parse('{"a": 1}', options), (e) => e instanceof TypeError && /does nothing without/.test(e.message));
  }
  assert.deepEqual(llmjson.parse('{"a": 1}', { schema: { type: 'object' }, coercion: 'validate_only' }).value, { a: 1 });
  assert.deepEqual(llmjson.parse('{"a": 1}', { evidence: 'a was 1', failClosed: false }).value, { a: 1 });
});
