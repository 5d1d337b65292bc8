// How many of jsonrepair's own cases the drop-in answers with jsonrepair's exact text, and with
// the same value (parsed).
const fs = require('fs');
const ours = require(require('path').join(__dirname, '..', 'crates', 'llmjson-node', 'jsonrepair.js'));
const lines = fs.readFileSync(require('path').join(process.env.LLMJSON_CORPORA || require('path').join(__dirname, '..', '..', 'shared', 'corpora'), 'jsonrepair.jsonl'), 'utf8').split('\n').filter(Boolean);
let n = 0, exact = 0, same = 0, errors = 0;
for (const line of lines) {
  const c = JSON.parse(line);
  if (c.must_fail || typeof c.expected !== 'string' || typeof c.input !== 'string') continue;
  n += 1;
  let got;
  try { got = ours.jsonrepair(c.input); } catch { errors += 1; continue; }
  if (got === c.expected) exact += 1;
  try { if (JSON.stringify(JSON.parse(got)) === JSON.stringify(JSON.parse(c.expected))) same += 1; } catch {}
}
console.log(JSON.stringify({ cases: n, exact_text: exact, same_value: same, errors }));
