'use strict';
// parse, parseAll, repair, extract and schemas over the native module. Values cross from Rust
// as compact JSON and become JavaScript values with JSON.parse (V8's own parser is the fastest
// way to build them); a reply that is already one valid document is checked natively without
// building anything and handed to JSON.parse whole.

const native = require('./native').load();
const { fromNative, InvalidSchemaError, JSONSchemaError } = require('./errors');

const DEFAULTS = Object.freeze({
  level: 'full',
  truncation: 'complete',
  maxRemovedRatio: 0.3,
  duplicateKeys: 'last',
  maxSize: 10 * 1024 * 1024,
  maxDepth: 127,
  coercion: 'fit',
  guardComments: 'data',
  failClosed: true,
  latex: true,
  invalidItems: 'fail',
});

const OPTION_NAMES = new Set([...Object.keys(DEFAULTS), 'schema', 'evidence']);

const CHOICES = {
  level: ['none', 'conservative', 'full'],
  truncation: ['complete', 'drop', 'drop_element'],
  duplicateKeys: ['last', 'first', 'error'],
  coercion: ['fit', 'validate_only'],
  guardComments: ['data', 'all'],
  invalidItems: ['fail', 'drop'],
};

function checkedOptions(options) {
  if (options === undefined || options === null) return DEFAULTS;
  if (typeof options !== 'object') throw new TypeError('options must be an object');
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new TypeError(`unknown option ${JSON.stringify(name)}`);
  }
  const o = { ...DEFAULTS, ...options };
  // Either spelling of a two-word value, as the CLI takes them: `drop-element`, `validate-only`.
  for (const name of ['truncation', 'coercion']) {
    if (typeof o[name] === 'string') o[name] = o[name].replace(/-/g, '_');
  }
  // Checked here, not only natively: a valid reply never reaches the native options.
  for (const [name, allowed] of Object.entries(CHOICES)) {
    if (!allowed.includes(o[name])) {
      throw new TypeError(`${name}: unknown value ${JSON.stringify(o[name])} (expected ${allowed.join(', ')})`);
    }
  }
  for (const name of ['maxRemovedRatio', 'maxSize', 'maxDepth']) {
    if (typeof o[name] !== 'number' || !(o[name] >= 0)) {
      throw new TypeError(`${name}: expected a number ≥ 0, got ${JSON.stringify(o[name])}`);
    }
  }
  if (!Number.isInteger(o.maxDepth) && o.maxDepth !== Infinity) {
    throw new TypeError(`maxDepth: expected a whole number, got ${o.maxDepth}`);
  }
  if (typeof o.latex !== 'boolean') {
    throw new TypeError(`latex: expected true or false, got ${JSON.stringify(o.latex)}`);
  }
  if (typeof o.failClosed !== 'boolean') {
    throw new TypeError(`failClosed: expected true or false, got ${JSON.stringify(o.failClosed)}`);
  }
  if (o.evidence !== undefined && o.evidence !== null) {
    const texts = typeof o.evidence === 'string' ? [o.evidence] : o.evidence;
    if (!Array.isArray(texts) || !texts.every((t) => typeof t === 'string')) {
      throw new TypeError('evidence: expected a string or an array of strings');
    }
    o.evidence = texts;
  }
  // An option that would do nothing is refused, as the CLI refuses the flag: a silent no-op
  // misleads.
  for (const [name, value, needs] of [
    ['failClosed', true, 'evidence'],
    ['coercion', 'fit', 'schema'],
    ['invalidItems', 'fail', 'schema'],
  ]) {
    if (o[name] !== value && (o[needs] === undefined || o[needs] === null)) {
      throw new TypeError(`${name}: does nothing without ${needs} (give ${needs}, or leave ${name} out)`);
    }
  }
  return o;
}

// Options are compiled natively once per distinct set and the handle passed to each call (read
// field by field, an options object cost a small reply's parse again). Most calls pass none.
let defaultNative;
const compiledOptions = new Map();
const COMPILED_OPTIONS_KEPT = 64;

function nativeOptions(o) {
  if (o === DEFAULTS) return (defaultNative ??= new native.CompiledOptions(buildNativeOptions(DEFAULTS)));
  const fields = buildNativeOptions(o);
  const key = JSON.stringify(fields);
  let compiled = compiledOptions.get(key);
  if (compiled === undefined) {
    compiled = new native.CompiledOptions(fields);
    if (compiledOptions.size >= COMPILED_OPTIONS_KEPT) compiledOptions.clear();
    compiledOptions.set(key, compiled);
  }
  return compiled;
}

// The defaults, compiled at load and kept natively: a call under them passes no options
// object, which Node need not unwrap.
native.setDefaultOptions(nativeOptions(DEFAULTS));

/** The options argument of a parse or repair: `undefined` for the defaults. */
function callOptions(o) {
  return o === DEFAULTS ? undefined : nativeOptions(o);
}

function buildNativeOptions(o) {
  return {
    level: o.level,
    truncation: o.truncation,
    maxRemovedRatio: o.maxRemovedRatio,
    duplicateKeys: o.duplicateKeys,
    maxSize: o.maxSize,
    // The native side takes a u32; any depth past the library's ceiling is the ceiling.
    maxDepth: Math.min(o.maxDepth, 0xffffffff),
    coercion: o.coercion,
    guardComments: o.guardComments,
    latex: o.latex,
    invalidItems: o.invalidItems,
    evidence: o.evidence ?? undefined,
    failClosed: o.failClosed,
  };
}

function checkedText(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`expected the reply as a string, got ${text === null ? 'null' : typeof text}`);
  }
  return text;
}

/** The reply as a string, or as bytes (a Buffer or Uint8Array: UTF-8, bad bytes repaired). */
function checkedInput(input) {
  if (typeof input === 'string' || Buffer.isBuffer(input)) return input;
  if (input instanceof Uint8Array) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError(`expected the reply as a string or bytes, got ${input === null ? 'null' : typeof input}`);
}

// ---------------------------------------------------------------------------------------------
// Schemas: a JSON Schema object (or its text), or a Zod schema (converted to JSON Schema with
// zod-to-json-schema, or with Zod 4's own toJSONSchema). Compiled once per schema object.

const compiledObjects = new WeakMap();
const compiledTexts = new Map();
const TEXT_CACHE = 64;

function isZod(schema) {
  return schema !== null && typeof schema === 'object' && typeof schema.safeParse === 'function';
}

function optionalRequire(name) {
  try {
    return require(name);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND') return null;
    throw error;
  }
}

function zodJsonSchema(schema) {
  // Zod 4 converts its own schemas; zod-to-json-schema converts Zod 3's.
  if (schema._zod) {
    const zod = optionalRequire('zod');
    if (zod && typeof zod.toJSONSchema === 'function') {
      return zod.toJSONSchema(schema, { unrepresentable: 'any' });
    }
  }
  const converter = optionalRequire('zod-to-json-schema');
  if (!converter) {
    throw new InvalidSchemaError(
      'a Zod schema needs the zod-to-json-schema package (npm install zod-to-json-schema)',
      { kind: 'invalid_schema' },
    );
  }
  return converter.zodToJsonSchema(schema, { $refStrategy: 'none' });
}

function compile(text) {
  try {
    return new native.Schema(text);
  } catch (error) {
    throw new InvalidSchemaError(`invalid schema: ${error.message}`, { kind: 'invalid_schema' });
  }
}

/** The compiled schema, and the Zod schema to run after, for an option's `schema`. */
function compiledSchema(schema) {
  if (schema === undefined || schema === null) return { compiled: null, zod: null };
  if (typeof schema === 'string') {
    let compiled = compiledTexts.get(schema);
    if (!compiled) {
      if (compiledTexts.size >= TEXT_CACHE) compiledTexts.clear();
      compiled = compile(schema);
      compiledTexts.set(schema, compiled);
    }
    return { compiled, zod: null };
  }
  if (typeof schema !== 'object') {
    throw new InvalidSchemaError('schema must be a JSON Schema object, its JSON text, or a Zod schema', {
      kind: 'invalid_schema',
    });
  }
  let compiled = compiledObjects.get(schema);
  if (!compiled) {
    let text;
    try {
      text = JSON.stringify(isZod(schema) ? zodJsonSchema(schema) : schema);
    } catch (error) {
      if (error instanceof InvalidSchemaError) throw error;
      // A Zod schema its converter refuses, or an object JSON cannot hold (a cycle).
      throw new InvalidSchemaError(`the schema cannot be written as JSON Schema: ${error.message}`, {
        kind: 'invalid_schema',
      });
    }
    compiled = compile(text);
    compiledObjects.set(schema, compiled);
  }
  return { compiled, zod: isZod(schema) ? schema : null };
}

/** A JSON Pointer from a Zod issue's path. */
function pointer(path) {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Runs the Zod schema on the coerced value: its transforms and defaults apply. */
/**
 * A Zod issue's message, as the other doors word a pattern: without the regular expression's
 * source (Zod writes `Invalid string: must match pattern /^[A-Z]{3}$/`), which tells a model
 * nothing it can act on and may show what a schema keeps to itself.
 */
function zodMessage(issue) {
  const pattern =
    (issue.code === 'invalid_string' && issue.validation === 'regex') ||
    (issue.code === 'invalid_format' && issue.format === 'regex');
  if (pattern) return 'does not match the pattern the schema requires';
  // Any other message that quotes a pattern (`/…/`) loses the quote.
  return typeof issue.pattern === 'string' ? issue.message.replace(issue.pattern, 'the pattern') : issue.message;
}

function zodChecked(zod, value, diagnose) {
  const checked = zod.safeParse(value);
  if (checked.success) return checked.data;
  const errors = checked.error.issues.map((issue) => ({
    path: pointer(issue.path),
    keyword: issue.code,
    message: zodMessage(issue),
  }));
  const listed = errors.map((e) => `${e.path || '(root)'}: ${e.message}`).join('; ');
  throw new JSONSchemaError(`the JSON does not fit the schema: ${listed}`, {
    errors,
    value,
    failure: 'schema',
    feedback: native.schemaFeedback(errors.map((e) => `${e.path || '(root)'}: ${e.message}`)),
    diagnostics: diagnose(),
  });
}

// ---------------------------------------------------------------------------------------------

const NO_REPAIRS = Object.freeze([]);

/** A repair as one line, as Rust and Python print it: `1:16 trailing_comma at (root): removed`. */
function repairText() {
  return `${this.line}:${this.column} ${this.kind} at ${this.path || '(root)'}: ${this.detail}`;
}

/**
 * The repair log from its JSON text: plain objects { kind, start, end, line, column, path,
 * detail }, each printing as one line (`String(repair)`; the method is not enumerable, so the
 * objects compare and serialise as their fields).
 */
function repairLog(ticket, again, text) {
  if (ticket === undefined) return NO_REPAIRS;
  // The native side keeps recent logs by ticket; one let go is made again by the same parse.
  // A parse's log gets its lines and columns now, from the text handed back.
  const parsed = typeof text === 'string' ? text : undefined;
  let json = native.repairLog(ticket, parsed);
  if (json == null) {
    const fresh = again();
    json = (fresh === undefined ? null : native.repairLog(fresh, parsed)) ?? '[]';
  }
  const repairs = JSON.parse(json);
  for (const r of repairs) Object.defineProperty(r, 'toString', { value: repairText });
  return repairs;
}

/** The items a salvage left out, from their JSON text (`undefined`: none). */
function droppedItems(json) {
  return json === undefined ? [] : JSON.parse(json);
}

function isJsonSpace(c) {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/**
 * What `parse` returns. The repair log and the diagnostics record come from Rust as JSON text
 * and are read when first asked for: most callers only want the value.
 */
class ParseResult {
  #repairs;
  #repairLog;
  #logLater;
  #dropped;
  #droppedJson;
  #diagnostics;
  #diagnose;
  #again;
  #text;

  constructor(value, out, diagnose, again, text) {
    this.value = value;
    this.source = out.source;
    this.span = [out.start, out.end];
    this.repaired = (out.flags & native.REPAIRED) !== 0;
    this.truncated = (out.flags & native.TRUNCATED) !== 0;
    // With evidence: the check of the value's numbers (an ungrounded value only gets here
    // with `failClosed: false`).
    this.verification = out.verification ? JSON.parse(out.verification) : null;
    this.#repairLog = out.repairs;
    this.#logLater = (out.flags & native.LOG_LATER) !== 0;
    this.#droppedJson = out.dropped;
    this.#diagnose = diagnose;
    this.#again = again;
    this.#text = text;
  }

  /**
   * With `invalidItems: 'drop'`: the array items left out because they failed their item
   * schema, { path, start, end, line, column, errors: [{ path, keyword, message }] }.
   */
  get dropped() {
    if (this.#dropped === undefined) this.#dropped = droppedItems(this.#droppedJson);
    return this.#dropped;
  }

  /** Every repair: { kind, start, end, line, column, path, detail }. */
  get repairs() {
    if (this.#repairs === undefined) {
      repairLogsRead = true;
      const ticket = this.#logLater ? this.#again() : this.#repairLog;
      this.#repairs = repairLog(ticket, this.#again, this.#text);
    }
    return this.#repairs;
  }

  /** The diagnostics record (the same keys on success and on failure). */
  get diagnostics() {
    if (this.#diagnostics === undefined) this.#diagnostics = this.#diagnose();
    return this.#diagnostics;
  }

  toJSON() {
    const { value, source, span, repaired, truncated, verification } = this;
    return {
      value,
      repairs: this.repairs,
      dropped: this.dropped,
      diagnostics: this.diagnostics,
      source,
      span,
      repaired,
      truncated,
      verification,
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    return this.toJSON();
  }
}

// Whether any caller has read a result's repairs. Until one does, a parse keeps no repair log
// (no JSON paths made, nothing kept natively: 5% of a small broken reply's parse, measured),
// and a result whose log is then read parses again, once; after that, logs are kept.
let repairLogsRead = false;

/** The `call` bits of a native parse of the first value. */
function callBits(call) {
  return (
    (call.validAsIs ? native.CALL_VALID_AS_IS : 0) |
    (call.refusedWhole ? native.CALL_REFUSED_WHOLE : 0) |
    (repairLogsRead ? 0 : native.CALL_LOG_LATER)
  );
}

/** What parse and parseAsync share: the options checked and made native once. */
function prepared(input, options) {
  const text = checkedInput(input);
  const o = checkedOptions(options);
  const { compiled, zod } = compiledSchema(o.schema);
  // A valid document is handed to JSON.parse whole, unless its numbers must be verified.
  const validAsIs = typeof text === 'string' && !o.evidence;
  return { text, o, opts: callOptions(o), compiled, zod, validAsIs, refusedWhole: false };
}

/** The diagnostics record of a success, made when first read by the full path run again (most
 * callers never read it; its latency is that run's). */
function diagnoser(text, opts, compiled) {
  return () => JSON.parse(native.parse(text, opts, compiled, native.CALL_DIAGNOSE).diagnostics);
}

/** Where the document lies once the JSON whitespace around it is left out. */
function trimmedSpan(text) {
  let start = 0;
  let end = text.length;
  while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
  while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
  return [start, end];
}

const SPACE = 32;

/**
 * A success the addon wrote as one string (`success_line` in src/lib.rs): `flags start end
 * ticket source`, a line feed, then the value's compact JSON; `ticket` is the repair log's
 * ticket plus one, 0 when there is none or it was not kept (`LOG_LATER` in the flags says
 * which). Read into the fields of the native outcome object; `json` is a slice, which V8's
 * JSON.parse reads in place.
 */
function fromLine(line) {
  let at = 0;
  const count = () => {
    let n = 0;
    for (let c = line.charCodeAt(at++); c !== SPACE; c = line.charCodeAt(at++)) n = n * 10 + (c - 48);
    return n;
  };
  const flags = count();
  const start = count();
  const end = count();
  const ticket = count();
  const feed = line.indexOf('\n', at);
  return {
    flags,
    start,
    end,
    repairs: ticket === 0 ? undefined : ticket - 1,
    source: line.slice(at, feed),
    json: line.slice(feed + 1),
  };
}

/** The native outcome of a parse: the object, or the success written as one string. */
function outcome(out) {
  return typeof out === 'string' ? fromLine(out) : out;
}

/** The result (or the typed error) of a native parse of the first value. */
function finished({ text, opts, compiled, zod }, answer, diagnosed) {
  const out = outcome(answer);
  const diagnose = diagnosed ?? diagnoser(text, opts, compiled);
  if (out.flags & native.VALID) {
    // One valid document: nothing to locate or repair, read by V8's parser (the options are
    // the ones under which it reads as JSON.parse reads it).
    const [start, end] = trimmedSpan(text);
    return new ParseResult(JSON.parse(text), { source: 'text', start, end, flags: 0 }, diagnose);
  }
  if (out.error) throw fromNative(out.error, JSON.parse(out.diagnostics));
  let value = JSON.parse(out.json);
  if (zod) value = zodChecked(zod, value, diagnose);
  // The log again, kept this time: when it was let go, or not kept (no log read yet).
  const again = () => outcome(native.parse(text, opts, compiled, 0)).repairs;
  return new ParseResult(value, out, diagnose, again, text);
}

// Escapes after which V8's parser and llmjson read a valid document differently: one that may
// begin a LaTeX command (`\\frac` then a non-letter: llmjson keeps it as LaTeX; the names are
// the library's own list) and a `\\u` surrogate (llmjson takes them in pairs only, JSON.parse
// alone too). A superset of what the native check refuses: such a document goes native.
const ESCAPE_IN_DOUBT = new RegExp(
  String.raw`\\(?:(?:${native.latexCollisions().join('|')})(?![A-Za-z])|u[dD][89a-fA-F])`,
);
// A parse expected to fail often (a broken reply that looks like a document) captures no stack,
// unless something has frozen the setting.
const STACK_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/** How many `{` and `[` the text holds (a bound on its nesting). */
function openers(text) {
  let n = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) n++;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) n++;
  return n;
}

// What may follow a document's opening `[` (a value or the closer) and come before its closing
// bracket (a value's end or the opener), as character-code tables.
const MAY_OPEN = new Uint8Array(128);
for (const c of '"{[]0123456789tfn-') MAY_OPEN[c.charCodeAt(0)] = 1;
const MAY_CLOSE = new Uint8Array(128);
for (const c of '"}]{[0123456789el') MAY_CLOSE[c.charCodeAt(0)] = 1;

/**
 * Whether the document between `start` and `end` (a `{` or `[` and its closer) surely is not
 * JSON, from its first and last tokens' first characters alone: an object whose first key is
 * not quoted (`{name: …`, `{'a': …`, `{// …`), an array whose first item cannot begin a value,
 * a last item that cannot end one (a trailing comma, a comment). False says nothing.
 */
function surelyBroken(text, start, end) {
  let at = start + 1;
  while (at < end && isJsonSpace(text.charCodeAt(at))) at++;
  const first = text.charCodeAt(at);
  const opens = text.charCodeAt(start) === 123 ? first === 34 || first === 125 : first < 128 && MAY_OPEN[first] === 1;
  if (!opens) return true;
  let back = end - 2;
  while (back > start && isJsonSpace(text.charCodeAt(back))) back--;
  const last = text.charCodeAt(back);
  return !(last < 128 && MAY_CLOSE[last] === 1);
}

/**
 * A reply that is one valid JSON object or array, read by V8's parser alone — no native call —
 * where that gives what the native check lets JSON.parse give (the check `finished` trusts:
 * one strict document within the size and depth limits, no LaTeX-like escape, no lone
 * surrogate escape); `undefined` when in doubt, and the native path decides. Worth it: on a
 * small valid reply the native check (the text copied to UTF-8 and read once) costs most of
 * what JSON.parse does, and a broken reply rarely begins and ends like a document and parses.
 */
function readAsValid(call) {
  const { text, o, opts, compiled } = call;
  if (compiled || o.duplicateKeys !== 'last') return undefined;
  const [start, end] = trimmedSpan(text);
  const first = text.charCodeAt(start);
  const last = text.charCodeAt(end - 1);
  if (!((first === 123 && last === 125) || (first === 91 && last === 93))) return undefined;
  if (text.length * 3 > o.maxSize && Buffer.byteLength(text) > o.maxSize) return undefined;
  if (text.length >= 2 * o.maxDepth && openers(text) >= o.maxDepth) return undefined;
  if (text.includes('\\') && ESCAPE_IN_DOUBT.test(text)) return undefined;
  if (surelyBroken(text, start, end)) {
    // JSON.parse would throw, and its error costs about 2 µs (the message, the text's line
    // ends): the native path is told so.
    call.validAsIs = false;
    call.refusedWhole = true;
    return undefined;
  }
  let value;
  const limit = Error.stackTraceLimit;
  try {
    if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = 0;
    value = JSON.parse(text);
  } catch {
    // Not JSON: the native check that a reply is one valid document, and the library's strict
    // fast path, would only find that out again (each reads as much of the reply as JSON.parse
    // did).
    call.validAsIs = false;
    call.refusedWhole = true;
    return undefined;
  } finally {
    if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = limit;
  }
  return new ParseResult(value, { source: 'text', start, end, flags: 0 }, diagnoser(text, opts, compiled));
}

/**
 * Parses the first JSON value in a model's reply (a string, or bytes), repairing what the level
 * allows. Returns { value, repairs, diagnostics, source, span, repaired, truncated }.
 */
function parse(input, options) {
  const call = prepared(input, options);
  if (call.validAsIs) {
    const result = readAsValid(call);
    if (result !== undefined) return result;
  }
  return finished(
    call,
    native.parse(call.text, call.opts, call.compiled, callBits(call)),
  );
}

/** `parse` on the libuv thread pool: the event loop goes on while Rust parses. */
async function parseAsync(input, options) {
  const call = prepared(input, options);
  return finished(call, await native.parseAsync(call.text, call.opts, call.compiled, callBits(call)));
}

/** Every JSON value in the reply, in order: { values, repairs, dropped, span }. */
function parseAll(text, options) {
  checkedText(text);
  const o = checkedOptions(options);
  const { compiled, zod } = compiledSchema(o.schema);
  const opts = callOptions(o);
  const out = native.parse(text, opts, compiled, native.CALL_ALL);
  if (out.error) throw fromNative(out.error, null);
  let values = JSON.parse(out.json);
  if (zod) values = values.map((v) => zodChecked(zod, v, () => null));
  const result = { values, repairs: NO_REPAIRS, dropped: droppedItems(out.dropped), span: [out.start, out.end] };
  // The repair log is made when first read (most callers want the values).
  let repairs;
  Object.defineProperty(result, 'repairs', {
    get: () => {
      repairLogsRead = true;
      return (repairs ??= repairLog(out.repairs, () => native.parse(text, opts, compiled, native.CALL_ALL).repairs, text));
    },
    enumerable: true,
  });
  return result;
}

/** The first JSON value as JSON text: valid JSON exactly as written, repaired JSON compact. */
function repair(text, options) {
  checkedText(text);
  const o = checkedOptions(options);
  const { compiled } = compiledSchema(o.schema);
  const out = native.repair(text, callOptions(o), compiled, null);
  if (typeof out === 'string') return out;
  throw fromNative(out.error, null);
}

/** The first JSON value's text, untouched (nothing repaired): { text, span, source }. */
function extract(text, options) {
  checkedText(text);
  const o = checkedOptions(options);
  const out = native.extract(text, nativeOptions(o));
  if (out.error) throw fromNative(out.error, null);
  return { text: out.json, span: [out.start, out.end], source: out.source };
}

/** A compiled JSON Schema, reusable across calls. */
class Schema {
  constructor(document) {
    // Compiled first: text that is not JSON is an InvalidSchemaError, not a SyntaxError.
    this.native = compile(typeof document === 'string' ? document : JSON.stringify(document));
    this.document = typeof document === 'string' ? JSON.parse(document) : document;
    compiledObjects.set(this, this.native);
  }

  /** The violations of a value: [{ path, keyword, message }], empty when it fits. */
  validate(value) {
    return this.native.validate(JSON.stringify(value));
  }

  isValid(value) {
    return this.validate(value).length === 0;
  }
}

module.exports = {
  parse,
  parseAsync,
  parseAll,
  repair,
  extract,
  Schema,
  ParseResult,
  DEFAULTS,
  native,
  // For stream.js, which builds on the same checks and results.
  checkedOptions,
  checkedInput,
  compiledSchema,
  nativeOptions,
  finished,
};
