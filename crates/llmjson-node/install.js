'use strict';
// npm's install step. A package made by scripts/dist.sh carries a prebuilt addon: where it
// loads on this machine there is nothing to build. Otherwise the addon is built from source
// with @napi-rs/cli and cargo: in a checkout from this folder's crate, in a dist tarball from
// the Rust sources it carries under rust/. LLMJSON_BUILD_FROM_SOURCE=1 builds even where a
// prebuilt addon would load.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const native = require('./native');

function prebuiltLoads() {
  const prebuilt = [...native.candidates()][1];
  if (!fs.existsSync(prebuilt)) return false;
  try {
    require(prebuilt);
    return true;
  } catch (e) {
    console.warn(`llmjson: the prebuilt ${path.basename(prebuilt)} does not load here (${e.message.split('\n')[0]}): building from source`);
    return false;
  }
}

function build() {
  const vendored = path.join(__dirname, 'rust', 'llmjson-node', 'Cargo.toml');
  const fromTarball = fs.existsSync(vendored);
  const args = ['--yes', '-p', '@napi-rs/cli@3', 'napi', 'build', '--release', '--output-dir', '.', '--dts', 'native.d.ts'];
  if (fromTarball) args.push('--manifest-path', vendored);
  // The folder's own dev copy of @napi-rs/cli, or one npx fetches from npm: a linked folder's
  // dependencies are not installed yet when its install script runs. (npx is a .cmd script on
  // Windows, which only a shell runs.)
  execFileSync('npx', args, { cwd: __dirname, stdio: 'inherit', shell: process.platform === 'win32' });
  // The build's intermediate files are hundreds of megabytes a node_modules folder should not keep.
  if (fromTarball && !process.env.CARGO_TARGET_DIR) {
    fs.rmSync(path.join(__dirname, 'rust', 'target'), { recursive: true, force: true });
  }
}

if (process.env.LLMJSON_BUILD_FROM_SOURCE === '1' || !prebuiltLoads()) {
  build();
}
