// Ratings in the browser (issue 31, item 3; docs/RATINGS.md): Rho
// registers, makes a rated table from the create form (the lobby says it
// is rated), and a rated game of hers is played to its end against the
// bot; her profile then shows the rating it moved — provisional, with its
// one-point history drawn — and the game with its replay; the leaderboard
// card lists no provisional rating.
//
// The game itself is played by a script in a second page over the
// WebSocket with Rho's session token (the first legal command each time):
// the clicks that play a Neuroshima game are neuroshima.test.mjs's; what
// is tested here is what ratings add.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';

const URL = process.env.CITADEL_URL;
const { pending, check } = await boardClientTests(URL, 'Ratings');

const T = {};
let browser;
const unique = Date.now().toString(36).slice(-5);

before(async () => {
  if (pending) return;
  browser = await launch();
  T.rho = await person(browser, 'rho');
  T.bot = await person(browser, 'rho-script');
});
after(async () => { await browser?.close(); });

check('a rated table is made from the create form and its lobby says so', async () => {
  const { page } = T.rho;
  T.name = `Rho${unique}`;
  await page.goto(URL);
  await page.fill('form#login [name=name]', T.name);
  await page.fill('form#login [name=password]', 'correct horse battery');
  await page.click('form#login button[value=register]');
  await until('the account to show', async () => (await page.locator('#account-name').textContent()) === T.name);
  T.token = await page.evaluate(() => JSON.parse(localStorage.getItem('citadel:session') ?? 'null')?.token ?? null);
  assert.ok(T.token, 'a session token');

  await page.locator('form#create select[name=kind] option[value=neuroshima]').waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=kind]', 'neuroshima');
  await page.fill('form#create [name=name]', T.name);
  await page.check('form#create [name=rated]');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await until('the lobby to say the table is rated', async () =>
    (await page.locator('#lobby-options').innerText()).startsWith('Rated · Neuroshima Hex'));
  await shot(page, 'ratings-lobby');
  await page.goto(URL);
});

check('after a rated game her profile shows the rating it moved, its history and the game', async () => {
  // The rated game, played by a script with Rho's account.
  const created = await fetch(`${URL}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'neuroshima', rated: true }),
  }).then((r) => r.json());
  const code = created.code;
  assert.match(code ?? '', /^[A-Z0-9]{6}$/);
  const script = T.bot.page;
  await script.goto(`${URL}/healthz`);
  const result = await script.evaluate(async ({ code, token, name }) => {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    let legal = [];
    let over = false;
    let seat = null;
    const send = (m) => ws.send(JSON.stringify(m));
    const done = new Promise((resolve, reject) => {
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type === 'welcome') {
          seat = m.seat;
          send({ type: 'set_bot', seat: 1, bot: true });
          send({ type: 'ready', ready: true });
        } else if (m.type === 'lobby' && m.lobby.seats.every((s) => s.ready) && !m.lobby.started) {
          send({ type: 'start' });
        } else if (m.type === 'snapshot' || m.type === 'events') {
          legal = m.legal ?? [];
          if (m.outcome) { over = true; resolve({ seat, outcome: m.outcome }); return; }
          if (legal.length) send({ type: 'command', command: legal[0] });
        } else if (m.type === 'rejected') {
          // A command sent from a legal list the next message replaced:
          // play from the newest one.
          if (legal.length) send({ type: 'command', command: legal[0] });
        } else if (m.type === 'error') {
          reject(new Error(JSON.stringify(m)));
        }
      };
      ws.onclose = () => { if (!over) reject(new Error('closed before the end')); };
    });
    ws.onopen = () => send({ type: 'hello', protocol: 3, game: code, join: { as: 'player', name }, account: token });
    const r = await done;
    ws.close();
    return r;
  }, { code, token: T.token, name: T.name });
  assert.equal(result.seat, 0);
  const mine = result.outcome.placings.find((p) => p.seat === 0);
  assert.ok(mine, 'her place');

  // Her profile, from "My profile".
  const { page } = T.rho;
  await page.goto(URL);
  await page.locator('#my-profile').waitFor({ state: 'visible' });
  let rating = null;
  await until('the profile to show the rated game', async () => {
    await page.click('#my-profile');
    await page.locator('#profile').waitFor({ state: 'visible' });
    const section = page.locator('#profile-ratings section[data-kind=neuroshima]');
    if (!(await section.count())) { await page.click('#profile-close'); return false; }
    rating = (await section.locator('h3').innerText()).trim();
    return true;
  }, 20_000, 300);
  assert.equal(await page.locator('#profile-name').innerText(), T.name);
  // One game: provisional ("?"), moved off 1500 by the result.
  const m = /Neuroshima Hex: (\d+)\?$/.exec(rating ?? '');
  assert.ok(m, `a provisional rating: ${rating}`);
  assert.notEqual(Number(m[1]), 1500, 'the game moved it');
  const details = await page.locator('#profile-ratings section[data-kind=neuroshima] p').innerText();
  const won = mine.place === 1 && result.outcome.placings.some((p) => p.seat !== 0 && p.place > 1);
  assert.match(details, /Provisional/);
  assert.match(details, /1 rated game: /);
  assert.match(details, won ? /1 won/ : /0 won/);
  assert.equal(Number(m[1]) > 1500, won, `a win raises it, a loss or draw lowers it or keeps it near (${details})`);
  const chart = page.locator('#profile-ratings section[data-kind=neuroshima] svg.rating-chart');
  assert.equal(await chart.locator('circle').count(), 1, 'one point of history');
  assert.match(await chart.getAttribute('aria-label') ?? '', /over 1 rated game/);
  await page.locator(`#profile-games li[data-code="${code}"]`).waitFor();
  assert.match(await page.locator(`#profile-games li[data-code="${code}"]`).innerText(), /rated/);
  await shot(page, 'ratings-profile');

  // Its replay opens from the profile.
  await page.click(`#profile-games button[data-replay="${code}"]`);
  await until('the replay to open', async () => !(await page.locator('#profile').isVisible()));

  // The leaderboard card: Neuroshima's board holds no provisional rating.
  await page.goto(URL);
  await page.selectOption('#board-kind', 'neuroshima');
  await until('the leaderboard to answer', async () => await page.locator('#leaderboard-empty').isVisible());
  assert.equal(await page.locator('#leaderboard tbody tr').count(), 0);

  // A name nobody has is said so.
  await page.fill('#find-player [name=player]', `nobody${unique}`);
  await page.click('#find-player button[type=submit]');
  await page.locator('#toast', { hasText: /No player called/ }).waitFor();
});
