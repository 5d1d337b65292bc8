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
  if (native.isValidDocument(text, 127)) return text;
  options ??= new native.CompiledOptions({ maxSize: Number.MAX_SAFE_INTEGER });
  const out = native.repair(text, options, null);
  if (out.error) {
    const message = out.error.message.charAt(0).toUpperCase() + out.error.message.slice(1);
    throw new JSONRepairError(message, out.error.position ?? 0);
  }
  return out.json;
}

module.exports = { jsonrepair, JSONRepairError };
