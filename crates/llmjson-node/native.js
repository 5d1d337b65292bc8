'use strict';
// The native addon. A package built from source has `llmjson.node` beside this file (the
// install script's `napi build`); a package made by scripts/dist.sh carries a prebuilt addon
// per platform, named `llmjson.<platform>.node`, and loads the one for this machine. A source
// build wins over a prebuilt one: it is what this machine made for itself.

const fs = require('node:fs');
const path = require('node:path');

let platformName = null;

/** glibc and musl addons do not load in each other's processes. `ldd` names musl on a musl
 * system (a quick read); where there is none, Node's report says (glibcVersionRuntime is
 * absent under musl; building the report takes milliseconds). */
function isMusl() {
  try {
    return fs.readFileSync('/usr/bin/ldd', 'latin1').includes('musl');
  } catch {
    return !process.report.getReport().header.glibcVersionRuntime;
  }
}

/** The platform name of the prebuilt addon that would run here (`linux-x64-gnu`, …). */
function platform() {
  if (platformName === null) {
    const { platform: os, arch } = process;
    let libc = '';
    if (os === 'linux') libc = isMusl() ? '-musl' : '-gnu';
    platformName = `${os}-${arch}${libc}`;
  }
  return platformName;
}

/** The addon files that may serve this machine, most preferred first (lazily: the platform is
 * worked out only when no source build is there). */
function* candidates(dir = __dirname) {
  yield path.join(dir, 'llmjson.node');
  yield path.join(dir, `llmjson.${platform()}.node`);
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
