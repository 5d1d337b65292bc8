'use strict';
// The native addon. A package built from source has `llmjson.node` beside this file (the
// install script's `napi build`); a package made by scripts/dist.sh carries a prebuilt addon
// per platform, named `llmjson.<platform>.node`, and loads the one for this machine. A source
// build wins over a prebuilt one: it is what this machine made for itself.

const fs = require('node:fs');
const path = require('node:path');

/** The platform name of a prebuilt addon that can run here, or null where none could. */
function platform() {
  const { platform: os, arch } = process;
  if (os !== 'linux') return `${os}-${arch}`;
  // glibc and musl addons do not load in each other's processes: Node's report says which
  // C library it runs on (glibcVersionRuntime is absent under musl).
  const header = process.report && typeof process.report.getReport === 'function'
    ? process.report.getReport().header
    : {};
  return `linux-${arch}-${header.glibcVersionRuntime ? 'gnu' : 'musl'}`;
}

/** The addon files that may serve this machine, most preferred first. */
function candidates(dir = __dirname) {
  return [path.join(dir, 'llmjson.node'), path.join(dir, `llmjson.${platform()}.node`)];
}

/** Loads the first candidate that exists; the error says what was looked for. */
function load(dir = __dirname) {
  const tried = [];
  for (const file of candidates(dir)) {
    if (!fs.existsSync(file)) {
      tried.push(`${path.basename(file)} (absent)`);
      continue;
    }
    try {
      return require(file);
    } catch (e) {
      tried.push(`${path.basename(file)} (${e.message.split('\n')[0]})`);
    }
  }
  throw new Error(
    `llmjson: no native addon for ${platform()} in ${dir}: tried ${tried.join('; ')}. ` +
      'Reinstall the package with a Rust toolchain (cargo) on PATH to build it from source.',
  );
}

module.exports = { platform, candidates, load };
