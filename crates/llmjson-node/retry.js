'use strict';
// Retry with feedback, as the Rust and Python retry loops do it: `generate` is called with
// null, then with feedback built from the previous reply's own errors (numbered, so never the
// same text twice); a reply cut off by the token limit gets advice to raise the limit.

const { parse, native, checkedOptions, compiledSchema } = require('./core');
const { LLMJSONError } = require('./errors');

class RetriesExhausted extends LLMJSONError {
  constructor(attempts) {
    const last = attempts.length ? attempts[attempts.length - 1] : null;
    super(`no usable JSON after ${attempts.length} attempts; last: ${last && last.error ? last.error.message : 'none'}`, {
      kind: 'retries_exhausted',
      feedback: last ? last.feedback : null,
      advice: last && last.error ? last.error.advice : null,
      diagnostics: last && last.error ? last.error.diagnostics : null,
    });
    /** Every attempt: { reply, error, feedback }. */
    this.attempts = attempts;
  }

  get lastReply() {
    return this.attempts.length ? this.attempts[this.attempts.length - 1].reply : null;
  }

  get errors() {
    return this.attempts.filter((a) => a.error).map((a) => a.error);
  }
}

/** A reply is its text, or { text, hitTokenLimit }. */
function replyText(reply) {
  if (typeof reply === 'string') return [reply, false];
  if (reply && typeof reply === 'object' && typeof reply.text === 'string') {
    return [reply.text, Boolean(reply.hitTokenLimit)];
  }
  throw new TypeError('generate must return the reply text, or { text, hitTokenLimit }');
}

/**
 * Calls `await generate(feedback, attempt)` until its reply parses (and fits `options.schema`),
 * at most 1 + maxRetries times (`options.maxRetries`, default 2). `feedback` is null the first
 * time. Resolves to parse()'s result with `attempts`; rejects with RetriesExhausted.
 */
async function parseWithRetries(generate, options = {}) {
  if (typeof generate !== 'function') throw new TypeError('generate must be a function');
  const { maxRetries = 2, ...parseOptions } = options ?? {};
  // A bad option or an invalid schema is the caller's bug: thrown now, before any model call.
  if (typeof maxRetries !== 'number' || !(maxRetries >= 0)) {
    throw new TypeError(`maxRetries: expected a number ≥ 0, got ${JSON.stringify(maxRetries)}`);
  }
  compiledSchema(checkedOptions(parseOptions).schema);
  const budget = 1 + Math.max(0, Math.floor(maxRetries));
  const attempts = [];
  let previousFailure = null;
  for (let number = 1; number <= budget; number++) {
    const feedback = attempts.length ? attempts[attempts.length - 1].feedback : null;
    const [text, hitLimit] = replyText(await generate(feedback, number));
    try {
      const result = parse(text, parseOptions);
      attempts.push({ reply: text, error: null, feedback: null });
      result.attempts = attempts.length;
      return result;
    } catch (error) {
      if (!(error instanceof LLMJSONError)) throw error;
      let failure = error.failure;
      let body = error.feedback || `Your reply could not be used: ${error.message}.`;
      if (hitLimit) {
        failure = 'truncated';
        const [truncated, advice] = native.truncationFeedback();
        body = truncated;
        error.advice = advice ?? null;
      }
      const message = native.feedbackMessage(number, budget, body, previousFailure === failure);
      previousFailure = failure;
      attempts.push({ reply: text, error, feedback: message });
    }
  }
  throw new RetriesExhausted(attempts);
}

module.exports = { parseWithRetries, RetriesExhausted };
