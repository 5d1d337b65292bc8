'use strict';
// A drop-in for the jsonrepair package: `jsonrepair(text)` returns repaired JSON text and
// throws `JSONRepairError` (`message`, `position`) when it cannot. Switching is one import line.
// Valid JSON comes back exactly as given; repaired JSON is compact (jsonrepair keeps the
// input's layout: the values are the same).

const { native } = require('./core');

class JSONRepairError extends Error {
  constructor(message, position) {
    super(`${message} at position ${position}`);
    this.name = 'JSONRepairError';
    this.position = position;
  }
}

// jsonrepair has no size limit; llmjson's default is for untrusted replies. Compiled once.
let options;

function jsonrepair(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`expected a string, got ${text === null ? 'null' : typeof text}`);
  }
  options ??= new native.CompiledOptions({ maxSize: Number.MAX_SAFE_INTEGER });
  // A valid document (nested at most 127 deep, the library's default limit) comes back
  // as the same string; anything else is repaired in the same call.
  const out = native.repair(text, options, null, 127);
  if (typeof out === 'string') return out;
  if (out.flags & native.VALID) return text;
  if (out.error) {
    const message = out.error.message.charAt(0).toUpperCase() + out.error.message.slice(1);
    throw new JSONRepairError(message, out.error.position ?? 0);
  }
  throw new Error('llmjson: the native repair gave no text');
}

module.exports = { jsonrepair, JSONRepairError };
