// Runs npm jsonrepair over cases read as JSON Lines on stdin; writes one result per line.
const path = require("path");
const readline = require("readline");
const { jsonrepair } = require(path.resolve(process.argv[2], "node_modules", "jsonrepair"));

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  const c = JSON.parse(line);
  let result;
  try {
    result = { id: c.id, ok: true, output: jsonrepair(c.input) };
  } catch (e) {
    result = { id: c.id, ok: false, error: String(e.message || e) };
  }
  process.stdout.write(JSON.stringify(result) + "\n");
});
