'use strict';
// Every ```js block of the README runs as written (each requires what it uses, assert
// included), with `require('llmjson')` meaning this package. scripts/readme_check.py runs them
// again from a clean folder against the packed tarball.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const README = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
const BLOCKS = [...README.matchAll(/```js\n([\s\S]*?)```\n/g)].map((m) => m[1]);

test('the README has Node examples', () => {
  assert.ok(BLOCKS.length >= 3, `${BLOCKS.length} blocks`);
});

BLOCKS.forEach((block, i) => {
  test(`README block ${i} runs`, () => {
    const run = new Function('require', block);
    run(require);
  });
});
