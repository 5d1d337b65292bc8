'use strict';
// Streaming: a reply read while the model is still writing it. createStreamParser gives an
// object that takes chunks as they arrive (feed), shows the value so far (snapshot) and what
// changed (events), and at the end (finish) returns what parse returns for the whole reply.
// parseStream wraps it for an async iterable of chunks (a fetch body, an SSE stream, an AI SDK
// text stream), yielding the partial value each time it changes, then the final one.

const core = require('./core');
const { fromNative, LLMJSONError } = require('./errors');

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
    /**
     * What has arrived already needs a repair (a comment, another quote, a bare key, a trailing
     * or missing comma, a spot read with a guess), rather than being merely incomplete.
     */
    this.malformed = s.malformed;
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
  #finished = false;

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

  /** Throws, when the parser was finished, an LLMJSONError (kind `stream_finished`) naming what
   * to read instead; a finished parser takes nothing more. */
  #live(method) {
    if (this.#finished) {
      throw new LLMJSONError(
        `${method}() after finish(): the stream was finished; the events after finish are in ` +
          'lastEvents, the value in what finish() returned',
        { kind: 'stream_finished' },
      );
    }
  }

  /** Reads the next chunk (a string, or bytes: a character split between chunks waits). */
  feed(chunk) {
    this.#live('feed');
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
    this.#live('snapshot');
    return new Snapshot(this.#native.snapshot());
  }

  /** What happened since the last call: [{ kind, path, text?, property? }]. */
  events() {
    this.#live('events');
    return this.#native.events().map(event);
  }

  /**
   * Ends the stream: parse's result for the whole reply (its diagnostics also hold
   * stream_chunks and stream_first_value_ms).
   */
  finish() {
    this.#live('finish');
    this.#finished = true;
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

/**
 * What a chunk carries: text (a string, bytes, an object with `textDelta`/`delta`/`text`/`content`,
 * an OpenAI-style `choices[0].delta.content`, an Anthropic `text_delta`), or pieces of tool calls
 * ({ index, id, name, arguments }: OpenAI's `choices[0].delta.tool_calls`, Anthropic's `tool_use`
 * blocks and their `input_json_delta` events).
 */
function chunkParts(chunk) {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return chunk;
  if (chunk && typeof chunk === 'object') {
    for (const key of ['textDelta', 'delta', 'text', 'content']) {
      if (typeof chunk[key] === 'string') return chunk[key];
    }
    const delta = chunk.choices?.[0]?.delta;
    if (Array.isArray(delta?.tool_calls) && delta.tool_calls.length > 0) {
      return delta.tool_calls.map((call) => ({
        index: call.index ?? 0,
        id: call.id ?? null,
        name: call.function?.name ?? null,
        arguments: call.function?.arguments ?? '',
      }));
    }
    if (chunk.choices !== undefined) {
      const content = delta?.content;
      if (typeof content === 'string' || content == null) return content ?? '';
    }
    if (chunk.type === 'content_block_start') {
      const block = chunk.content_block;
      if (block?.type === 'tool_use' || block?.type === 'server_tool_use') {
        return [{ index: chunk.index ?? 0, id: block.id ?? null, name: block.name ?? null, arguments: '' }];
      }
      return '';
    }
    if (chunk.type === 'content_block_delta') {
      if (chunk.delta?.type === 'input_json_delta') {
        return [{ index: chunk.index ?? 0, id: null, name: null, arguments: chunk.delta.partial_json ?? '' }];
      }
      return typeof chunk.delta?.text === 'string' ? chunk.delta.text : '';
    }
    if (typeof chunk.type === 'string') return ''; // another Anthropic event (message_start, ping, …)
  }
  throw new TypeError(`expected a string, bytes, a text delta or a tool-call delta, got ${chunk === null ? 'null' : typeof chunk}`);
}

/** parseStream looks at the value after every chunk up to this many characters (or bytes). */
const EVERY_CHUNK_UP_TO = 1024;

/** One streamed value (the reply's text, or one tool call's arguments), looked at sparingly. */
class Watched {
  constructor(options) {
    this.parser = new StreamParser({ ...options, events: false });
    this.last = undefined;
    this.lastJson = undefined;
    this.fed = 0;
    this.shownAt = 0;
  }

  /** Feeds `text`; whether the value shown changed. */
  feed(text) {
    this.parser.feed(text);
    // A snapshot costs the value so far: after every chunk of the first kilobyte, then once per
    // sixteenth of what arrived (the snapshots of a long reply cost a bounded multiple of it).
    this.fed += text.length;
    if (this.fed > EVERY_CHUNK_UP_TO && this.fed - this.shownAt < Math.floor(this.fed / 16)) return false;
    this.shownAt = this.fed;
    const { value } = this.parser.snapshot();
    if (value === undefined) return false;
    const json = JSON.stringify(value);
    if (json === this.lastJson) return false;
    this.lastJson = json;
    this.last = value;
    return true;
  }
}

/**
 * Reads an async (or sync) iterable of chunks and yields the value so far each time it
 * changes, then the final value (parse's value for the whole reply). The value is looked at
 * after every chunk of the first 1024 characters, then once per sixteenth of the reply so far.
 *
 * When the chunks carry tool calls (OpenAI `delta.tool_calls`, Anthropic `tool_use` blocks),
 * each call's arguments are read by a parser of their own, and what is yielded is the list of
 * calls { index, id, name, arguments } each time one's arguments changed, then the final list
 * (each call's arguments parse's value; a call that streamed none has {}). `tools: { name:
 * schema }` gives the arguments of a tool's calls a JSON Schema or a Zod schema. Text around
 * the calls is not parsed once a call has started.
 */
async function* parseStream(chunks, options) {
  const { tools = {}, ...rest } = options ?? {};
  const text = new Watched(rest);
  const calls = new Map();
  const watched = (call) => {
    if (call.watched === undefined) {
      const schema = Object.prototype.hasOwnProperty.call(tools, call.name ?? '') ? tools[call.name] : undefined;
      call.watched = new Watched(schema === undefined ? rest : { ...rest, schema });
    }
    return call.watched;
  };
  const listed = (argumentsOf) =>
    [...calls.values()]
      .sort((a, b) => a.index - b.index)
      .map((call) => ({ index: call.index, id: call.id, name: call.name, arguments: argumentsOf(call) }));
  for await (const chunk of chunks) {
    const carried = chunkParts(chunk);
    if (Array.isArray(carried)) {
      let changed = false;
      for (const piece of carried) {
        let call = calls.get(piece.index);
        if (call === undefined) {
          call = { index: piece.index, id: null, name: null, watched: undefined };
          calls.set(piece.index, call);
        }
        call.id ??= piece.id;
        call.name ??= piece.name;
        if (piece.arguments.length > 0) changed = watched(call).feed(piece.arguments) || changed;
      }
      if (changed) yield listed((call) => (call.watched === undefined ? undefined : call.watched.last));
      continue;
    }
    if (carried.length === 0 || calls.size > 0) continue;
    if (text.feed(carried)) yield text.last;
  }
  if (calls.size === 0) {
    yield text.parser.finish().value;
    return;
  }
  yield listed((call) => (call.watched === undefined || call.watched.fed === 0 ? {} : watched(call).parser.finish().value));
}

/**
 * The JSON Schema keyword that marks a property to be shown in snapshots only once its value is
 * complete (`{ type: 'string', 'x-llmjson-done-only': true }`; with Zod 4, `.meta({ [DONE_ONLY]:
 * true })`).
 */
const DONE_ONLY = 'x-llmjson-done-only';

module.exports = { createStreamParser, parseStream, StreamParser, Snapshot, DONE_ONLY };
