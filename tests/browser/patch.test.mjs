// web-client/patch.js without a browser: the JSON Patch (RFC 6902) subset
// the server sends in `view_patch` (add, remove, replace), applied without
// touching the view it starts from, and refused whole when it does not fit
// (the client then asks for a resync). The patches here have the shapes
// crates/protocol/src/view_patch.rs makes: changes deep in a list element,
// elements added at the end and removed from the end, optional members
// added and removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { applyPatch } = await import(`${root}web-client/patch.js`);

const view = () => ({
  round: 2,
  phase: { phase: 'corporation', team: 0 },
  figures: [
    { id: 0, square: [3, 4], wounds: 0 },
    { id: 1, square: [5, 6], wounds: 1 },
    { id: 2, square: [7, 8], wounds: 0 },
  ],
  force_discard: [4],
  exits: [[1, 'a/b']],
});

test('a patch rebuilds the new view and leaves the old one as it was', () => {
  const old = view();
  const before = structuredClone(old);
  const next = applyPatch(old, [
    { op: 'replace', path: '/figures/1/square/1', value: 7 },
    { op: 'replace', path: '/phase', value: { phase: 'dark_legion' } },
    { op: 'remove', path: '/figures/2' },
    { op: 'add', path: '/force_discard/1', value: 9 },
    { op: 'add', path: '/ai_deck', value: { revealed: [] } },
    { op: 'remove', path: '/exits' },
  ]);
  assert.deepEqual(next, {
    round: 2,
    phase: { phase: 'dark_legion' },
    figures: [
      { id: 0, square: [3, 4], wounds: 0 },
      { id: 1, square: [5, 7], wounds: 1 },
    ],
    force_discard: [4, 9],
    ai_deck: { revealed: [] },
  });
  assert.deepEqual(old, before, 'the old view is untouched');
  assert.equal(next.figures[0], old.figures[0], 'unchanged parts are shared, not copied');
});

test('JSON Pointer escapes and an empty patch', () => {
  const doc = { 'a/b': { '~k': 1 } };
  assert.deepEqual(applyPatch(doc, [{ op: 'replace', path: '/a~1b/~0k', value: 2 }]), { 'a/b': { '~k': 2 } });
  assert.equal(applyPatch(doc, []), doc);
  assert.deepEqual(applyPatch(doc, [{ op: 'replace', path: '', value: 5 }]), 5);
});

test('a patch that does not fit the view throws', () => {
  const bad = [
    [{ op: 'replace', path: '/figures/3/square', value: [0, 0] }], // no such element
    [{ op: 'remove', path: '/nothing' }],
    [{ op: 'replace', path: '/nothing', value: 1 }],
    [{ op: 'add', path: '/figures/9', value: {} }], // past the end
    [{ op: 'replace', path: '/round/x', value: 1 }], // through a number
    [{ op: 'add', path: '/figures/01', value: {} }], // not an index
    [{ op: 'move', from: '/round', path: '/r' }], // not sent by the server
    [{ op: 'replace', path: 'round', value: 1 }], // not a pointer
  ];
  for (const ops of bad) {
    const old = view();
    assert.throws(() => applyPatch(old, ops), undefined, JSON.stringify(ops));
    assert.deepEqual(old, view(), 'nothing changed');
  }
  assert.throws(() => applyPatch(null, [{ op: 'replace', path: '/round', value: 3 }]), 'no view held');
});
