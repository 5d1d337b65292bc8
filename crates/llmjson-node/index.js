'use strict';
// llmjson for Node.js: turns what a language model wrote into JSON a program can trust, or
// throws a typed error that says why it cannot. The engine is the Rust library (llmjson.node).
// Each export is its own `exports.name =` line: that is what lets an ES module import them by
// name (Node finds a CommonJS module's names by reading such lines).

const core = require('./core');
const errors = require('./errors');
const retry = require('./retry');
const stream = require('./stream');
const verifying = require('./verify');

exports.parse = core.parse;
exports.parseAsync = core.parseAsync;
exports.parseAll = core.parseAll;
exports.repair = core.repair;
exports.extract = core.extract;
exports.Schema = core.Schema;
exports.createStreamParser = stream.createStreamParser;
exports.parseStream = stream.parseStream;
exports.DONE_ONLY = stream.DONE_ONLY;
exports.DEFAULTS = core.DEFAULTS;
exports.parseWithRetries = retry.parseWithRetries;
exports.verify = verifying.verify;
exports.RetriesExhausted = retry.RetriesExhausted;
exports.LLMJSONError = errors.LLMJSONError;
exports.NoJSONError = errors.NoJSONError;
exports.EmptyResponseError = errors.EmptyResponseError;
exports.BinaryInputError = errors.BinaryInputError;
exports.InputTooLargeError = errors.InputTooLargeError;
exports.JSONParseError = errors.JSONParseError;
exports.JSONRepairFailed = errors.JSONRepairFailed;
exports.InvalidSchemaError = errors.InvalidSchemaError;
exports.JSONSchemaError = errors.JSONSchemaError;
exports.GroundingError = errors.GroundingError;
exports.repairKinds = core.native.repairKinds;
exports.version = core.native.version();
