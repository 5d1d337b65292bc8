'use strict';
// The errors llmjson throws: one base class with the library's error kind and, where the
// error has a place, its line, column (characters), position (a JavaScript string index) and
// an excerpt with a caret.

class LLMJSONError extends Error {
  constructor(message, fields = {}) {
    super(message);
    this.name = new.target.name;
    this.kind = fields.kind ?? 'error';
    this.line = fields.line ?? null;
    this.column = fields.column ?? null;
    this.position = fields.position ?? null;
    this.excerpt = fields.excerpt ?? null;
    this.truncated = fields.truncated ?? false;
    // What a retry tells the model about this reply, and advice for the caller.
    this.failure = fields.failure ?? this.kind;
    this.feedback = fields.feedback ?? null;
    this.advice = fields.advice ?? null;
    this.diagnostics = fields.diagnostics ?? null;
  }
}

/** The response holds no JSON. */
class NoJSONError extends LLMJSONError {}
/** The response is empty or only whitespace (a kind of NoJSONError). */
class EmptyResponseError extends NoJSONError {}
/**
 * The input is not text: a NUL byte, or a third or more of its bytes not UTF-8 (a file of
 * another kind, read by mistake). A kind of NoJSONError.
 */
class BinaryInputError extends NoJSONError {}
/** The input is over `maxSize`. */
class InputTooLargeError extends LLMJSONError {}
/** A defect the level does not repair, nesting too deep, a refused duplicate key, or bytes that are not UTF-8 at level `none`. */
class JSONParseError extends LLMJSONError {}
/** The safety guard refused a repair that would discard too much of the text. */
class JSONRepairFailed extends LLMJSONError {}
/** The schema itself is not valid. */
class InvalidSchemaError extends LLMJSONError {}

/** The value does not fit the schema: `errors` says where and why, `value` is what was read. */
class JSONSchemaError extends LLMJSONError {
  constructor(message, fields = {}) {
    super(message, { kind: 'schema', ...fields });
    this.errors = fields.errors ?? [];
    this.value = fields.value;
  }
}

/**
 * The value's numbers are not in the evidence and the call fails closed (the default with
 * evidence): `message` is the blocking message, `verification` says which numbers and where.
 */
class GroundingError extends LLMJSONError {
  constructor(message, fields = {}) {
    super(message, { kind: 'grounding', ...fields });
    this.reason = fields.reason ?? 'numeric_grounding_failed';
    this.verification = fields.verification ?? null;
  }
}

const byKind = {
  empty: EmptyResponseError,
  no_json: NoJSONError,
  binary: BinaryInputError,
  too_large: InputTooLargeError,
  syntax: JSONParseError,
  too_deep: JSONParseError,
  duplicate_key: JSONParseError,
  invalid_utf8: JSONParseError,
  repair_rejected: JSONRepairFailed,
  invalid_schema: InvalidSchemaError,
};

/** The typed error for a native error record. */
function fromNative(native, diagnostics) {
  const fields = {
    kind: native.kind,
    line: native.line ?? null,
    column: native.column ?? null,
    position: native.position ?? null,
    excerpt: native.excerpt ?? null,
    truncated: native.truncated,
    failure: native.failure,
    feedback: native.feedback,
    advice: native.advice ?? null,
    diagnostics: diagnostics ?? null,
  };
  if (native.kind === 'grounding') {
    return new GroundingError(native.message, {
      ...fields,
      reason: native.reason ?? undefined,
      verification: native.verification ? JSON.parse(native.verification) : null,
    });
  }
  if (native.kind === 'schema') {
    return new JSONSchemaError(native.message, {
      ...fields,
      errors: native.schemaErrors,
      value: native.value === undefined || native.value === null ? undefined : JSON.parse(native.value),
    });
  }
  const Class = byKind[native.kind] ?? LLMJSONError;
  // The option that raises the limit, as this package spells it.
  const message = native.kind === 'too_large' ? native.message.replace('the max_size option', 'the maxSize option') : native.message;
  return new Class(message, fields);
}

module.exports = {
  LLMJSONError,
  NoJSONError,
  EmptyResponseError,
  BinaryInputError,
  InputTooLargeError,
  JSONParseError,
  JSONRepairFailed,
  InvalidSchemaError,
  JSONSchemaError,
  GroundingError,
  fromNative,
};
