// The Node door of tests/doors/test_every_door.py: each reply (base64, in the JSON array of the
// file named first) through `parse` as a Buffer; one JSON line per reply on standard output:
// its outcome and its diagnostics record, on success and on failure alike.
"use strict";
const fs = require("fs");
const llmjson = require(process.argv[3] || "llmjson");

const replies = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const out = [];
for (const b64 of replies) {
  const reply = Buffer.from(b64, "base64");
  try {
    const result = llmjson.parse(reply);
    out.push({ outcome: result.diagnostics.outcome, record: result.diagnostics });
  } catch (e) {
    if (!(e instanceof llmjson.LLMJSONError)) throw e;
    out.push({ outcome: e.kind, record: e.diagnostics });
  }
}
process.stdout.write(out.map((line) => JSON.stringify(line)).join("\n") + "\n");
