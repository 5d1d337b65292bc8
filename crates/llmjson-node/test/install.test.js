'use strict';
// The README's install line: a project that installs this package folder as a dependency gets
// a working package (its install script builds the addon, here a no-op rebuild).
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const PACKAGE = path.resolve(__dirname, '..');

test('installing the package folder into another project works', { timeout: 600_000 }, () => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'llmjson-install-'));
  try {
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    execFileSync('npm', ['install', PACKAGE, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project, stdio: 'pipe' });
    const out = execFileSync(
      process.execPath,
      ['-e', "const l = require('llmjson'); const { jsonrepair } = require('llmjson/jsonrepair'); console.log(JSON.stringify([l.parse('{a: 1}').value, jsonrepair('[1,')]))"],
      { cwd: project, encoding: 'utf8' },
    );
    assert.deepEqual(JSON.parse(out), [{ a: 1 }, '[1]']);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
