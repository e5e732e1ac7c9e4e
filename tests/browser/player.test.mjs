// What a player sees, one defect of issue 16 at a time. A real game is
// started once (Alice, one seat, the AI Dark Legion) to have a real
// `view` and `map`; each test then shows an edited copy of that state in
// a fresh page through `window.citadel.receive` (the same path a server
// message takes) and checks the screen. Tests that need the server (the
// invite link, the log after a reload, the auto-pass) use it for real.
//
// Like citadel.test.mjs these run once web-client/index.html carries the
// board client's marker `data-client="citadel-board"`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;

const { pending, check } = await boardClientTests(URL, 'player');

const T = {};
let browser;
const clone = (x) => JSON.parse(JSON.stringify(x));

/** Create a game from the home page and start it; returns its code. */
async function startSoloGame(who, name = 'Alice') {
  const { page } = who;
  await page.goto(URL);
  await page.fill('form#create [name=name]', name);
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  const code = (await page.locator('#code').textContent()).trim();
  await page.click('button[data-corp=bauhaus]');
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start').catch(() => {});
    return page.locator('#board').isVisible();
  }, 15_000, 300);
  await until('a view', async () => (await citadelState(page)).view);
  return code;
}

/** Show `state` in a fresh page with no server behind it. */
async function showState(who, { seat = 0, view, map = T.map, legal = [], lobby = T.lobby }) {
  const { page } = who;
  await page.goto(`${URL}/`);
  await page.locator('#home').waitFor({ state: 'visible' });
  await page.evaluate(({ seat, view, map, legal, lobby }) => {
    const c = window.citadel;
    c.receive({ type: 'welcome', protocol: 3, kind: 'siege', seat, token: null });
    c.receive({ type: 'lobby', lobby });
    c.receive({ type: 'snapshot', seq: 7, view, static_data: map, legal });
  }, { seat, view, map, legal, lobby });
  await page.locator('#board').waitFor({ state: 'visible' });
}

/** The square (x,y in board squares) at the centre of a figure's disc. */
async function drawnSquare(page, id) {
  return page.evaluate((id) => {
    const c = document.querySelector(`#board [data-figure="${id}"] circle.body`);
    if (!c) return null;
    return { x: Math.floor(Number(c.getAttribute('cx')) / 40), y: Math.floor(Number(c.getAttribute('cy')) / 40) };
  }, id);
}

const near = (a, squares, d) => squares.some((s) => Math.max(Math.abs(s.x - a.x), Math.abs(s.y - a.y)) <= d);

before(async () => {
  if (pending) return;
  browser = await launch();
  T.alice = await person(browser, 'alice');
  T.viewer = await person(browser, 'viewer');
  T.code = await startSoloGame(T.alice);
  const s = await T.alice.page.evaluate(() => ({ view: window.citadel.view, map: window.citadel.staticData, lobby: window.citadel.lobby }));
  Object.assign(T, s);
  assert.ok(T.map && T.view && T.lobby, 'a real state to edit');
});

after(async () => {
  await browser?.close();
});

check('#1 a Dark Legion reinforcement waits at its red entrance, not at the same index of the full list', async () => {
  const reds = T.map.entrances.filter((e) => e.kind === 'red');
  assert.ok(reds.length > 0, 'the map has red entrances');
  // Pick a red entrance whose index among the reds names another entrance in the full list.
  const i = reds.findIndex((e, k) => T.map.entrances[k]?.id !== e.id);
  assert.ok(i >= 0, 'the fixture map can show the defect');
  const view = clone(T.view);
  const creature = view.figures.find((f) => f.kind.kind === 'creature');
  creature.place = { at: 'waiting', entrance: i };
  await showState(T.viewer, { view });
  const at = await drawnSquare(T.viewer.page, creature.id);
  assert.ok(at, 'the waiting creature is drawn');
  assert.ok(near(at, reds[i].squares, 2), `drawn at ${JSON.stringify(at)}, next to red entrance ${reds[i].id}`);
  assert.ok(!near(at, T.map.entrances[i].squares, 2), `not at ${T.map.entrances[i].id}, entry ${i} of the full list`);
});

check('#2 a force card\'s options name their creatures', async () => {
  const view = clone(T.view);
  view.dark_legion.seat = 0;
  view.to_act = 0;
  view.phase = { phase: 'dark_legion' };
  view.pending = { decision: 'force_option', card: 44, tile: 0 };
  const legal = [{ type: 'choose_option', option: 0 }, { type: 'choose_option', option: 1 }];
  await showState(T.viewer, { view, legal });
  const page = T.viewer.page;
  await until('the options to be named', async () => /Necromutant/.test(await page.locator('#decision').textContent()));
  const labels = await page.locator('#decision button[data-option]').allTextContents();
  assert.equal(labels.length, 2);
  assert.match(labels[0], /Razide/);
  assert.match(labels[1], /Centurion/);
  assert.match(labels[1], /Necromutant/);
  assert.match(await page.locator('#decision h3').textContent(), /Advance Guard/, 'the card is named');
  assert.doesNotMatch(await page.locator('#decision').textContent(), /#44/, 'no bare card number');
  await shot(page, 'decision-force-card');
});

check('#3 an eliminated trooper shows no actions left', async () => {
  const view = clone(T.view);
  const team = view.teams[0];
  const [a, b] = team.figures.map((id) => view.figures.find((f) => f.id === id));
  a.place = { at: 'eliminated' };
  a.health = 0;
  a.actions_used = 0;
  a.actions_allowed = 2;
  b.actions_used = 0;
  b.actions_allowed = 2;
  await showState(T.viewer, { view });
  const cell = await T.viewer.page.locator(`#sides tr[data-team="${team.team}"] td[title="actions left"]`).textContent();
  assert.match(cell, /B1 (out|✝)/, `the eliminated B1 is out: "${cell}"`);
  assert.match(cell, /B2 2/, `B2 still has 2 actions: "${cell}"`);
});

check('#4 walls are drawn above the figures', async () => {
  const view = clone(T.view);
  const w = T.map.walls.find((e) => 'V' in e);
  view.figures.find((f) => f.id === view.teams[0].figures[0]).place = { at: 'board', square: w.V };
  await showState(T.viewer, { view });
  const order = await T.viewer.page.evaluate(() => {
    const svg = document.querySelector('#board');
    const wall = svg.querySelector('.wall');
    const fig = svg.querySelector('[data-figure]');
    // Later in document order = painted on top.
    return wall && fig ? Boolean(fig.compareDocumentPosition(wall) & Node.DOCUMENT_POSITION_FOLLOWING) : null;
  });
  assert.equal(order, true, 'a wall comes after the figures in the SVG');
});

check('#5 the AI is named, and waiting players do not get the acting player\'s instructions', async () => {
  const view = clone(T.view);
  const ai = view.dark_legion.ai_seat;
  assert.notEqual(ai, null, 'the AI has a seat');
  view.phase = { phase: 'dark_legion' };
  view.to_act = ai;
  view.pending = null;
  await showState(T.viewer, { view });
  const page = T.viewer.page;
  assert.doesNotMatch(await page.locator('#game').innerText(), /Seat \d/);
  // Another player choosing an entrance: the page says who, not "click a marker".
  const lobby = clone(T.lobby);
  const bob = lobby.seats.length;
  lobby.seats[bob] = { seat: bob, choice: { corporation: 'capitol', doomtroopers: null }, name: 'Bob', controller: 'human', ready: true, connected: true, bot_playing: false };
  const v2 = clone(T.view);
  v2.teams.push({ ...clone(v2.teams[0]), team: 1, seat: bob, corporation: 'capitol', hand: null, figures: [] });
  v2.to_act = bob;
  v2.dark_legion.ai_seat = bob + 1;
  v2.phase = { phase: 'corporation', team: 1 };
  v2.pending = { decision: 'white_entrance', team: 1 };
  await showState(T.viewer, { view: v2, lobby });
  const text = await page.locator('#controls').innerText();
  assert.match(text, /Bob/);
  assert.doesNotMatch(text, /click/i, `no instructions for a waiting player: "${text}"`);
  assert.doesNotMatch(text, /Seat \d/);
});

/** A reaction window during the Dark Legion's turn, for seat 0. */
function reactionState(legal) {
  const view = clone(T.view);
  const team = view.teams[0];
  view.phase = { phase: 'dark_legion' };
  view.to_act = 0;
  view.pending = { decision: 'reaction', team: team.team, figure: team.figures[0], window: 'lethal', dice: [] };
  team.hand = ['medic', 'heroic_luck'];
  return { view, legal };
}

check('#6 a reaction prompt in the Dark Legion\'s turn says "Your decision" and passes by itself when no card can be played', async () => {
  const page = T.viewer.page;
  await showState(T.viewer, reactionState([{ type: 'react', card: null }]));
  const info = await page.locator('#turn-info').textContent();
  assert.match(info, /Your decision/);
  assert.doesNotMatch(info, /Your turn/);
  assert.match(await page.locator('#decision').innerText(), /No card in your hand can answer this: passing in a moment/);
  await shot(page, 'reaction-prompt');
  const sent = await until('the page to pass by itself', async () => {
    const s = await page.evaluate(() => window.citadel.sent);
    return s.find((m) => m.type === 'command' && m.command.type === 'react');
  }, 5_000);
  assert.deepEqual(sent.command, { type: 'react', card: null });

  // A playable card: the player decides, nothing is sent by itself.
  await showState(T.viewer, reactionState([{ type: 'react', card: 1 }, { type: 'react', card: null }]));
  await new Promise((r) => setTimeout(r, 3_000));
  assert.equal((await page.evaluate(() => window.citadel.sent)).filter((m) => m.type === 'command').length, 0,
    'no automatic answer when a card can be played');

  // Unless the player turned auto-pass on.
  await page.check('#auto-pass');
  await showState(T.viewer, reactionState([{ type: 'react', card: 1 }, { type: 'react', card: null }]));
  await until('auto-pass to answer', async () =>
    (await page.evaluate(() => window.citadel.sent)).some((m) => m.type === 'command' && m.command.card === null), 5_000);
  await page.evaluate(() => localStorage.removeItem('citadel:auto-pass'));
});

check('#8 an invite link joins the game directly, and the lobby has a copy-link button', async () => {
  const res = await fetch(`${URL}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ mission: 'ce-c1m1', seats: 2, dark_legion: { mode: 'ai' } }) });
  const { code } = await res.json();
  const bob = await person(browser, 'bob');
  await bob.page.goto(URL);
  await bob.page.evaluate(() => localStorage.setItem('citadel:name', 'Bob'));
  await bob.page.goto(`${URL}/#${code}`);
  await bob.page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(bob.page, 'connected');
  assert.equal((await bob.page.locator('#code').textContent()).trim(), code);
  assert.match(await bob.page.locator('#seats').textContent(), /Bob/);
  const link = await bob.page.locator('#copy-invite').getAttribute('data-link');
  assert.equal(link, `${URL}/#${code}`);
  await shot(bob.page, 'lobby-invite');

  // Without a name yet: the join form opens with the code filled in.
  const cy = await person(browser, 'cy');
  await cy.page.goto(`${URL}/#${code}`);
  await until('the code in the join form', async () => (await cy.page.inputValue('form#join [name=code]')) === code);
  await bob.context.close();
  await cy.context.close();
});

check('#12 the log survives closing and reopening the tab', async () => {
  const page = T.alice.page;
  // Alice chooses her entrance: events to log.
  const seq = (await citadelState(page)).seq;
  await page.locator('#decision button[data-option="0"]').click();
  await until('events after the choice', async () => (await citadelState(page)).seq > seq);
  const before = await page.locator('#log li:not(.sys)').allTextContents();
  assert.ok(before.length > 0, 'the log has lines');
  await page.reload();
  await waitForState(page, 'connected');
  await until('the log to be back', async () => (await page.locator('#log li:not(.sys)').count()) >= before.length);
  const afterLines = await page.locator('#log li:not(.sys)').allTextContents();
  // The reopened tab has the whole history, from the start of the game.
  const at = afterLines.indexOf(before[0]);
  assert.ok(at >= 0, `the first line is back: ${before[0]}`);
  assert.deepEqual(afterLines.slice(at, at + before.length), before);
  assert.match(afterLines[0], /game starts/i, 'from the first event on');
});

check('#13 words a player reads: plurals, articles, no developer terms', async () => {
  const page = T.viewer.page;
  const view = clone(T.view);
  view.round = 0;
  view.phase = { phase: 'equipment', team: 0 };
  view.teams[0].credits = 1;
  view.to_act = 0;
  await showState(T.viewer, { view, legal: [{ type: 'pass_equipment' }] });
  const text = await page.locator('#game').innerText();
  assert.doesNotMatch(text, /1 credits/);
  assert.doesNotMatch(text, /Round 0/);
  assert.doesNotMatch(text, /force pile/i);
  assert.doesNotMatch(text, /event \d/i);
  assert.doesNotMatch(text, /seat \d/i);
  assert.doesNotMatch(await page.locator('header').textContent(), /seat \d/i);
  const lines = await page.evaluate(async () => {
    const t = await import('/games/siege/text.js');
    const v = window.citadel.view;
    const me = (s) => (s === 0 ? 'Alice (you)' : 'Bob');
    return [
      t.describeEvent(v, { type: 'equipment_picked', seat: 0, figure: v.teams[0].figures[0], item: 'explosive_ammunition' }, me),
      t.describeEvent(v, { type: 'turn_started', side: { team: 0 }, seat: 0 }, me),
      t.describeEvent(v, { type: 'stepped', figure: v.teams[0].figures[0], from: { x: 1, y: 1 }, to: { x: 19, y: 0 } }, me),
    ];
  });
  assert.match(lines[0], /an Explosive Ammunition/);
  // A closed game says so once, without the server's reason doubling it.
  await page.evaluate(() => localStorage.setItem('citadel:name', 'Zed'));
  await page.goto(`${URL}/#ZZZZZZ`);
  await until('the toast', async () => (await page.locator('#toast').isVisible()) && /No game/.test(await page.locator('#toast').innerText()));
  assert.equal((await page.locator('#toast').innerText()).trim(), 'No game with that code (or it has ended).');
  await page.evaluate(() => localStorage.removeItem('citadel:name'));
  assert.doesNotMatch(lines[1], /\(.*\(you\)\)/, `no nested brackets: ${lines[1]}`);
  assert.doesNotMatch(lines[2], /\(19, 0\)/, `no coordinates: ${lines[2]}`);
});

check('#14 creatures have their own icons and a legend', async () => {
  const page = T.viewer.page;
  const view = clone(T.view);
  const creatures = view.figures.filter((f) => f.kind.kind === 'creature');
  const squares = T.map.squares.filter((s) => s.glyph === '.').map((s) => s.at);
  const kinds = ['centurion', 'legionnaire', 'razide'];
  kinds.forEach((k, i) => {
    creatures[i].kind = { kind: 'creature', creature: k };
    creatures[i].place = { at: 'board', square: squares[10 + i * 3] };
  });
  await showState(T.viewer, { view });
  const labels = await page.evaluate((ids) => ids.map((id) => document.querySelector(`#board [data-figure="${id}"] text`)?.textContent),
    creatures.slice(0, 3).map((c) => c.id));
  const trooper = await page.evaluate((id) => document.querySelector(`#board [data-figure="${id}"] text`)?.textContent, view.teams[0].figures[0]);
  assert.notEqual(labels[0], 'C', 'a Centurion is not "C" (Capitol)');
  assert.equal(new Set(labels).size, 3, `distinct icons: ${labels}`);
  assert.ok(!labels.includes(trooper));
  const legend = await page.locator('#legend').textContent();
  for (const name of ['Centurion', 'Legionnaire', 'Razide']) assert.match(legend, new RegExp(name));
  await shot(page, 'board-creatures');
});

check('#9 the Dark Legion host gets no corporation picker; a drawn Dark Legion is announced', async () => {
  const page = T.viewer.page;
  await page.goto(`${URL}/`);
  const lobby = clone(T.lobby);
  lobby.started = false;
  lobby.options.dark_legion = { mode: 'seat', seat: 0 };
  await page.evaluate((lobby) => {
    window.citadel.receive({ type: 'welcome', protocol: 3, kind: 'siege', seat: 0, token: null });
    window.citadel.receive({ type: 'lobby', lobby });
  }, lobby);
  await page.locator('#lobby').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#corps').isVisible(), false, 'no corporation buttons for the Dark Legion');
  assert.match(await page.locator('#lobby-me').innerText(), /You play the Dark Legion/);

  const drawn = clone(T.lobby);
  drawn.options.dark_legion = { mode: 'drawn' };
  const view = clone(T.view);
  view.dark_legion.seat = 0;
  view.dark_legion.ai_seat = null;
  await showState(T.viewer, { view, lobby: drawn });
  assert.match(await page.locator('#log').innerText(), /draw made you the Dark Legion/);
});

check('#10 a campaign joined while logged in is linked to the account', async () => {
  const page = T.viewer.page;
  const name = `camp${Date.now().toString(36).slice(-6)}`;
  const creds = { name, password: 'correct horse battery' };
  const post = (path, body, token) => fetch(`${URL}${path}`, { method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  assert.equal((await post('/api/accounts', creds)).status, 201);
  const login = await (await post('/api/login', creds)).json();
  const made = await (await post('/api/campaigns', { name: 'Linked', players: 2, missions: 1, starting_rank: 1, dark_legion: 'ai' })).json();
  await page.goto(`${URL}/`);
  await page.evaluate((s) => localStorage.setItem('citadel:session', JSON.stringify(s)), { token: login.token, name });
  await page.goto(`${URL}/`);
  await page.fill('form#join-campaign [name=code]', made.code);
  await page.fill('form#join-campaign [name=name]', name);
  await page.click('form#join-campaign button[type=submit]');
  await page.locator('#campaign').waitFor({ state: 'visible' });
  const me = await (await fetch(`${URL}/api/me`, { headers: { authorization: `Bearer ${login.token}` } })).json();
  assert.ok(me.campaigns.some((c) => c.code === made.code), `GET /api/me lists campaign ${made.code}`);
  await page.evaluate(() => localStorage.removeItem('citadel:session'));
});

check('#11 "My games" says who won: the Dark Legion player who won sees a win, guests see their result', async () => {
  const page = T.viewer.page;
  await page.goto(`${URL}/`);
  await page.evaluate(() => {
    localStorage.setItem('citadel:session', JSON.stringify({ token: 'x'.repeat(64), name: 'Dee' }));
    localStorage.setItem('citadel:games', JSON.stringify([
      { code: 'DLWON2', token: 't1', seat: 1, name: 'Dee', at: 2, finished: true },
      { code: 'GUEST3', token: 't2', seat: 0, name: 'Dee', at: 1, finished: true, outcome: 'lost' },
    ]));
  });
  await page.route('**/api/me', (route) => route.fulfill({ json: {
    account: { id: 'a', name: 'Dee' },
    games: [{ code: 'DLWON2', kind: 'siege', options: { mission: 'ce-c1m1', seats: 2, dark_legion: { mode: 'seat', seat: 1 }, starting_rank: 1, turn_seconds: null },
      created_at: 1, started_at: 2, finished_at: 3, campaign: null,
      result: { result: 'failure', corporations_won: false, dark_legion_won: true, dark_legion_seat: 1, dark_legion_pp: 5, teams: [{ seat: 0, corporation: 'bauhaus', pp: 1 }] } }],
    campaigns: [] } }));
  await page.goto(`${URL}/`);
  await until('the account\'s games', async () => /you won/.test(await page.locator('#my-games li[data-code="DLWON2"]').innerText()));
  assert.doesNotMatch(await page.locator('#my-games').innerText(), /Failure/);
  assert.match(await page.locator('#my-games li[data-code="GUEST3"]').innerText(), /you lost/);
  await page.unroute('**/api/me');
  await page.evaluate(() => { localStorage.removeItem('citadel:session'); localStorage.removeItem('citadel:games'); });
});

check('#7 the turn limit counts down on screen, and a turn that runs out is logged as such', async () => {
  const kim = await person(browser, 'kim');
  const { page } = kim;
  await page.goto(URL);
  await page.fill('form#create [name=name]', 'Kim');
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.fill('form#create [name=turn]', '10');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await page.click('button[data-corp=mishima]');
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start').catch(() => {});
    return page.locator('#board').isVisible();
  }, 15_000, 300);
  await page.locator('#clock').waitFor({ state: 'visible' });
  assert.match(await page.locator('#clock').innerText(), /Time: 0:(10|0\d) left for you/);
  await shot(page, 'game-clock');
  // Kim does nothing: after 10 s the game answers for her, and says so.
  await page.locator('#log li.timed_out').first().waitFor({ state: 'attached', timeout: 20_000 });
  assert.match(await page.locator('#log li.timed_out').first().innerText(), /Time ran out for Kim \(you\)/);
  await kim.context.close();
});

check('every roll is explained: attacker, weapon, dice faces, hits, defence value and die, damage', async () => {
  const page = T.viewer.page;
  const view = clone(T.view);
  const [trooper] = view.teams[0].figures.map((id) => view.figures.find((f) => f.id === id));
  const creature = view.figures.find((f) => f.kind.kind === 'creature');
  creature.kind = { kind: 'creature', creature: 'legionnaire' };
  await showState(T.viewer, { view });
  await page.evaluate(({ view, a, t }) => window.citadel.receive({ type: 'events', view, legal: [], events: [
    { seq: 8, event: { type: 'attack_rolled', attacker: a, target: t, attack: 'close_combat', hits: 1,
      dice: [{ color: 'white', face: 5, hits: 1, reroll: false }, { color: 'white', face: 2, hits: 0, reroll: false }] } },
    { seq: 9, event: { type: 'defense_rolled', figure: t, die: { color: 'white', face: 6, hits: 1, reroll: false } } },
    { seq: 10, event: { type: 'damage', figure: t, amount: 0, health: 1 } },
  ] }), { view, a: trooper.id, t: creature.id });
  const lines = await page.locator('#log li').allInnerTexts();
  const attack = lines.find((l) => /attacks/.test(l));
  assert.ok(attack, `an attack line: ${lines.join(' | ')}`);
  assert.match(attack, new RegExp(trooper.weapon ? 'with [A-Z]' : 'close combat'), 'the weapon');
  assert.match(attack, /white 5 \(1 hit\), white 2/, 'the dice faces');
  assert.match(attack, /= 1 hit\b/);
  const result = lines.find((l) => /damage/.test(l));
  assert.match(result, /1 hit − defence value 0 − defence die 6 saves 1 = 0 damage to Legionnaire/);
});

check('the mission is briefed from the content: picker, lobby, "Round X of N", goal, rules reference', async () => {
  const page = T.viewer.page;
  await page.goto(`${URL}/`);
  await until('the mission picker', async () => /Battle Plans/.test(await page.locator('form#create select[name=mission]').innerText()));
  assert.match(await page.locator('#mission-brief').innerText(), /Goal: .*within 5 rounds/);
  const view = clone(T.view);
  view.round = 2;
  view.phase = { phase: 'corporation', team: 0 };
  await showState(T.viewer, { view });
  await until('the briefing', async () => /Round 2 of 5/.test(await page.locator('#round').innerText()));
  assert.match(await page.locator('#briefing').innerText(), /Battle Plans.*Goal: Photograph next to a desk once/);
  await page.click('#rules-open');
  await page.locator('#rules').waitFor({ state: 'visible' });
  const rules = await page.locator('#rules').innerText();
  for (const name of ['Legionnaire', 'Centurion', 'Razide', 'Nepharite']) assert.match(rules, new RegExp(name));
  await shot(page, 'rules-reference');
  await page.click('#rules-close');
  const lobby = clone(T.lobby);
  lobby.started = false;
  await page.goto(`${URL}/`);
  await until('the content', async () => page.evaluate(() => document.querySelectorAll('form#create select[name=mission] option').length > 0));
  await page.evaluate((lobby) => {
    window.citadel.receive({ type: 'welcome', protocol: 3, kind: 'siege', seat: 0, token: null });
    window.citadel.receive({ type: 'lobby', lobby });
  }, lobby);
  await until('the lobby names the mission', async () => /^Battle Plans · /.test(await page.locator('#lobby-options').innerText()));
});

check('a phone sees the whole board, zoom makes it bigger; moves are one log line; the tab title calls the player', async () => {
  const phone = await person(browser, 'phone', { viewport: { width: 390, height: 844 } });
  const page = phone.page;
  const view = clone(T.view);
  view.to_act = 0;
  view.phase = { phase: 'corporation', team: 0 };
  view.pending = null;
  await showState(phone, { view, legal: [{ type: 'end_turn' }] });
  const fit = await page.locator('#board').boundingBox();
  assert.ok(fit.x >= 0 && fit.x + fit.width <= 390, `the board fits the phone: ${JSON.stringify(fit)}`);
  await shot(page, 'game-phone-fit');
  await page.click('#zoom-in');
  await page.click('#zoom-in');
  const zoom = await page.evaluate(() => Number(document.querySelector('#board').dataset.zoom));
  assert.ok(zoom > 1.5, `zoomed in: ${zoom}`);
  await page.click('#zoom-fit');
  assert.match(await page.title(), /Your turn/);
  // With "Sound" on, a chime when the game starts waiting for the player again.
  await page.check('#sound');
  const waiting = clone(view);
  waiting.to_act = 1;
  await page.evaluate(({ waiting, view }) => {
    window.citadel.receive({ type: 'events', view: waiting, legal: [], events: [] });
    window.citadel.receive({ type: 'events', view, legal: [{ type: 'end_turn' }], events: [] });
  }, { waiting, view });
  assert.equal(await page.evaluate(() => window.citadel.chimes), 1, 'one chime');
  assert.doesNotMatch(await page.title(), /^Citadel$/);
  // With "Notify me" on (the browser's permission given) and the page out
  // of view, a notification too (issue 31, item 7); in view, none.
  await page.context().grantPermissions(['notifications'], { origin: URL });
  await page.check('#notify');
  await until('the setting kept', async () => page.evaluate(() => localStorage.getItem('citadel:notify') === '1'));
  const turnAgain = async () => page.evaluate(({ waiting, view }) => {
    window.citadel.receive({ type: 'events', view: waiting, legal: [], events: [] });
    window.citadel.receive({ type: 'events', view, legal: [{ type: 'end_turn' }], events: [] });
  }, { waiting, view });
  await turnAgain();
  assert.equal(await page.evaluate(() => window.citadel.notifications), 0, 'not while the page is in view');
  await page.evaluate(() => Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' }));
  await turnAgain();
  assert.equal(await page.evaluate(() => window.citadel.notifications), 1, 'one notification');
  await page.evaluate(() => { delete document.visibilityState; });
  await page.uncheck('#notify');

  const f = view.teams[0].figures[0];
  await page.evaluate(({ view, f }) => window.citadel.receive({ type: 'events', view, legal: [], events: [
    { seq: 8, event: { type: 'activated', figure: f } },
    { seq: 9, event: { type: 'stepped', figure: f, from: { x: 1, y: 1 }, to: { x: 2, y: 1 } } },
    { seq: 10, event: { type: 'stepped', figure: f, from: { x: 2, y: 1 }, to: { x: 3, y: 1 } } },
    { seq: 11, event: { type: 'stepped', figure: f, from: { x: 3, y: 1 }, to: { x: 4, y: 1 } } },
  ] }), { view, f });
  const moves = await page.locator('#log li.stepped').allInnerTexts();
  assert.equal(moves.length, 1, `one line for the move: ${moves}`);
  assert.match(moves[0], /moves 3 squares to Sally Port, E2/);
  assert.equal(await page.locator('#board line.trail').count(), 3, 'the last move is marked on the board');
  await phone.context.close();
});

check('after the end a player is offered Rematch and New game like this, and takes up another player\'s offer', async () => {
  const who = await person(browser, 'after-game');
  const { page } = who;
  await showState(who, { view: T.view, legal: [] });
  assert.ok(await page.locator('#after-game').isHidden(), 'not while the game goes on');
  await page.evaluate((view) => window.citadel.receive({ type: 'events', view, legal: [], events: [],
    outcome: { placings: [{ seat: 0, team: null, place: 1, score: 3 }] } }), T.view);
  await page.locator('#after-game').waitFor({ state: 'visible' });
  assert.deepEqual(await page.locator('#after-game button').allTextContents(), ['Rematch', 'New game like this']);
  // Another player's offer (issue 31, item 5): a button that joins its table.
  await page.evaluate(() => window.citadel.receive({ type: 'rematch', code: 'Q8PKMA', from: 'Bob', seat: 1 }));
  const offer = page.locator('#rematch-offer');
  await offer.waitFor({ state: 'visible' });
  assert.match(await offer.innerText(), /Bob offers a rematch/);
  assert.equal(await offer.locator('button[data-join-rematch="Q8PKMA"]').count(), 1);
  // One's own offer, passed back by the server, shows nothing.
  await page.evaluate(() => window.citadel.receive({ type: 'rematch', code: 'Q8PKMB', from: 'Ann', seat: 0 }));
  assert.equal(await offer.locator('button[data-join-rematch="Q8PKMB"]').count(), 0);
});
