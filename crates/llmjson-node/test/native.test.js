'use strict';
// The addon loader (native.js): a source build beside it, else the prebuilt addon for this
// platform that a dist tarball carries; an error that says what was looked for.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const native = require('../native');

const BUILT = path.resolve(__dirname, '..', 'llmjson.node');

/** Runs `body` with a new empty folder, removed after. */
function inTempDir(body) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llmjson-native-'));
  try {
    body(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('the platform names the C library on Linux', () => {
  const name = native.platform();
  assert.ok(name.startsWith(`${process.platform}-${process.arch}`), name);
  if (process.platform === 'linux') {
    assert.match(name, /-(gnu|musl)$/);
    // Node's own report says glibc here (Debian): the prebuilt addon dist.sh makes is for it.
    if (process.report.getReport().header.glibcVersionRuntime) assert.equal(name, `linux-${process.arch}-gnu`);
  }
});

test('a source build is preferred, then the prebuilt addon for this platform', () => {
  const [first, second] = [...native.candidates('/pkg')];
  assert.equal(first, path.join('/pkg', 'llmjson.node'));
  assert.equal(second, path.join('/pkg', `llmjson.${native.platform()}.node`));
});

test('the prebuilt addon is loaded where no source build is', () => inTempDir((dir) => {
  // A copy (its own file): the loader must find it by the platform's name alone.
  fs.copyFileSync(BUILT, path.join(dir, `llmjson.${native.platform()}.node`));
  assert.equal(typeof native.load(dir).version(), 'string');
}));

test('an addon that does not load is passed over for the next one', () => inTempDir((dir) => {
  fs.writeFileSync(path.join(dir, 'llmjson.node'), 'not a shared library');
  fs.copyFileSync(BUILT, path.join(dir, `llmjson.${native.platform()}.node`));
  assert.equal(typeof native.load(dir).version(), 'string');
}));

test('with no addon the error says which were looked for and how to build one', () => inTempDir((dir) => {
  fs.writeFileSync(path.join(dir, 'llmjson.node'), 'not a shared library');
  assert.throws(
    () => native.load(dir),
    (e) => {
      assert.match(e.message, new RegExp(`no native addon for ${native.platform()}`));
      assert.match(e.message, /llmjson\.node \(/);
      assert.match(e.message, new RegExp(`llmjson\\.${native.platform()}\\.node \\(absent\\)`));
      assert.match(e.message, /cargo/);
      return true;
    },
  );
}));
