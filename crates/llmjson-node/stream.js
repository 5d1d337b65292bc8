'use strict';
// Streaming: a reply read while the model is still writing it. createStreamParser gives an
// object that takes chunks as they arrive (feed), shows the value so far (snapshot) and what
// changed (events), and at the end (finish) returns what parse returns for the whole reply.
// parseStream wraps it for an async iterable of chunks (a fetch body, an SSE stream, an AI SDK
// text stream), yielding the partial value each time it changes, then the final one.

const core = require('./core');
const { fromNative, LLMJSONError } = require('./errors');

const { native } = core;

/** Whether a parser's snapshots are kept up to date in place (internal). */
const IN_PLACE = Symbol('inPlace');

function covers(outer, inner) {
  return inner === outer || (inner.startsWith(outer) && inner[outer.length] === '/');
}

function escapeToken(key) {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The largest complete values of `value` whose innermost open value is at `open` (every member
 * of a container around it but the one on its way), sorted.
 */
function completeOf(value, open, keysOf) {
  if (value === undefined) return [];
  if (open == null) return [''];
  const out = [];
  let node = value;
  let pointer = '';
  while (node !== null && typeof node === 'object') {
    const entries = Array.isArray(node)
      ? node.map((v, i) => [String(i), v])
      : (keysOf.get(node) ?? Object.keys(node)).map((k) => [escapeToken(k), node[k]]);
    let following;
    for (const [token, item] of entries) {
      const child = `${pointer}/${token}`;
      if (covers(child, open)) following = [child, item];
      else out.push(child);
    }
    if (!following) break;
    [pointer, node] = following;
  }
  // (Sorted as the library sorts: by UTF-8 bytes, which for these strings is code-point order.)
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The value at `pointer` in `value` (undefined where there is none). */
function resolve(value, pointer) {
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(token)] : Object.hasOwn(node, token) ? node[token] : undefined;
  }
  return node;
}

/**
 * The provisional pointers of `value`: the others, and each open container's with its members
 * or elements from the first provisional one on (`u`: the library's changes), sorted.
 */
function provisionalOf(value, u, keysOf) {
  const out = new Set(u.provisionalOther);
  u.provisionalOpen.forEach((pointer, i) => {
    const from = u.provisionalFrom[i];
    out.add(pointer);
    const node = resolve(value, pointer);
    if (Array.isArray(node)) {
      for (let k = from; k < node.length; k++) out.add(`${pointer}/${k}`);
    } else if (node !== null && typeof node === 'object') {
      const keys = keysOf.get(node) ?? Object.keys(node);
      for (const key of keys.slice(from)) out.add(`${pointer}/${escapeToken(key)}`);
    }
  });
  return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The JavaScript objects of the value a stream shows, kept up to date in place by the
 * library's changes: each complete member is made once. A snapshot copies only the containers
 * a later change may touch (on the settled path and on the cursor's) and shares every other
 * member.
 */
class View {
  root = undefined;
  /** [container, slot] from the root to the cursor's container (slot: index or key). */
  cursor = [];
  /** The cursor's path where the settled part ended. */
  settled = [];
  /** Objects' keys in the order they were written (JavaScript puts integer-like keys first). */
  keysOf = new WeakMap();

  keys(obj) {
    let keys = this.keysOf.get(obj);
    if (!keys) {
      keys = Object.keys(obj);
      this.keysOf.set(obj, keys);
    }
    return keys;
  }

  /** Applies an update; the first `settled` changes are the settled part's (null: the path kept
   * last stands). */
  apply(changes, settled) {
    for (let i = 0; i < changes.length; i++) {
      if (i === settled) this.settled = this.cursor.slice();
      this.change(changes[i]);
    }
    if (settled != null && settled >= changes.length) this.settled = this.cursor.slice();
  }

  top() {
    return this.cursor.length ? this.cursor[this.cursor.length - 1][0] : undefined;
  }

  push(key, value) {
    const top = this.top();
    if (Array.isArray(top)) {
      top.push(value);
      return top.length - 1;
    }
    if (top !== null && typeof top === 'object') {
      const name = key ?? '';
      if (!Object.prototype.hasOwnProperty.call(top, name)) this.keys(top).push(name);
      top[name] = value;
      return name;
    }
    return undefined;
  }

  change(c) {
    switch (c[0]) {
      case 'r':
        this.root = c[1] === null ? undefined : c[1];
        this.cursor = this.root !== undefined ? [[this.root, null]] : [];
        this.settled = [];
        break;
      case 'u':
        if (this.cursor.length > 1) this.cursor.pop();
        break;
      case 'e': {
        // Into the member under c[1] in an object, the c[2]th element in an array.
        const top = this.top();
        if (Array.isArray(top)) {
          if (c[2] < top.length) this.cursor.push([top[c[2]], c[2]]);
        } else if (top !== null && typeof top === 'object') {
          const key = c[1] ?? '';
          if (Object.prototype.hasOwnProperty.call(top, key)) this.cursor.push([top[key], key]);
        }
        break;
      }
      case 't': {
        const top = this.top();
        if (Array.isArray(top)) top.length = Math.min(top.length, c[1]);
        else if (top !== null && typeof top === 'object') {
          const keys = this.keys(top);
          while (keys.length > c[1]) delete top[keys.pop()];
        }
        break;
      }
      case 'p':
        this.push(c[1], c[2]);
        break;
      case 'o': {
        const container = c[2] ? {} : [];
        if (c[2]) this.keysOf.set(container, []);
        const slot = this.push(c[1], container);
        if (slot !== undefined) this.cursor.push([container, slot]);
        break;
      }
      default:
        break;
    }
  }

  /** A fresh value: the containers on either path copied, every other member shared. */
  copy() {
    if (this.root === undefined) return undefined;
    const copies = new Map();
    const copyOf = (node) => {
      let copy = copies.get(node);
      if (copy === undefined) {
        copy = Array.isArray(node) ? node.slice() : { ...node };
        if (!Array.isArray(node)) this.keysOf.set(copy, this.keys(node).slice());
        copies.set(node, copy);
      }
      return copy;
    };
    if (this.root === null || typeof this.root !== 'object') return this.root;
    const rootCopy = copyOf(this.root);
    for (const path of [this.settled, this.cursor]) {
      if (!path.length || path[0][0] !== this.root) continue;
      for (let d = 1; d < path.length; d++) {
        const [parent] = path[d - 1];
        const [child, slot] = path[d];
        if (parent[slot] !== child) break;
        copyOf(parent)[slot] = copyOf(child);
      }
    }
    return rootCopy;
  }
}

/** The value so far: { value, complete, provisional, done, isSettled(pointer) }. */
class Snapshot {
  #complete;
  #keysOf;
  #provisional;
  #unsettled;
  /** `s`: the library's snapshot; or its changes, with the view's `value` and key orders. */
  constructor(s, view) {
    /** The partial value, closed as `truncation` says (undefined before the JSON starts). */
    if (view) this.value = view.value;
    else this.value = s.json == null ? undefined : JSON.parse(s.json);
    this.#complete = view ? null : s.complete;
    this.#keysOf = view ? view.keysOf : new WeakMap();
    this.#provisional = view ? null : s.provisional;
    this.#unsettled = view ? s : null;
    /** The root value closed. */
    this.done = s.done;
    /**
     * What has arrived already needs a repair (a comment, another quote, a bare key, a trailing
     * or missing comma, a spot read with a guess), rather than being merely incomplete.
     */
    this.malformed = s.malformed;
    /** The pointer of the innermost value still being written, or null. */
    this.open = s.open ?? null;
  }

  /**
   * Pointers a later byte may still change (open, guessed, completed very recently, or a root
   * that closed, until the end); made when first read.
   */
  get provisional() {
    if (this.#provisional == null) {
      this.#provisional = provisionalOf(this.value, this.#unsettled, this.#keysOf);
      this.#unsettled = null;
    }
    return this.#provisional;
  }

  /** JSON Pointers of the complete values (the largest ones); made when first read. */
  get complete() {
    if (this.#complete == null) this.#complete = completeOf(this.value, this.open, this.#keysOf);
    return this.#complete;
  }

  /** The value at `pointer` is complete (not the innermost open value nor around it). */
  isComplete(pointer) {
    if (this.#complete != null) return this.#complete.some((c) => covers(c, pointer));
    return this.value !== undefined && (this.open == null || !covers(pointer, this.open));
  }

  /** The value at `pointer` is complete and nothing in it is provisional. */
  isSettled(pointer) {
    return this.isComplete(pointer) && !this.provisional.some((p) => covers(pointer, p));
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
  /** The value kept up to date in place (null: the library builds it whole). */
  #view;

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

  /**
   * The value so far, and which paths are complete or still provisional. Each snapshot is a
   * fresh value that a later chunk never changes; members complete when it was taken are
   * shared with later snapshots (made once), so a snapshot after every chunk costs what
   * arrived. Treat its value as read-only (or structuredClone it).
   */
  snapshot() {
    return this.#read('snapshot', (view) => view.copy());
  }

  /**
   * The value so far as the package keeps it, not copied: the same objects and arrays every
   * call, changed in place by later chunks (read it after each chunk; do not keep it, or
   * structuredClone it). Costs what arrived, however many members the containers still open
   * hold; `snapshot()` copies those containers so that a snapshot kept never changes. With a
   * schema that shapes the value, or `dropElement`, it is built whole, as `snapshot()`'s.
   */
  live() {
    return this.#read('live', (view) => view.root);
  }

  /** The view brought up to date by the library's changes, and `value(view)` shown; or, when
   * the value is not kept in place, the library's snapshot. */
  #read(method, value) {
    this.#live(method);
    if (this.#view === undefined) this.#view = this.#native.inPlace() ? new View() : null;
    if (this.#view === null) return new Snapshot(this.#native.snapshot());
    const c = this.#native.changes();
    this.#view.apply(JSON.parse(c.json), c.settled);
    return new Snapshot(c, { value: value(this.#view), keysOf: this.#view.keysOf });
  }

  /** (Internal) whether snapshots are kept up to date in place. */
  [IN_PLACE]() {
    if (this.#view === undefined) this.#view = this.#native.inPlace() ? new View() : null;
    return this.#view !== null;
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

/**
 * Two snapshots' values are equal: a member two snapshots share is passed over at once, so two
 * consecutive snapshots compare in what changed (`depth` bounds the walk as parse bounds
 * nesting).
 */
function sameValue(a, b, depth = 0) {
  if (a === b) return true;
  if (depth > 1024 || a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], depth + 1)) return false;
    return true;
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key) || !sameValue(a[key], b[key], depth + 1)) return false;
  }
  return true;
}

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
    // Snapshots kept up to date in place cost what arrived, and so does comparing two (they
    // share their complete members): looked at after every chunk. A value built whole at each
    // snapshot (a schema shapes it) is looked at after every chunk of the first kilobyte, then
    // once per sixteenth of what arrived (a bounded multiple of the reply).
    this.fed += text.length;
    const everyChunk = this.parser[IN_PLACE]();
    if (!everyChunk && this.fed > EVERY_CHUNK_UP_TO && this.fed - this.shownAt < Math.floor(this.fed / 16)) return false;
    this.shownAt = this.fed;
    const { value } = this.parser.snapshot();
    if (value === undefined) return false;
    if (everyChunk) {
      if (this.last !== undefined && sameValue(value, this.last)) return false;
    } else {
      const json = JSON.stringify(value);
      if (json === this.lastJson) return false;
      this.lastJson = json;
    }
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
