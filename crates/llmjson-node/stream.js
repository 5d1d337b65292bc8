'use strict';
// Streaming: a reply read while the model is still writing it. createStreamParser gives an
// object that takes chunks as they arrive (feed), shows the value so far (snapshot) and what
// changed (events), and at the end (finish) returns what parse returns for the whole reply.
// parseStream wraps it for an async iterable of chunks (a fetch body, an SSE stream, an AI SDK
// text stream), yielding the partial value each time it changes, then the final one.

const core = require('./core');
const { fromNative } = require('./errors');

const { native } = core;

function covers(outer, inner) {
  return inner === outer || (inner.startsWith(outer) && inner[outer.length] === '/');
}

/** The value so far: { value, complete, provisional, done, isSettled(pointer) }. */
class Snapshot {
  constructor(s) {
    /** The partial value, closed as `truncation` says (undefined before the JSON starts). */
    this.value = s.json == null ? undefined : JSON.parse(s.json);
    /** JSON Pointers of the complete values (the largest ones). */
    this.complete = s.complete;
    /** Pointers a later byte may still change (open, guessed, or completed very recently). */
    this.provisional = s.provisional;
    /** The root value closed. */
    this.done = s.done;
  }

  /** The value at `pointer` is complete and nothing in it is provisional. */
  isSettled(pointer) {
    return this.complete.some((c) => covers(c, pointer)) && !this.provisional.some((p) => covers(pointer, p));
  }
}

function event(e) {
  const out = { kind: e.kind, path: e.path };
  if (e.text != null) out.text = e.text;
  if (e.property != null) out.property = e.property;
  return out;
}

class StreamParser {
  #native;
  #call;
  #held = '';
  #lastEvents = [];

  /**
   * After finish: the events not taken before it, then its `revised` events. Made when first
   * read (a long reply has hundreds of thousands; most callers never read them).
   */
  get lastEvents() {
    if (this.#lastEvents === undefined) this.#lastEvents = this.#native.lastEvents().map(event);
    return this.#lastEvents;
  }

  constructor(options) {
    const { events = true, ...rest } = options ?? {};
    if (typeof events !== 'boolean') throw new TypeError('events: expected true or false');
    const o = core.checkedOptions(rest);
    if (o.evidence) throw new TypeError('evidence: not taken while streaming (verify the final value)');
    const { compiled, zod } = core.compiledSchema(o.schema);
    const opts = core.nativeOptions(o);
    this.#native = new native.StreamParser(opts, compiled, events);
    this.#call = { opts, compiled, zod };
  }

  /** Reads the next chunk (a string, or bytes: a character split between chunks waits). */
  feed(chunk) {
    let input = core.checkedInput(chunk);
    if (typeof input === 'string') {
      // A string cut between the two halves of a surrogate pair (an emoji): the first half
      // waits for the second.
      input = this.#held + input;
      this.#held = '';
      const last = input.charCodeAt(input.length - 1);
      if (last >= 0xd800 && last <= 0xdbff) {
        this.#held = input.slice(-1);
        input = input.slice(0, -1);
      }
    } else if (this.#held) {
      this.#feedNative(this.#held);
      this.#held = '';
    }
    this.#feedNative(input);
  }

  #feedNative(input) {
    const error = this.#native.feed(input);
    if (error) throw fromNative(error, null);
  }

  /** The value so far, and which paths are complete or still provisional. */
  snapshot() {
    return new Snapshot(this.#native.snapshot());
  }

  /** What happened since the last call: [{ kind, path, text?, property? }]. */
  events() {
    return this.#native.events().map(event);
  }

  /**
   * Ends the stream: parse's result for the whole reply (its diagnostics also hold
   * stream_chunks and stream_first_value_ms).
   */
  finish() {
    if (this.#held) {
      // A lone half of a pair at the end: U+FFFD, as parse reads it.
      this.#native.feed(this.#held);
      this.#held = '';
    }
    const { outcome, text } = this.#native.finish();
    this.#lastEvents = undefined;
    const record = JSON.parse(outcome.diagnostics);
    return core.finished({ text, ...this.#call }, outcome, () => record);
  }
}

/** A stream parser for one reply: `parse`'s options, plus `events: false` to skip events. */
function createStreamParser(options) {
  return new StreamParser(options);
}

/** The text of a chunk: a string, bytes, or an object with `text`/`delta`/`content`. */
function chunkText(chunk) {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  if (chunk && typeof chunk === 'object') {
    for (const key of ['textDelta', 'delta', 'text', 'content']) {
      if (typeof chunk[key] === 'string') return chunk[key];
    }
    const content = chunk.choices?.[0]?.delta?.content;
    if (typeof content === 'string' || content == null) return content ?? '';
  }
  throw new TypeError(`expected a string, bytes or a text delta, got ${chunk === null ? 'null' : typeof chunk}`);
}

/** parseStream looks at the value after every chunk up to this many characters (or bytes). */
const EVERY_CHUNK_UP_TO = 1024;

/**
 * Reads an async (or sync) iterable of chunks and yields the value so far each time it
 * changes, then the final value (parse's value for the whole reply). The value is looked at
 * after every chunk of the first 1024 characters, then once per sixteenth of the reply so far.
 */
async function* parseStream(chunks, options) {
  const parser = new StreamParser({ ...options, events: false });
  let last;
  let fed = 0;
  let shownAt = 0;
  for await (const chunk of chunks) {
    const text = chunkText(chunk);
    if (text.length === 0) continue;
    parser.feed(text);
    // A snapshot costs the value so far: after every chunk of the first kilobyte, then once per
    // sixteenth of what arrived (the snapshots of a long reply cost a bounded multiple of it).
    fed += text.length;
    if (fed > EVERY_CHUNK_UP_TO && fed - shownAt < Math.floor(fed / 16)) continue;
    shownAt = fed;
    const { value } = parser.snapshot();
    if (value === undefined) continue;
    const json = JSON.stringify(value);
    if (json === last) continue;
    last = json;
    yield value;
  }
  yield parser.finish().value;
}

module.exports = { createStreamParser, parseStream, StreamParser, Snapshot };
