'use strict';
// A drop-in for the jsonrepair package: `jsonrepair(text)` returns repaired JSON text and
// throws `JSONRepairError` (`message`, `position`) when it cannot. Switching is one import line.
// Valid JSON comes back exactly as given; repaired JSON is compact (jsonrepair keeps the
// input's layout: the values are the same). Newline-delimited values (one object or array per
// line) become one array of them, as jsonrepair makes them (llmjson's own API keeps the first).

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
  return newlineDelimited(text) ? repairLines(text) : repairOne(text);
}

/** Newline-delimited values as jsonrepair writes them: one array, a comma after each value
 * but the last, every line's whitespace kept. */
function repairLines(text) {
  const parts = text.split('\n');
  let last = parts.length - 1;
  while (parts[last].trim() === '') last -= 1;
  const lines = parts.map((part, i) => {
    const value = part.trim();
    if (value === '') return part;
    const at = part.indexOf(value);
    return part.slice(0, at) + repairOne(value) + (i < last ? ',' : '') + part.slice(at + value.length);
  });
  return `[\n${lines.join('\n')}\n]`;
}

/**
 * Whether `text` is newline-delimited JSON: two or more lines that are not blank, each one
 * whole object or array on its own (it starts with `{` or `[` and ends with `}` or `]`, and
 * repairs alone), so that the text is not one value written over several lines.
 */
function newlineDelimited(text) {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const whole = (line) => '{['.includes(line[0]) && '}]'.includes(line[line.length - 1]);
  if (lines.length < 2 || !lines.every(whole)) return false;
  try {
    lines.forEach(repairOne);
  } catch {
    return false;
  }
  return true;
}

function repairOne(text) {
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
