'use strict';
// llmjson for Node.js: turns what a language model wrote into JSON a program can trust, or
// throws a typed error that says why it cannot. The engine is the Rust library (llmjson.node).

const core = require('./core');
const errors = require('./errors');
const retry = require('./retry');

module.exports = {
  parse: core.parse,
  parseAll: core.parseAll,
  repair: core.repair,
  extract: core.extract,
  Schema: core.Schema,
  DEFAULTS: core.DEFAULTS,
  parseWithRetries: retry.parseWithRetries,
  RetriesExhausted: retry.RetriesExhausted,
  LLMJSONError: errors.LLMJSONError,
  NoJSONError: errors.NoJSONError,
  EmptyResponseError: errors.EmptyResponseError,
  InputTooLargeError: errors.InputTooLargeError,
  JSONParseError: errors.JSONParseError,
  JSONRepairFailed: errors.JSONRepairFailed,
  InvalidSchemaError: errors.InvalidSchemaError,
  JSONSchemaError: errors.JSONSchemaError,
  repairKinds: core.native.repairKinds,
  version: core.native.version(),
};
