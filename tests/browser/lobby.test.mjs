// The lobby's lists in the browser (issue 31, item 1): Ann makes a listed
// Neuroshima table (the create form lists tables by default); Bob finds it
// under "Open tables" on his home page, without a code, and joins it with
// one click; once they play, Eve finds it as the featured live game and
// watches it with one click. A private table appears in neither list.
// And (item 2) a spectator's reload keeps watching with the chat kept,
// an account continues its own seat on a second device, and a guest who
// registers finds the games played before.
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
  // A chat line, then Eve reloads: she is still watching (the address
  // says so), and the line is still there (item 2).
  await ann.page.fill('#chat input', 'Good luck, Bob.');
  await ann.page.press('#chat input', 'Enter');
  await eve.page.locator('#chat-lines li', { hasText: 'Good luck, Bob.' }).waitFor();
  assert.ok(eve.page.url().endsWith(`#watch/${T.code}`), eve.page.url());
  await eve.page.reload();
  await eve.page.locator('#spectating').waitFor({ state: 'visible' });
  await until('the board to show again', async () => (await eve.page.locator('#board .nsh-hex').count()) > 0);
  await eve.page.locator('#chat-lines li', { hasText: 'Good luck, Bob.' }).waitFor();
  assert.equal(await eve.page.locator('#chat-lines li', { hasText: 'Good luck, Bob.' }).count(), 1, 'once');
  // Ann's home page now counts Eve among the watchers of the game.
  const other = await browser.newPage();
  await other.goto(URL);
  await until('one spectator counted', async () =>
    /1 watching/.test(await other.locator(`#live-games li[data-code="${T.code}"]`).innerText().catch(() => '')), 20_000, 1_000);
  await other.close();
});

check('an account continues its own seat on a second device from "My games"', async () => {
  const laptop = (await person(browser, 'dan-laptop')).page;
  const phone = (await person(browser, 'dan-phone')).page;
  const name = `Dan${Date.now().toString(36).slice(-5)}`;
  const logIn = async (page, action) => {
    await page.goto(URL);
    await page.fill('form#login [name=name]', name);
    await page.fill('form#login [name=password]', 'correct horse battery');
    await page.click(`form#login button[value=${action}]`);
    await until(`${name} to be logged in`, async () => (await page.locator('#account-name').textContent()) === name);
  };
  await logIn(laptop, 'register');
  const code = await createTable(laptop, name, false);
  await laptop.click('button[data-bot-seat="1"]');
  await until('the bot to take seat 2', async () => /Bot/.test(await laptop.locator('#seats tr[data-seat="1"]').innerText()));
  await laptop.click('#ready');
  await until('the game to start', async () => {
    if (await laptop.locator('#board .nsh-hex').count()) return true;
    await laptop.click('#start', { timeout: 2_000 }).catch(() => {});
    return (await laptop.locator('#board .nsh-hex').count()) > 0;
  }, 20_000, 500);

  // The phone has no token for the seat: only the account.
  await logIn(phone, 'login');
  const entry = phone.locator(`#my-games li[data-code="${code}"]`);
  await until('the game to be in "My games"', async () => (await entry.count()) === 1, 15_000, 300);
  // Neuroshima's first player places first: the game waits for Dan, and
  // "My games" says so (issue 31, item 7).
  assert.equal(await entry.locator('.your-turn').count(), 1, 'a "your turn" badge');
  await entry.locator('button[data-resume]').click();
  await until('the phone to sit at seat 1', async () =>
    (await phone.evaluate(() => window.citadel?.seat ?? null)) === 0, 15_000, 200);
  await until('the board on the phone', async () => (await phone.locator('#board .nsh-hex').count()) > 0);
  assert.ok(!(await phone.locator('#spectating').isVisible()), 'a player, not a spectator');
  // The laptop's connection was replaced by the phone's.
  await until('the laptop to be told', async () => /another tab or device/i.test(await laptop.locator('#toast').innerText().catch(() => '')), 15_000, 300);
});

check('a guest who registers finds the games played before on any device', async () => {
  const here = (await person(browser, 'gus-here')).page;
  const there = (await person(browser, 'gus-there')).page;
  const name = `Gus${Date.now().toString(36).slice(-5)}`;
  // As a guest: a table made and sat at, then home again.
  const code = await createTable(here, name, false);
  await here.goto(URL);
  await here.fill('form#login [name=name]', name);
  await here.fill('form#login [name=password]', 'correct horse battery');
  await here.click('form#login button[value=register]');
  await until('registered', async () => (await here.locator('#account-name').textContent()) === name);
  // Another browser, the same account: the guest's game is there.
  await there.goto(URL);
  await there.fill('form#login [name=name]', name);
  await there.fill('form#login [name=password]', 'correct horse battery');
  await there.click('form#login button[value=login]');
  await until('logged in there', async () => (await there.locator('#account-name').textContent()) === name);
  await until('the guest game to be in "My games" there', async () =>
    (await there.locator(`#my-games li[data-code="${code}"]`).count()) === 1, 15_000, 300);
});
