// The harness proving itself: Chromium starts through playwright-core,
// a page served by the fixture server connects over a WebSocket, a figure
// is moved by clicking, screenshots are written, and a dropped connection
// (context offline + socket closed) recovers and catches up. Needs no
// Citadel server and no web client; it runs on every `cargo test`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { startFixtureServer } from './lib/fixture-server.mjs';
import { dropConnection, lastSeq, launch, person, shot, until, waitForState } from './lib/harness.mjs';

let server;
let browser;

before(async () => {
  server = await startFixtureServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test('Chromium starts and reports its version', () => {
  assert.match(browser.version(), /^\d+\./);
  console.log(`# chromium ${browser.version()}`);
});

test('a page connects, a figure moves by clicking, a screenshot is saved', async () => {
  const me = await person(browser, 'selftest');
  try {
    const { page } = me;
    await page.goto(server.url);
    await waitForState(page, 'connected');
    await until('events to arrive', async () => (await lastSeq(page)) >= 2);

    await page.click('[data-figure="0"][data-mine="true"]');
    const target = page.locator('.move-target[data-square="1,0"]');
    await target.click();
    await until('the figure to stand on 1,0', () =>
      page.evaluate(() => document.querySelector('[data-figure="0"]').dataset.square === '1,0'),
    );
    assert.equal(await page.locator('.move-target').count(), 0, 'targets go away after the move');
    assert.match(await page.locator('#log li').first().textContent(), /moved to 1,0/);

    const path = await shot(page, 'selftest');
    assert.ok(existsSync(path), `${path} written`);

    await page.setViewportSize({ width: 390, height: 844 });
    const box = await page.locator('#board').boundingBox();
    assert.ok(box && box.x + box.width <= 390, 'the board fits a phone-size viewport');
    assert.ok(existsSync(await shot(page, 'selftest-phone')));
  } finally {
    await me.context.close();
  }
});

test('a dropped connection reconnects and catches up', async () => {
  const me = await person(browser, 'selftest');
  try {
    const { page } = me;
    await page.goto(server.url);
    await waitForState(page, 'connected');
    const before = await lastSeq(page);
    let seqWhileAway;
    const stateWhileAway = await dropConnection(me, async () => {
      // Events go on while the page is away; it must not see them now.
      await new Promise((r) => setTimeout(r, 800));
      seqWhileAway = await lastSeq(page);
      assert.ok(server.seq() > seqWhileAway + 3, 'the page missed events while offline');
    });
    assert.equal(stateWhileAway, 'reconnecting');
    assert.ok(seqWhileAway >= before);
    const target = server.seq();
    await until(`lastSeq to catch up to ${target}`, async () => (await lastSeq(page)) >= target, 30_000);
    await shot(page, 'selftest-after-reconnect');
  } finally {
    await me.context.close();
  }
});
