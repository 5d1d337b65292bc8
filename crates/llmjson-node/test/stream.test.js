'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const llmjson = require('llmjson');
const { createStreamParser, parseStream, parse } = llmjson;

const REPLIES = fs
  .readFileSync(path.join(__dirname, '../../../examples/replies.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l).reply);

function outcome(call) {
  try {
    const r = call();
    return { value: r.value, repairs: r.repairs };
  } catch (e) {
    return { error: e.constructor.name, message: e.message };
  }
}

/** A small seeded generator: the same chunkings on every run. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

for (const asBytes of [false, true]) {
  test(`every logged reply fed in random ${asBytes ? 'byte' : 'string'} chunks finishes as parse`, () => {
    const next = rng(20261125);
    for (const reply of REPLIES) {
      const data = asBytes ? Buffer.from(reply) : reply;
      const parser = createStreamParser();
      for (let at = 0; at < data.length; ) {
        const step = 1 + Math.floor(next() * 24);
        parser.feed(data.subarray ? data.subarray(at, at + step) : data.slice(at, at + step));
        parser.snapshot();
        at += step;
      }
      assert.deepEqual(outcome(() => parser.finish()), outcome(() => parse(reply)), reply.slice(0, 80));
    }
  });
}

test('a snapshot: the value so far, what is complete, what may still change', () => {
  const parser = createStreamParser();
  parser.feed('Sure! ```json\n{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, "title": "Add pas');
  const snap = parser.snapshot();
  assert.deepEqual(snap.value, { steps: [{ id: 1, title: 'Boil water' }, { id: 2, title: 'Add pas' }] });
  assert.ok(snap.complete.includes('/steps/0'));
  assert.ok(snap.provisional.includes('/steps/1/title'));
  assert.equal(snap.done, false);
  assert.equal(snap.isSettled('/steps/1/title'), false);
  parser.feed('ta"}]}\n```');
  assert.equal(parser.snapshot().done, true);
  const r = parser.finish();
  assert.equal(r.value.steps[1].title, 'Add pasta');
  assert.equal(r.diagnostics.stream_chunks, 2);
  assert.ok(r.diagnostics.stream_first_value_ms >= 0);
  assert.throws(() => parser.finish(), /finished/);
  // Every call after finish is an LLMJSONError with a kind, naming what to read instead.
  for (const call of [() => parser.events(), () => parser.snapshot(), () => parser.feed('x')]) {
    assert.throws(call, (e) => e instanceof llmjson.LLMJSONError && e.kind === 'stream_finished' && /lastEvents/.test(e.message));
  }
});

test('events say what was settled, and are taken once', () => {
  // A window behind what has arrived: a short reply's events come with its end.
  const parser = createStreamParser();
  parser.feed('{"name": "Ad');
  assert.deepEqual(parser.events(), []);
  parser.feed('a", "tags": ["x"]}');
  parser.finish();
  assert.deepEqual(parser.lastEvents.slice(0, 2), [
    { kind: 'key_started', path: '/name' },
    { kind: 'string_grew', path: '/name', text: 'Ada' },
  ]);
  assert.ok(parser.lastEvents.some((e) => e.kind === 'value_completed' && e.path === '/tags/0'));
  // A long reply: the first members are told before it ends; a repeated key revises the value
  // shown before it.
  const pad = 'x'.repeat(600);
  const reply = `{"name": "A", "pad": "${pad}", "name": "B", "tail": "${pad}"}`;
  const long = createStreamParser();
  const early = [];
  for (let i = 0; i < reply.length; i += 64) {
    long.feed(reply.slice(i, i + 64));
    early.push(...long.events());
  }
  assert.ok(early.some((e) => e.kind === 'value_completed' && e.path === '/name'));
  assert.deepEqual(long.events(), []);
  long.finish();
  assert.ok(long.lastEvents.some((e) => e.kind === 'revised' && e.path === '/name'));
});

test('limits throw the errors parse throws, as the bytes arrive', () => {
  const small = createStreamParser({ maxSize: 10 });
  small.feed('{"a": ');
  assert.throws(() => small.feed('"0123456789"}'), llmjson.InputTooLargeError);
  const deep = createStreamParser();
  for (let i = 0; i < 50; i++) deep.feed('['.repeat(10)); // the live view stops at the limit
  assert.throws(() => deep.finish(), /nesting deeper/);
  const none = createStreamParser();
  none.feed('no json here');
  assert.throws(() => none.finish(), llmjson.NoJSONError);
  assert.throws(() => createStreamParser({ events: 'yes' }), TypeError);
  assert.throws(() => createStreamParser({ evidence: 'x' }), TypeError);
});

test('a split UTF-8 character waits for its last byte', () => {
  const data = Buffer.from('{"city": "東京"}');
  const parser = createStreamParser();
  for (let i = 0; i < data.length; i++) {
    parser.feed(data.subarray(i, i + 1));
    const { value } = parser.snapshot();
    if (value) assert.ok(!JSON.stringify(value).includes('\ufffd'));
  }
  assert.deepEqual(parser.finish().value, { city: '東京' });
});

test('with a schema: required properties that can no longer appear, coerced snapshots', () => {
  const schema = {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      steps: { type: 'array', items: { type: 'object', required: ['id', 'title'] } },
    },
  };
  const parser = createStreamParser({ schema });
  // The last title is long: the first step is settled while it arrives.
  parser.feed('{"count": "3", "steps": [{"id": 1}, {"title": "x' + 'y'.repeat(700));
  assert.equal(parser.snapshot().value.count, 3);
  assert.deepEqual(
    parser.events().filter((e) => e.kind === 'required_missing'),
    [{ kind: 'required_missing', path: '/steps/0', property: 'title' }],
  );
  assert.throws(() => parser.finish(), llmjson.JSONSchemaError);
});

const PIECES = ['Here is the plan:\n```json\n{"goal": "Ship', ' it", "steps": [{"id": 1, "title": "Build"},', ' {"id": 2, "title": "Test"}]}\n```'];

test('parseStream yields the value as it changes, then the final one', async () => {
  async function* textStream() {
    for (const p of PIECES) yield p;
  }
  const values = [];
  for await (const v of parseStream(textStream())) values.push(v);
  assert.deepEqual(values[0], { goal: 'Ship' });
  assert.deepEqual(values.at(-1), parse(PIECES.join('')).value);
  // AI SDK-style deltas and OpenAI-style chunks read the same.
  const deltas = [];
  for await (const v of parseStream(PIECES.map((textDelta) => ({ type: 'text-delta', textDelta })))) deltas.push(v);
  assert.deepEqual(deltas, values);
  const openai = [];
  for await (const v of parseStream(PIECES.map((content) => ({ choices: [{ delta: { content } }] })))) openai.push(v);
  assert.deepEqual(openai, values);
});

test('parseStream reads a fetch body as it arrives', async () => {
  const server = http.createServer(async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    for (const p of PIECES) {
      res.write(p);
      await new Promise((r) => setTimeout(r, 20));
    }
    res.end();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address();
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const values = [];
    for await (const v of parseStream(response.body)) values.push(v);
    assert.ok(values.length >= 2, JSON.stringify(values));
    assert.deepEqual(values.at(-1), parse(PIECES.join('')).value);
  } finally {
    server.close();
  }
});

test('events nobody reads are made when first read, and say what live reading said', () => {
  const reply = 'Sure:\n```json\n{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, \'n\': 3,}], "done": tru';
  const joined = (events) => {
    const out = [];
    for (const e of events) {
      const last = out[out.length - 1];
      if (e.kind === 'string_grew' && last && last.kind === 'string_grew' && last.path === e.path) {
        last.text += e.text;
      } else {
        out.push({ ...e });
      }
    }
    return out;
  };
  const live = createStreamParser();
  const told = [];
  for (let i = 0; i < reply.length; i += 5) {
    live.feed(reply.slice(i, i + 5));
    told.push(...live.events());
  }
  live.finish();
  told.push(...live.lastEvents);
  const late = createStreamParser();
  for (let i = 0; i < reply.length; i += 5) late.feed(reply.slice(i, i + 5));
  assert.deepEqual(late.finish().value, parse(reply).value);
  assert.deepEqual(joined(late.lastEvents), joined(told));
  assert.equal(late.lastEvents, late.lastEvents, 'made once');
});

function openaiToolChunks() {
  const first = '{"location": "Lisboa", "unit": "celsius", "days": "3"}';
  const second = "{'query': 'tram 28', 'limit': 5,}";
  const chunks = [{ choices: [{ delta: { role: 'assistant', content: null } }] }];
  chunks.push({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'weather', arguments: '' } }] } }] });
  chunks.push({ choices: [{ delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'search', arguments: '' } }] } }] });
  for (let i = 0; i < Math.max(first.length, second.length); i += 6) {
    for (const [index, text] of [[0, first], [1, second]]) {
      const piece = text.slice(i, i + 6);
      if (piece) chunks.push({ choices: [{ delta: { tool_calls: [{ index, function: { arguments: piece } }] } }] });
    }
  }
  chunks.push({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
  return chunks;
}

test('parseStream reads OpenAI tool calls, one parser per call, a schema per tool', async () => {
  const yielded = [];
  const tools = { weather: { type: 'object', properties: { days: { type: 'integer' } } } };
  for await (const v of parseStream(openaiToolChunks(), { tools })) yielded.push(v);
  assert.deepEqual(yielded.at(-1), [
    { index: 0, id: 'call_a', name: 'weather', arguments: { location: 'Lisboa', unit: 'celsius', days: 3 } },
    { index: 1, id: 'call_b', name: 'search', arguments: { query: 'tram 28', limit: 5 } },
  ]);
  assert.ok(yielded.length > 5);
  assert.ok(yielded.some((calls) => calls[0].arguments?.location === 'Lisb'));
});

test('parseStream reads Anthropic tool_use blocks and input_json_delta events', async () => {
  const args = '{"city": "Porto", "when": ["today", "tomorrow"]}';
  const events = [
    { type: 'message_start', message: { id: 'msg_1' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me check.' } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'forecast', input: {} } },
  ];
  for (let i = 0; i < args.length; i += 4) {
    events.push({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: args.slice(i, i + 4) } });
  }
  events.push(
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} } },
    { type: 'content_block_stop', index: 2 },
    { type: 'message_stop' },
  );
  const yielded = [];
  for await (const v of parseStream(events)) yielded.push(v);
  assert.deepEqual(yielded.at(-1), [
    { index: 1, id: 'toolu_1', name: 'forecast', arguments: { city: 'Porto', when: ['today', 'tomorrow'] } },
    { index: 2, id: 'toolu_2', name: 'now', arguments: {} },
  ]);
  assert.ok(yielded.slice(0, -1).some((calls) => JSON.stringify(calls[0].arguments) === '{"city":"Porto","when":["today"]}'));
});

test('a done-only field is absent from snapshots until complete; a snapshot says malformed', () => {
  const { DONE_ONLY } = require('llmjson');
  const schema = { type: 'object', properties: { title: { type: 'string' }, summary: { type: 'string', [DONE_ONLY]: true } } };
  const reply = '{"title": "Deploy", "summary": "Build, test and ship"}';
  let shown = false;
  for (let end = 1; end <= reply.length; end++) {
    const p = createStreamParser({ schema });
    p.feed(reply.slice(0, end));
    const { value } = p.snapshot();
    if (value && 'summary' in value) {
      assert.equal(value.summary, 'Build, test and ship', `never half of it (at ${end})`);
      shown = true;
    }
  }
  assert.ok(shown);
  const incomplete = createStreamParser();
  incomplete.feed('{"a": [1, 2');
  assert.equal(incomplete.snapshot().malformed, false);
  const malformed = createStreamParser();
  malformed.feed("{'a': [1, 2,");
  assert.equal(malformed.snapshot().malformed, true);
});

function plans(n) {
  const step = { id: 's1', title: 'Normalise the 日本語 documents', params: { retries: 3, dry_run: false }, tags: ['a', 'b'] };
  const steps = Array.from({ length: n }, (_, i) => ({ ...step, id: `s${i}` }));
  return 'Here it is:\n```json\n' + JSON.stringify({ objective: 'Migrate', steps }) + '\n```';
}

test('snapshots kept never change, and each is the value so far', () => {
  // Snapshots share the members that were complete: a later chunk must never change one a
  // caller kept, and each must be what a parser given the same text at once shows.
  const replies = [plans(40), '{"a": [1, 2, {"b": "x\\ny"}], "c": {"d": [[], {}]}, "2": "int key", "e": "end"}', ...REPLIES.slice(0, 30)];
  for (const chunk of [1, 7, 64, 256]) {
    for (const text of replies) {
      const p = createStreamParser();
      const kept = [];
      for (let at = 0; at < text.length; at += chunk) {
        p.feed(text.slice(at, at + chunk));
        const snapshot = p.snapshot();
        kept.push([snapshot, JSON.stringify(snapshot.value)]);
        if (at % (chunk * 9) === 0) {
          const fresh = createStreamParser();
          fresh.feed(text.slice(0, at + chunk));
          const again = fresh.snapshot();
          if (!again.malformed) {
            assert.deepEqual(snapshot.value, again.value, text.slice(0, at + chunk));
            assert.deepEqual(snapshot.complete, again.complete, text.slice(0, at + chunk));
          }
        }
      }
      for (const [snapshot, written] of kept) assert.equal(JSON.stringify(snapshot.value), written);
      assert.deepEqual(outcome(() => p.finish()), outcome(() => parse(text)));
    }
  }
});

test('what is complete follows from the value still being written', () => {
  const p = createStreamParser();
  p.feed('{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, "title": "Add pa');
  const s = p.snapshot();
  assert.equal(s.open, '/steps/1/title');
  assert.deepEqual(s.complete, ['/steps/0', '/steps/1/id']);
  assert.ok(s.isComplete('/steps/0/title') && !s.isComplete('/steps/1'));
});

test('what is provisional, listed when read, is the library list', () => {
  // A snapshot kept in place says what is provisional as where it starts and lists it when
  // read; a parser that builds its snapshots whole (any schema) gets the library's list. On
  // JSON read as written both show the live reader's own view, whatever the history. (An
  // integer-like key keeps the reply's order.)
  const text = `${plans(30).slice(0, -5)}, "9": {"2": 1, "1": [2]}}\n\`\`\`\nThat is the plan.`;
  for (const chunk of [3, 64, 256]) {
    const inPlace = createStreamParser();
    const whole = createStreamParser({ schema: {} });
    let a;
    for (let at = 0; at < text.length; at += chunk) {
      inPlace.feed(text.slice(at, at + chunk));
      whole.feed(text.slice(at, at + chunk));
      a = inPlace.snapshot();
      const b = whole.snapshot();
      assert.deepEqual(a.value, b.value);
      assert.deepEqual(a.provisional, b.provisional, text.slice(0, at + chunk).slice(-80));
      for (const p of [...b.provisional, ...b.complete.slice(-5)]) {
        assert.equal(a.isSettled(p), b.isSettled(p), p);
      }
    }
    assert.ok(a.done);
    assert.deepEqual(a.provisional, ['']);
  }
});

/** Whether `value` (a partial value shown) is `final` as far as it goes. */
function shownOf(value, final) {
  if (Array.isArray(value)) {
    return Array.isArray(final) && value.length <= final.length && value.every((v, i) => shownOf(v, final[i]));
  }
  if (value !== null && typeof value === 'object') {
    return (
      final !== null &&
      typeof final === 'object' &&
      !Array.isArray(final) &&
      Object.entries(value).every(([k, v]) => Object.hasOwn(final, k) && shownOf(v, final[k]))
    );
  }
  if (typeof value === 'string') return typeof final === 'string' && final.startsWith(value);
  return final === null || typeof final !== 'object' && typeof final !== 'string';
}

test("a repeated key's open value is kept in the first one's place", () => {
  // While it is still open (longer than the lag, so settled while open) the kept value writes
  // into that member, not into the object's last one.
  const items = Array.from({ length: 120 }, (_, i) => `{"step": ${i}, "note": "item ${i}"}`).join(', ');
  // (Members after it: the view leaves it for them while the settled part still holds it open.)
  const others = Array.from({ length: 120 }, (_, i) => `{"id": "other ${i}"}`).join(', ');
  const text = `{"a": 1, "b": 2, "a": {"x": [${items}], "z": 3}, "c": [${others}], "d": 4}`;
  const final = parse(text).value;
  for (const chunk of [1, 7, 64]) {
    const parser = createStreamParser();
    let most = 0;
    for (let at = 0; at < text.length; at += chunk) {
      parser.feed(text.slice(at, at + chunk));
      const value = parser.live().value;
      if (value && typeof value.a === 'object') {
        assert.ok(shownOf(value, final), text.slice(0, at + chunk).slice(-60));
        most = Math.max(most, (value.a.x ?? []).length);
      } else {
        assert.ok(value === undefined || shownOf({ ...value, a: final.a }, final));
      }
    }
    assert.ok(most >= 100, `${most}`);
    assert.deepEqual(Object.keys(parser.finish().value), ['a', 'b', 'c', 'd']);
  }
});

test('live() is the value kept in place, equal to the snapshot after every chunk', () => {
  const text = plans(20);
  for (const chunk of [1, 16, 256]) {
    const parser = createStreamParser();
    let first;
    for (let at = 0; at < text.length; at += chunk) {
      parser.feed(text.slice(at, at + chunk));
      const live = parser.live();
      const snapshot = parser.snapshot();
      assert.deepEqual(live.value, snapshot.value);
      assert.deepEqual([live.done, live.malformed, live.open], [snapshot.done, snapshot.malformed, snapshot.open]);
      assert.deepEqual(live.provisional, snapshot.provisional);
      if (first === undefined && live.value && typeof live.value === 'object') first = live.value;
    }
    // The same root object all along, changed in place.
    assert.equal(parser.live().value, first);
  }
});
