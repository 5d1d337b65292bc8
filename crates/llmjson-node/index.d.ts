// Types of the llmjson package (hand-written; `tsc --noEmit` checks them against the uses in
// test/types.ts). napi's generated types of the private native module go to native.d.ts.

export type RepairLevel = 'none' | 'conservative' | 'full';
export type Truncation = 'complete' | 'drop' | 'drop_element' | 'drop-element';
export type DuplicateKeys = 'last' | 'first' | 'error';
export type Coercion = 'fit' | 'validate_only' | 'validate-only';

/** A JSON Schema document. */
export type JSONSchema = { [keyword: string]: unknown } | boolean;

/** Anything with Zod's shape: its output type is what `parse` returns. */
export interface ZodLike<Output = unknown> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Output }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; code: string; message: string }> } };
  readonly _output: Output;
}

/** A schema option: a JSON Schema (object or text), a compiled `Schema`, or a Zod schema. */
export type SchemaOption = JSONSchema | string | Schema | ZodLike;

export interface Options {
  /** How much to repair (default `full`; `none` is the strict kill-switch). */
  level?: RepairLevel;
  /** What to do with a reply cut off mid-value (default `complete`). */
  truncation?: Truncation;
  /** The safety guard: the share of the located text a repair may discard (default 0.3). */
  maxRemovedRatio?: number;
  /** What a repeated key means (default `last`, as JSON.parse). */
  duplicateKeys?: DuplicateKeys;
  /** Inputs over this many bytes of UTF-8 are refused (default 10 MiB). */
  maxSize?: number;
  /** The deepest nesting accepted (default 127). */
  maxDepth?: number;
  /** Coerce the value to the schema (`fit`, the default) or only validate it. */
  coercion?: Coercion;
  /** Validate (and coerce) the value against this schema. */
  schema?: SchemaOption;
  /**
   * Which comments the safety guard counts as discarded data: `data` (the default: members or
   * values the model commented out; a prose note loses nothing) or `all` (every comment).
   */
  guardComments?: GuardComments;
  /**
   * Read a LaTeX command written with one backslash where JSON has an escape (`\frac`, `\beta`;
   * `\theta`, `\nabla`, `\rho` in a string that shows maths) as the command (the default,
   * `true`), or as RFC 8259 does (`false`: a form feed, a backspace, a tab, a line break).
   */
  latex?: boolean;
  /**
   * With a schema: `'drop'` leaves out the array items that fail their item schema and returns
   * the rest (each in `dropped`, and logged as `dropped_invalid_item`); they count toward
   * `maxRemovedRatio`, so a list that is mostly invalid still throws. `'fail'` (the default)
   * throws `JSONSchemaError` on any.
   */
  invalidItems?: 'fail' | 'drop';
  /** Evidence texts the value's numbers are verified against (the verify stage runs last). */
  evidence?: string | string[];
  /**
   * With evidence: an ungrounded value throws `GroundingError` (the default, `true`) or is
   * returned with its `verification` (`false`).
   */
  failClosed?: boolean;
}

export type GuardComments = 'data' | 'all';

/** The check of a value's numbers against the evidence. */
export interface Verification {
  verified: boolean;
  issues: string[];
  numbers_extracted: number;
  matched: number;
  unmatched: number;
  issue_types: string[];
  unmatched_examples: Array<{ number: string; context: string; path: string; span: { start: number; end: number }; subject?: string; evidence_subject?: string; /** Why it is not grounded: `wrong_subject`, `wrong_sign`, `wrong_unit`, `wrong_currency`, `percent_not_points`, `fraction_not_percent`, `label_not_measurement`, `less_precise`, `ambiguous_locale`, `not_in_evidence`, `not_read`, `no_evidence`. */ reason?: string }>;
  [field: string]: unknown;
}

export interface Repair {
  /** The kind of repair (`trailing_comma`, `smart_quotes`, …: see `repairKinds()`). */
  kind: string;
  /** Where the repaired text starts and ends (JavaScript string indices). */
  start: number;
  end: number;
  /** 1-based line and column (characters) of `start`. */
  line: number;
  column: number;
  /** JSON Pointer to the value the repair is about. */
  path: string;
  /** What was done. */
  detail: string;
  /** The repair as one line: `1:16 trailing_comma at (root): removed`. */
  toString(): string;
}

/** The diagnostics record: the same keys on success and on failure (offsets in UTF-8 bytes). */
export interface Diagnostics {
  request_id: string;
  stages: string[];
  outcome: string;
  error: string | null;
  /** The stage that refused the reply (the last of `stages`), when the call failed. */
  failed_stage: string | null;
  json_source: string | null;
  json_span: { start: number; end: number } | null;
  repairs: number;
  repairs_by_kind: Record<string, number>;
  coercions: number;
  schema_errors: string[];
  dropped_items: { path: string; span: { start: number; end: number }; errors: string[] }[];
  verification_passed: boolean | null;
  verification_numbers_extracted: number;
  verification_matched: number;
  verification_unmatched: number;
  verification_issue_types: string[];
  verification_unmatched_examples: Array<{ number: string; context: string; path: string; span: { start: number; end: number }; subject?: string; evidence_subject?: string; /** Why it is not grounded: `wrong_subject`, `wrong_sign`, `wrong_unit`, `wrong_currency`, `percent_not_points`, `fraction_not_percent`, `label_not_measurement`, `less_precise`, `ambiguous_locale`, `not_in_evidence`, `not_read`, `no_evidence`. */ reason?: string }>;
  fail_closed_triggered: boolean;
  fail_closed_reason: string | null;
  fail_closed_stage: string | null;
  latency_ms: number;
}

/** An array item left out because it failed its item schema (`invalidItems: 'drop'`). */
export interface DroppedItem {
  /** JSON Pointer of the item as the reply wrote it (`/records/3`: the fourth record). */
  path: string;
  /** Where its text is in the reply (JavaScript string indices). */
  start: number;
  end: number;
  /** 1-based line and column (in characters) of `start`. */
  line: number;
  column: number;
  /** Why: every violation inside it. */
  errors: { path: string; keyword: string; message: string }[];
}

export interface ParseResult<T> {
  value: T;
  /** Every repair (read from the native result when first asked for). */
  readonly repairs: Repair[];
  /** The array items left out under `invalidItems: 'drop'`, in text order. */
  readonly dropped: DroppedItem[];
  /** The diagnostics record (made when first asked for; its latency is that run's). */
  readonly diagnostics: Diagnostics;
  /** Where the JSON was: `text`, `fence`, `fence:json`, `tool_call`. */
  source: string;
  /** The JSON's place in the reply (JavaScript string indices). */
  span: [number, number];
  /** At least one repair changed the value. */
  repaired: boolean;
  /** The reply was cut off and completed. */
  truncated: boolean;
  /** With evidence: the check of the value's numbers (`null` without). */
  verification: Verification | null;
}

export interface ParseAllResult<T> {
  values: T[];
  repairs: Repair[];
  dropped: DroppedItem[];
  span: [number, number];
}

/**
 * Parses the first JSON value of a model's reply, typed as the Zod schema's output. The reply
 * is a string, or bytes (UTF-8; bytes that are not become U+FFFD, an `invalid_utf8` repair, or
 * an error at level `none`).
 */
export function parse<Z extends ZodLike>(text: string | Uint8Array, options: Options & { schema: Z }): ParseResult<Z['_output']>;
/** Parses the first JSON value of a model's reply (give `T` for a JSON Schema's type). */
export function parse<T = unknown>(text: string | Uint8Array, options?: Options): ParseResult<T>;
/** Options of a stream parser: `parse`'s (evidence aside), and whether to record events. */
export interface StreamOptions extends Omit<Options, 'evidence' | 'failClosed'> {
  /** Record events (default `true`); `false` when only snapshots are wanted. */
  events?: boolean;
}

/** The value so far. */
export interface Snapshot<T = unknown> {
  /** The partial value, closed as `truncation` says; `undefined` before the JSON starts. A fresh
   * value a later chunk never changes; members complete when it was taken are shared with later
   * snapshots (made once), so a snapshot after every chunk costs what arrived. Treat it as
   * read-only (or `structuredClone` it). */
  value: DeepPartial<T> | undefined;
  /** JSON Pointers of the complete values (the largest: everything inside one is complete);
   * made when first read. */
  readonly complete: string[];
  /** The pointer of the innermost value still being written (it and the containers around it
   * are the only values not complete), or `null`. */
  open: string | null;
  /** Pointers a later byte may still change, sorted: open values, values read with a guess, the
   * values completed in the last window the decision procedure has not settled yet (about 512
   * bytes), and a root that closed (until the end: what follows it may still be the answer
   * instead). Made when first read. */
  readonly provisional: string[];
  /** The root value closed (the final parse may still read the reply otherwise). */
  done: boolean;
  /** What has arrived already needs a repair (a comment, another quote, a bare key, a trailing
   * or missing comma, a spot read with a guess), rather than being merely incomplete. */
  malformed: boolean;
  /** The value at `pointer` is complete. */
  isComplete(pointer: string): boolean;
  /** The value at `pointer` is complete and nothing in it is provisional. */
  isSettled(pointer: string): boolean;
}

/** A partial value: any property may be missing yet. */
export type DeepPartial<T> = T extends (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** One thing that happened in the stream; `path` is a JSON Pointer. */
export type StreamEvent =
  | { kind: 'key_started' | 'element_appended' | 'value_completed' | 'revised'; path: string }
  | { kind: 'string_grew'; path: string; text: string }
  | { kind: 'required_missing'; path: string; property: string };

/** A reply parsed while it arrives. */
export interface StreamParser<T = unknown> {
  /** Reads the next chunk (a string, or bytes: a character split between chunks waits). Throws
   * `InputTooLargeError` as soon as the reply goes over `maxSize`; nesting past `maxDepth` stops
   * the live view there and `finish` gives `parse`'s verdict. */
  feed(chunk: string | Uint8Array): void;
  /** The value so far: a fresh value that a later chunk never changes (members complete when
   * it was taken are shared with later snapshots; treat it as read-only). */
  snapshot(): Snapshot<T>;
  /** The value so far as the package keeps it, not copied: the same objects every call,
   * changed in place by later chunks (read it after each chunk; structuredClone it to keep it).
   * Costs what arrived, however many members the containers still open hold. */
  live(): Snapshot<T>;
  /** What was settled since the last call: the decision procedure's reading, about 512 bytes
   * behind what has arrived (a short reply's events come with `lastEvents`), never taken back
   * but by a `revised` event. */
  events(): StreamEvent[];
  /** Ends the stream: `parse`'s result for the whole reply (its diagnostics also hold
   * `stream_chunks` and `stream_first_value_ms`). */
  finish(): ParseResult<T>;
  /** After `finish`: the events not taken before it (the rest of the final value), then its
   * `revised` events. */
  readonly lastEvents: StreamEvent[];
}

/** A stream parser for one reply. */
export function createStreamParser<Z extends ZodLike>(options: StreamOptions & { schema: Z }): StreamParser<Z['_output']>;
export function createStreamParser<T = unknown>(options?: StreamOptions): StreamParser<T>;

/** A chunk `parseStream` reads: text, bytes, or a text delta (`{ textDelta }`, `{ delta }`,
 * `{ text }`, `{ content }`, or an OpenAI-style `{ choices: [{ delta: { content } }] }`). */
export type StreamChunk =
  | string
  | Uint8Array
  | { textDelta: string }
  | { delta: string }
  | { text: string }
  | { content: string }
  | { choices: ReadonlyArray<{ delta: { content?: string | null } }> };

/** The JSON Schema keyword that marks a property to be shown in snapshots only once its value
 * is complete: `{ type: 'string', 'x-llmjson-done-only': true }`. */
export const DONE_ONLY: 'x-llmjson-done-only';

/** A tool-call piece `parseStream` reads: an OpenAI-style chunk whose delta carries
 * `tool_calls`, or an Anthropic stream event (`content_block_start` of a `tool_use` block,
 * `content_block_delta` with an `input_json_delta`; other events are skipped). */
export type ToolCallChunk =
  | { choices: ReadonlyArray<{ delta: { content?: string | null; tool_calls?: ReadonlyArray<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> } }> }
  | { type: string; index?: number; content_block?: { type: string; id?: string; name?: string }; delta?: { type?: string; partial_json?: string; text?: string } };

/** A streamed tool call: its arguments so far (the partial value), at the end parse's value. */
export interface StreamedToolCall {
  index: number;
  id: string | null;
  name: string | null;
  arguments: unknown;
}

/** Tool calls as they stream: one parser per call; yields the list of calls each time one's
 * arguments changed, then the final list. `tools` gives a tool's arguments a schema. */
export function parseStream(
  chunks: AsyncIterable<ToolCallChunk | StreamChunk> | Iterable<ToolCallChunk | StreamChunk>,
  options: Omit<StreamOptions, 'events'> & { tools: Record<string, object> },
): AsyncGenerator<StreamedToolCall[], void, undefined>;
/** Yields the value so far each time it changes while the chunks arrive, then the final value
 * (`parse`'s value for the whole reply). */
export function parseStream<Z extends ZodLike>(
  chunks: AsyncIterable<StreamChunk> | Iterable<StreamChunk>,
  options: Omit<StreamOptions, 'events'> & { schema: Z },
): AsyncGenerator<DeepPartial<Z['_output']>, void, undefined>;
export function parseStream<T = unknown>(
  chunks: AsyncIterable<StreamChunk> | Iterable<StreamChunk>,
  options?: Omit<StreamOptions, 'events'>,
): AsyncGenerator<DeepPartial<T>, void, undefined>;

/** `parse` on the libuv thread pool: the event loop goes on while Rust parses. */
export function parseAsync<Z extends ZodLike>(text: string | Uint8Array, options: Options & { schema: Z }): Promise<ParseResult<Z['_output']>>;
export function parseAsync<T = unknown>(text: string | Uint8Array, options?: Options): Promise<ParseResult<T>>;
/** Every JSON value in the reply, in order. */
export function parseAll<Z extends ZodLike>(text: string, options: Options & { schema: Z }): ParseAllResult<Z['_output']>;
export function parseAll<T = unknown>(text: string, options?: Options): ParseAllResult<T>;
/** The first JSON value as JSON text: valid JSON as written, repaired JSON compact. */
export function repair(text: string, options?: Options): string;
/** The first JSON value's text, untouched. */
export function extract(text: string, options?: Omit<Options, 'schema'>): { text: string; span: [number, number]; source: string };

/** A compiled JSON Schema, reusable across calls. */
export class Schema {
  constructor(document: JSONSchema | string);
  readonly document: JSONSchema;
  validate(value: unknown): Array<{ path: string; keyword: string; message: string }>;
  isValid(value: unknown): boolean;
}

export interface RetryOptions extends Options {
  /** Retries after the first attempt (default 2). */
  maxRetries?: number;
}

export interface Attempt {
  reply: string;
  error: LLMJSONError | null;
  feedback: string | null;
}

/** How `verify` checks an answer (each optional: the CLI's defaults). */
export interface VerifyOptions {
  /** Block an ungrounded answer (default `true`) or only report it. */
  failClosed?: boolean;
  /** How numbers are spelled: `auto` (default), `en`, `pt-BR`, `de`, `es`, `it`, `fr`. */
  locale?: string;
  /** The blocking message's language: `en` (default) or `pt`. */
  language?: string;
  /** Skip bare integer counts up to this value (default 10; 0 checks every number but 0). */
  smallCounts?: number;
  /** Check years (1900-2100) like any number (skipped by default). */
  checkYears?: boolean;
  /** A percentage and its fraction are different quantities (45% is not 0.45). */
  percentDistinct?: boolean;
}

/** What `verify` found. */
export interface Verdict {
  /** The answer, or the blocking message when it was blocked. */
  output: string;
  /** Every non-trivial number is grounded in the evidence. */
  verified: boolean;
  /** The answer was blocked (fail closed, and not verified). */
  blocked: boolean;
  /** `numeric_grounding_failed`, `cross_variant_mix` or `no_evidence`, when blocked. */
  reason: string | null;
  verification: Verification;
  /** The diagnostics record (outcome `verified` or `not_verified`). */
  diagnostics: Diagnostics;
}

/**
 * Checks every non-trivial number of a text answer against the evidence (a string or an array
 * of strings). Fails closed by default: `output` is then the blocking message. (A JSON answer:
 * `parse(reply, { evidence })`.)
 */
export function verify(answer: string, evidence: string | string[], options?: VerifyOptions): Verdict;

/** A reply: its text, or the text and whether the model hit its token limit. */
export type Reply = string | { text: string; hitTokenLimit?: boolean };

/**
 * Calls `generate(feedback, attempt)` until its reply parses (and fits the schema). `feedback`
 * is null the first time, then says what was wrong with the previous reply.
 */
export function parseWithRetries<Z extends ZodLike>(
  generate: (feedback: string | null, attempt: number) => Reply | Promise<Reply>,
  options: RetryOptions & { schema: Z },
): Promise<ParseResult<Z['_output']> & { attempts: number }>;
export function parseWithRetries<T = unknown>(
  generate: (feedback: string | null, attempt: number) => Reply | Promise<Reply>,
  options?: RetryOptions,
): Promise<ParseResult<T> & { attempts: number }>;

export class LLMJSONError extends Error {
  /** The error's kind: `empty`, `no_json`, `too_large`, `syntax`, `schema`, … */
  readonly kind: string;
  /** 1-based line and column (characters), when the error has a place. */
  readonly line: number | null;
  readonly column: number | null;
  /** The place as a JavaScript string index. */
  readonly position: number | null;
  /** The line holding the place, and a caret under it. */
  readonly excerpt: string | null;
  /** The reply was cut off. */
  readonly truncated: boolean;
  /** The failure's name for retries. */
  readonly failure: string;
  /** What a retry would tell the model about this reply. */
  readonly feedback: string | null;
  /** Advice for the caller (raise the token limit, …). */
  advice: string | null;
  readonly diagnostics: Diagnostics | null;
}
export class NoJSONError extends LLMJSONError {}
export class EmptyResponseError extends NoJSONError {}
/** The input is not text (a NUL byte, or a third or more of its bytes not UTF-8). */
export class BinaryInputError extends NoJSONError {}
export class InputTooLargeError extends LLMJSONError {}
export class JSONParseError extends LLMJSONError {}
export class JSONRepairFailed extends LLMJSONError {}
export class InvalidSchemaError extends LLMJSONError {}
export class JSONSchemaError extends LLMJSONError {
  /** Each way the value does not fit. */
  readonly errors: Array<{ path: string; keyword: string; message: string }>;
  /** The value that was read. */
  readonly value: unknown;
}
/** The value's numbers are not in the evidence, and the call failed closed. */
export class GroundingError extends LLMJSONError {
  /** `numeric_grounding_failed`, `cross_variant_mix` (every ungrounded number is another subject's value) or `no_evidence`. */
  readonly reason: string;
  /** Which numbers were not grounded, with context. */
  readonly verification: Verification | null;
}
export class RetriesExhausted extends LLMJSONError {
  readonly attempts: Attempt[];
  readonly lastReply: string | null;
  readonly errors: LLMJSONError[];
}

export const DEFAULTS: Readonly<Required<Omit<Options, 'schema' | 'evidence'>>>;
/** Every repair kind's name. */
export function repairKinds(): string[];
/** The version of the Rust library inside. */
export const version: string;
