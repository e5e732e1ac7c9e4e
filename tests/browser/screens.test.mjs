// The web client's other screens on a real Citadel server (`CITADEL_URL`):
// accounts (register, log in, log out), "My games" with the replay viewer
// of a finished game, and a one-mission campaign from creation to its
// winners. Games are played through the page (clicks only), ending turns
// as soon as the rules allow so that the AI Dark Legion finishes them fast.
//
// Like citadel.test.mjs these run once web-client/index.html carries the
// board client's marker `data-client="citadel-board"`
// (crates/citadel/tests/browser.rs does not start them before that).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { STEP_MS, boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { Player, citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;
/** The longest one game may take to play to its end. */
const GAME_MS = Number(process.env.CITADEL_GAME_MS ?? 60_000);

const { pending, check: screen } = await boardClientTests(URL, 'screen');

const T = {};
let browser;
const unique = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e3)}`;

before(async () => {
  if (pending) return;
  browser = await launch();
  T.ann = await person(browser, 'ann', { viewport: { width: 1280, height: 720 } });
  T.cy = await person(browser, 'cy', { viewport: { width: 1280, height: 720 } });
});

after(async () => {
  await browser?.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PASS_LIKE = /\b(pass|done|skip|no|decline|none)\b/i;

/**
 * Play the page's seat to the end of the mission by clicking: answer
 * decisions (passing when offered), end the turn (or the activation) as
 * soon as the rules allow, else let the driver take a step.
 */
async function playToEnd(who) {
  const { page } = who;
  const driver = new Player(who);
  const deadline = Date.now() + GAME_MS;
  let clicks = 0;
  for (;;) {
    const s = await citadelState(page);
    if (s.view?.phase?.phase === 'finished') return clicks;
    if (Date.now() > deadline) throw new Error(`${who.label}: the game did not end within ${GAME_MS} ms (round ${s.view?.round})`);
    const todo = s.legal.filter((c) => c.type !== 'set_allow_pass');
    if (!todo.length) { await sleep(100); continue; }
    const types = new Set(todo.map((c) => c.type));
    const options = page.locator('#decision button[data-option]');
    let clicked = false;
    if (types.has('end_turn') && await page.locator('#end-turn').isEnabled()) {
      await page.locator('#end-turn').click();
      clicked = true;
    } else if (types.has('end_activation') && await page.locator('#end-activation').isEnabled()) {
      await page.locator('#end-activation').click();
      clicked = true;
    } else if ((await options.count()) > 0 && await page.locator('#decision').isVisible()) {
      const labels = await options.allTextContents();
      const pass = labels.findIndex((l) => PASS_LIKE.test(l));
      await options.nth(pass >= 0 ? pass : 0).click();
      clicked = true;
    }
    if (clicked) {
      await driver.settled(s);
    } else {
      await driver.act();
    }
    clicks += 1;
  }
}

/** The board's figures as drawn: "id@x,y" for each, sorted. */
async function drawnFigures(page) {
  return page.evaluate(() => [...document.querySelectorAll('#board [data-figure]')]
    .map((e) => { const c = e.querySelector('.body'); return `${e.getAttribute('data-figure')}@${c?.getAttribute('cx')},${c?.getAttribute('cy')}`; })
    .sort().join(' '));
}

async function replayStep(page) {
  const text = (await page.locator('#replay-step').textContent()).trim();
  const m = text.match(/^(\d+) \/ (\d+)$/);
  assert.ok(m, `#replay-step reads "k / n", not "${text}"`);
  return [Number(m[1]), Number(m[2])];
}

screen('accounts: register, log out and log in again from the home page', async () => {
  const { page } = T.ann;
  const name = `Ann${unique}`;
  T.annName = name;
  await page.goto(URL);
  await page.locator('form#login').waitFor();
  assert.ok(!(await page.locator('#logout').isVisible()), 'no #logout before logging in');
  await page.fill('form#login [name=name]', name);
  await page.fill('form#login [name=password]', 'correct horse battery');
  await page.click('form#login button[value=register]');
  await until('the account name to show', async () => (await page.locator('#account-name').textContent()) === name);
  await page.locator('#logout').waitFor({ state: 'visible' });
  assert.ok(!(await page.locator('form#login').isVisible()), 'the login form is hidden once logged in');
  await shot(page, 'login');

  await page.click('#logout');
  await page.locator('form#login').waitFor({ state: 'visible' });
  assert.ok(!(await page.locator('#logout').isVisible()), '#logout is hidden after logging out');
  assert.equal(await page.evaluate(() => localStorage.getItem('citadel:session')), null, 'the session is forgotten');

  // A wrong password is refused, the right one logs in.
  await page.fill('form#login [name=name]', name);
  await page.fill('form#login [name=password]', 'not the password');
  await page.click('form#login button[value=login]');
  await page.locator('#toast', { hasText: /wrong name or password/i }).waitFor();
  assert.ok(await page.locator('form#login').isVisible(), 'still logged out');
  await page.fill('form#login [name=password]', 'correct horse battery');
  await page.click('form#login button[value=login]');
  await until('the account name to show again', async () => (await page.locator('#account-name').textContent()) === name);
  await page.locator('#logout').waitFor({ state: 'visible' });
  T.loggedIn = true;
});

screen('a 1-player game against the AI Dark Legion, played to its end, is in "My games" with its replay', async () => {
  const who = T.ann;
  const { page } = who;
  assert.ok(T.loggedIn, 'needs the account');
  await page.fill('form#create [name=name]', T.annName);
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  const code = (await page.locator('#code').textContent()).trim();
  T.gameCode = code;
  await page.click('button[data-corp=bauhaus]');
  await until('the corporation to be taken', async () =>
    /bauhaus/i.test((await page.locator('#seats tr[data-seat="0"]').textContent()) ?? ''));
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start', { timeout: 2_000 }).catch(() => {});
    return page.locator('#board').isVisible();
  }, 20_000, 500);

  const started = Date.now();
  const clicks = await playToEnd(who);
  console.log(`# game ${code}: played to the end in ${Date.now() - started} ms (${clicks} clicks)`);
  await page.locator('#scoreboard').waitFor({ state: 'visible' });
  await page.locator('#scoreboard button', { hasText: 'Home' }).click();

  // "My games" (from /api/me: the game was joined with the account).
  const item = page.locator(`#my-games li[data-code="${code}"]`);
  await item.waitFor();
  await item.locator('button[data-replay]').waitFor();
  await shot(page, 'my-games');
  await item.locator('button[data-replay]').click();

  await page.locator('#replay').waitFor({ state: 'visible' });
  try {
    await page.locator('#replay #board [data-square]').first().waitFor();
  } catch (e) {
    await shot(page, 'replay-failed');
    console.log('# replay:', await page.evaluate(() => ({ toast: document.querySelector('#toast').textContent, step: document.querySelector('#replay-step').textContent, url: location.href })));
    throw e;
  }
  await until('the replay to load', async () => (await replayStep(page))[1] > 1);
  const [k0, n] = await replayStep(page);
  assert.equal(k0, 1, 'the replay starts at its first step');
  assert.ok(await page.locator('#replay #board').isVisible(), 'the board is inside #replay');
  assert.ok(await page.locator('#replay-command').isVisible());

  // Step forward until the board changes, then back again.
  const first = await drawnFigures(page);
  let changedAt = null;
  let boardBefore = first;
  for (let i = 0; i < Math.min(n - 1, 200); i++) {
    boardBefore = await drawnFigures(page);
    const [k] = await replayStep(page);
    await page.click('#replay-next');
    await until('the next step', async () => (await replayStep(page))[0] === k + 1);
    await until('the step to be drawn', async () => (await page.locator('#replay-step').getAttribute('data-index')) === String(k));
    if ((await drawnFigures(page)) !== boardBefore) { changedAt = k + 1; break; }
  }
  assert.ok(changedAt, 'stepping forward changes the board');
  const boardAfter = await drawnFigures(page);
  assert.ok((await page.locator('#replay-events li').count()) > 0, 'the step\'s events are listed');
  await shot(page, 'replay');
  await page.click('#replay-prev');
  await until('the previous step', async () => (await replayStep(page))[0] === changedAt - 1);
  await until('the previous board', async () => (await drawnFigures(page)) === boardBefore);
  await page.click('#replay-next');
  await until('forward again', async () => (await drawnFigures(page)) === boardAfter);

  // The slider reaches the last step (paging through the replay as needed).
  await page.locator('#replay-slider').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, n - 1);
  await until('the last step', async () => (await replayStep(page))[0] === n, STEP_MS * 2);
  await until('the last step to be drawn', async () => (await page.locator('#replay-step').getAttribute('data-index')) === String(n - 1), STEP_MS * 2);
  assert.ok(await page.locator('#replay-next').isDisabled(), 'no step after the last');
  // Play runs on from an earlier step, and pauses.
  await page.click('#replay-prev');
  await page.click('#replay-prev');
  await page.click('#replay-play');
  await until('playing to reach the end', async () => (await replayStep(page))[0] === n, STEP_MS * 2);
  T.replayDone = true;

  // A replay kept before protocol 3 (no `kind`; the static data called
  // `map`, at the top and in a step that changed it) reads the same.
  const real = await (await fetch(`${URL}/api/games/${code}/replay?from=0&count=50`)).json();
  assert.equal(real.kind, 'siege', 'a replay names its game');
  assert.ok(real.static_data, 'and carries its static data');
  const old = (r) => {
    const { kind: _kind, static_data: data, ...rest } = r;
    return { ...rest, map: data, steps: r.steps.map(({ static_data: d, ...st }) => (d ? { ...st, map: d } : st)) };
  };
  await page.route(`**/api/games/${code}/replay*`, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ status: res.status(), json: old(await res.json()) });
  });
  await page.goto(`${URL}/`);
  await page.goto(`${URL}/#replay/${code}`);
  await page.locator('#replay #board [data-square]').first().waitFor();
  await until('the old replay to load', async () => (await replayStep(page))[1] === n);
  assert.ok(await page.locator('#replay #board [data-square]').count() > 10, 'the old replay draws its board');
  await page.click('#replay-next');
  await until('its next step', async () => (await replayStep(page))[0] === 2);
  await until('its command in words', async () => (await page.locator('#replay-command').innerText()).includes(':'));
  await page.unroute(`**/api/games/${code}/replay*`);
});

screen('a campaign: 1 player and the AI, 1 mission — create, join, play, standings with winners', async () => {
  const who = T.cy;
  const { page } = who;
  const name = `Cy${unique}`;
  await page.goto(URL);
  await page.locator('form#create-campaign').waitFor();
  await page.fill('form#create-campaign [name=name]', `War of ${name}`);
  await page.fill('form#create-campaign [name=players]', '1');
  await page.fill('form#create-campaign [name=missions]', '1');
  await page.selectOption('form#create-campaign select[name=dark_legion]', 'ai');
  await page.locator('form#create-campaign button[type=submit]').click();
  const code = await until('the invite code', async () => {
    const v = await page.locator('form#join-campaign [name=code]').inputValue();
    return v.length === 6 ? v : null;
  });
  T.campaignCode = code;
  await page.fill('form#join-campaign [name=name]', name);
  await page.selectOption('form#join-campaign select[name=corporation]', 'capitol');
  await page.locator('form#join-campaign button[type=submit]').click();

  await page.locator('#campaign').waitFor({ state: 'visible' });
  const row = page.locator('#standings tr[data-player="0"]');
  await until('the standings to list the player', async () => (await row.count()) > 0 && /capitol/i.test(await row.textContent()));
  assert.match(await row.textContent(), new RegExp(name));
  await page.locator('#next-mission').waitFor({ state: 'visible' });
  await shot(page, 'campaign-before');
  await page.click('#next-mission');

  // The mission opens at once (or from "Play" on the standings).
  await until('the mission to open', async () => {
    if (await page.locator('#board').isVisible()) return true;
    if (await page.locator('#play-campaign-game').isVisible()) await page.click('#play-campaign-game').catch(() => {});
    return false;
  }, 20_000, 250);
  await waitForState(page, 'connected');
  assert.equal((await citadelState(page)).seat, 0, 'the campaign token resumes seat 0');
  const started = Date.now();
  await playToEnd(who);
  console.log(`# campaign ${code}: the mission played to the end in ${Date.now() - started} ms`);
  await page.locator('#scoreboard').waitFor({ state: 'visible' });
  await page.click('#back-to-campaign');

  await page.locator('#campaign').waitFor({ state: 'visible' });
  await until('the mission in the history', async () => (await page.locator('#history tr[data-mission="0"]').count()) === 1);
  const hist = await page.locator('#history tr[data-mission="0"]').textContent();
  assert.match(hist, /C1M1/);
  assert.match(hist, /success|failure/i);
  assert.match(hist, /→/);
  await page.locator('#campaign-state[data-finished="true"]').waitFor();
  assert.match(await page.locator('#campaign-state').textContent(), /over.*Winner/i);
  assert.ok((await page.locator('#standings tr.winner').count()) >= 1, 'the winners are marked');
  assert.ok(!(await page.locator('#next-mission').isVisible()), 'no next mission after the last');
  await shot(page, 'campaign-standings');

  await page.click('#home-link');
  await page.locator(`#my-campaigns li[data-campaign="${code}"]`).waitFor();
  await shot(page, 'home-after');
  T.campaignDone = true;
});

screen('the new screens fit a phone (390×844)', async () => {
  const { page } = T.cy;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(URL);
  await page.locator('form#login').waitFor();
  await shot(page, 'home-phone');
  if (T.campaignCode) {
    await page.locator(`#my-campaigns li[data-campaign="${T.campaignCode}"] button`).first().click();
    await page.locator('#standings tr[data-player="0"]').waitFor();
    await shot(page, 'campaign-phone');
  }
  if (T.gameCode) {
    await page.goto(`${URL}/#replay/${T.gameCode}`);
    await page.locator('#replay #board [data-square]').first().waitFor();
    await page.click('#replay-next');
    const box = await page.locator('#replay-next').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 391, 'the replay controls fit the width');
    await shot(page, 'replay-phone');
  }
});
