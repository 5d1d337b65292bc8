'use strict';
// `verify`: a text answer's numbers against evidence texts, as `llmjson verify` checks them (a
// JSON answer is checked by `parse(reply, { evidence })`). Fails closed by default: an answer
// whose numbers the evidence does not hold comes back as the blocking message.

const { native } = require('./core');

const OPTIONS = new Set(['failClosed', 'locale', 'language', 'smallCounts', 'checkYears', 'percentDistinct']);

/**
 * Checks every non-trivial number of `answer` against `evidence` (a string or an array of
 * strings). Returns { output, verified, blocked, reason, verification, diagnostics }: `output`
 * is the answer, or the blocking message when it was blocked; `diagnostics` the record every
 * door writes.
 */
function verify(answer, evidence, options) {
  if (typeof answer !== 'string') throw new TypeError('answer: expected a string');
  const texts = typeof evidence === 'string' ? [evidence] : evidence;
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) {
    throw new TypeError('evidence: expected a string or an array of strings');
  }
  const o = options ?? {};
  if (typeof o !== 'object') throw new TypeError('options: expected an object');
  for (const name of Object.keys(o)) {
    if (!OPTIONS.has(name)) throw new TypeError(`verify: unknown option ${name} (known: ${[...OPTIONS].join(', ')})`);
  }
  for (const name of ['failClosed', 'checkYears', 'percentDistinct']) {
    if (o[name] !== undefined && typeof o[name] !== 'boolean') throw new TypeError(`${name}: expected true or false`);
  }
  if (o.smallCounts !== undefined && !(Number.isInteger(o.smallCounts) && o.smallCounts >= 0)) {
    throw new TypeError('smallCounts: expected a whole number, 0 or more');
  }
  let out;
  try {
    out = native.verify(answer, texts, o);
  } catch (e) {
    throw new TypeError(e.message);
  }
  const verification = JSON.parse(out.verification);
  return {
    output: out.output,
    verified: verification.verified,
    blocked: out.failClosedReason != null,
    reason: out.failClosedReason ?? null,
    verification,
    diagnostics: JSON.parse(out.diagnostics),
  };
}

module.exports = { verify };
