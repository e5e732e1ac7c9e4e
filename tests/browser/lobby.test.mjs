// The lobby's lists in the browser (issue 31, item 1): Ann makes a listed
// Neuroshima table (the create form lists tables by default); Bob finds it
// under "Open tables" on his home page, without a code, and joins it with
// one click; once they play, Eve finds it as the featured live game and
// watches it with one click. A private table appears in neither list.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';

const URL = process.env.CITADEL_URL;
const { pending, check } = await boardClientTests(URL, 'Lobby lists');

const T = {};
let browser;

before(async () => {
  if (pending) return;
  browser = await launch();
  for (const who of ['ann', 'bob', 'eve']) T[who] = await person(browser, `lobby-${who}`);
});
after(async () => { await browser?.close(); });

/** Create a Neuroshima table from the home page; returns its code. */
async function createTable(page, name, listed) {
  await page.goto(URL);
  await page.locator('form#create select[name=kind] option[value=neuroshima]').waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=kind]', 'neuroshima');
  await page.fill('form#create [name=name]', name);
  assert.equal(await page.isChecked('form#create [name=listed]'), true, 'listed by default');
  if (!listed) await page.uncheck('form#create [name=listed]');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  return (await page.locator('#code').innerText()).trim();
}

check('a listed table is joined from "Open tables" with one click; a private one is not listed', async () => {
  const { ann, bob } = T;
  T.code = await createTable(ann.page, 'Ann', true);
  const hidden = await createTable(T.eve.page, 'Eve', false);
  await bob.page.goto(URL);
  await bob.page.fill('form#join [name=name]', 'Bob');
  const row = bob.page.locator(`#open-tables li[data-code="${T.code}"]`);
  await until('the table to be listed', async () => (await row.count()) === 1, 15_000, 300);
  assert.match(await row.innerText(), /Neuroshima Hex · Ann · 1 of 2 seats free/);
  assert.equal(await bob.page.locator(`#open-tables li[data-code="${hidden}"]`).count(), 0, 'a private table is not listed');
  await shot(bob.page, 'lobby-open-tables');
  await row.locator('button[data-join]').click();
  await bob.page.locator('#lobby').waitFor({ state: 'visible' });
  await until('Bob to sit at seat 2', async () => /Bob/.test(await bob.page.locator('#seats tr[data-seat="1"]').innerText()));
  assert.equal((await bob.page.locator('#code').innerText()).trim(), T.code);
});

check('once it plays, the game is featured and watched with one click', async () => {
  const { ann, bob, eve } = T;
  assert.ok(T.code, 'needs the table');
  await bob.page.click('#ready');
  await ann.page.click('#ready');
  await until('the game to start', async () => {
    if (await ann.page.locator('#board .nsh-hex').count()) return true;
    await ann.page.click('#start', { timeout: 2_000 }).catch(() => {});
    return (await ann.page.locator('#board .nsh-hex').count()) > 0;
  }, 20_000, 500);
  await eve.page.goto(URL);
  const featured = eve.page.locator(`#featured button[data-watch="${T.code}"]`);
  await until('the game to be featured', async () => {
    if (await featured.count()) return true;
    await eve.page.reload();
    return false;
  }, 20_000, 1_000);
  assert.match(await eve.page.locator(`#live-games li[data-code="${T.code}"]`).innerText(), /Ann vs Bob/);
  assert.equal(await eve.page.locator(`#open-tables li[data-code="${T.code}"]`).count(), 0, 'a started table is no longer open');
  await shot(eve.page, 'lobby-featured');
  await featured.click();
  await eve.page.locator('#spectating').waitFor({ state: 'visible' });
  await until('the board to show', async () => (await eve.page.locator('#board .nsh-hex').count()) > 0);
  // Ann's home page now counts Eve among the watchers of the game.
  const other = await browser.newPage();
  await other.goto(URL);
  await until('one spectator counted', async () =>
    /1 watching/.test(await other.locator(`#live-games li[data-code="${T.code}"]`).innerText().catch(() => '')), 20_000, 1_000);
  await other.close();
});
