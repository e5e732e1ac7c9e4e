// The CE weapon attacks (ce.md WPN-7) and mission tokens in the web client, on a real Citadel
// server (`CITADEL_URL`): in a game at starting rank 6 the draft offers the
// Grenade Launcher; drafted onto the Plasma Carbine carrier, it shows on the
// figure; once the server offers `attack_square` the page offers it as one
// button that highlights exactly the offered squares, and a click on one
// fires the grenade, explained in the log.
//
// Like missions.test.mjs these run once web-client/index.html carries the
// board client's marker `data-client="citadel-board"`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SCREENSHOT_DIR, boardClientTests, createSoloGame, launch, person, shot, until } from './lib/harness.mjs';
import { PASS_LIKE, Player, citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;
/** How long the game is played waiting for a grenade to be offered. */
const PLAY_MS = Number(process.env.CITADEL_GRENADE_MS ?? 70_000);

const { pending, check } = await boardClientTests(URL, 'weapon');

let browser;
let missions = [];
const unique = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 1e3)}`;

before(async () => {
  if (pending) return;
  browser = await launch();
  missions = (await (await fetch(`${URL}/api/content`)).json()).missions;
});

after(async () => {
  await browser?.close();
});

const words = (id) => String(id).split(/[_\s]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
const personName = (name) => words(String(name).replace(/^[a-z]+-/, '').split('#')[0]);

check('rank 6: the Grenade Launcher is drafted onto the Plasma Carbine, and its attack is offered by square', async (t) => {
  const { page } = await person(browser, 'grenadier');
  await page.goto(URL);
  const m = missions.find((x) => x.playable);
  assert.ok(m, 'a playable mission');
  await createSoloGame(page, m, 6, `Gren${unique}`, 'bauhaus');

  // The draft: the Grenade Launcher, for the Plasma Carbine's carrier.
  let s = await citadelState(page);
  await until('the equipment draft', async () => {
    s = await citadelState(page);
    return s.legal.some((c) => c.type === 'pick_equipment');
  });
  const team = s.view.teams.find((x) => x.seat === s.seat);
  const carrier = s.view.figures.find((f) => team.figures.includes(f.id) && f.weapon === 'plasma_carbine');
  assert.ok(carrier, 'a Doomtrooper with the Plasma Carbine');
  const offer = s.legal.find((c) => c.type === 'pick_equipment' && c.item === 'grenade_launcher' && c.figure === carrier.id);
  assert.ok(offer, `rank 6 offers the Grenade Launcher for ${carrier.name}`);
  const button = page.locator('#decision button[data-option]', { hasText: new RegExp(`Grenade Launcher .*for ${personName(carrier.name)}$`) });
  assert.equal(await button.count(), 1, 'one button drafts it for the carrier');
  await button.click();
  await until('the launcher on the carbine', async () =>
    (await citadelState(page)).view.figures.find((f) => f.id === carrier.id)?.items.includes('grenade_launcher'));
  assert.match(await page.locator('#log').innerText(), /gives .* a Grenade Launcher\./);

  // Play (passing decisions, moving, attacking) until the server offers a grenade.
  const driver = new Player({ label: 'grenadier', page });
  const deadline = Date.now() + PLAY_MS;
  let grenades = [];
  for (;;) {
    s = await citadelState(page);
    grenades = s.legal.filter((c) => c.type === 'attack_square');
    if (grenades.length) break;
    if (s.view?.phase?.phase === 'finished' || Date.now() > deadline) break;
    if (s.legal.some((c) => c.type !== 'set_allow_pass')) await driver.act();
    else await new Promise((r) => setTimeout(r, 150));
  }
  if (!grenades.length) {
    // Reaching grenade range depends on the dice and the AI's moves.
    t.skip(`no enemy came into grenade range within ${PLAY_MS} ms (round ${s.view?.round}): the draft part passed`);
    await page.context().close();
    return;
  }

  // One button for the grenade; it highlights exactly the offered squares.
  const me = page.locator(`[data-figure="${carrier.id}"][data-mine="true"]`).first();
  if (!(await me.evaluate((e) => e.classList.contains('selected')))) await me.click();
  const fire = page.locator('#actions button.act.square.attack_square');
  await fire.waitFor({ timeout: 5_000 });
  assert.match(await fire.innerText(), /fire the Grenade Launcher at a square…$/);
  await fire.click();
  await page.locator('#actions .hint').waitFor();
  const offered = grenades.map((c) => `${c.square.x},${c.square.y}`).sort();
  const shown = (await page.locator('#board .item-target[data-square]').evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-square')))).sort();
  assert.deepEqual(shown, offered, 'the highlighted squares are the offered ones');
  await shot(page, 'grenade-aim');
  const before = s.seq;
  const aim = offered[0];
  // A creature may stand on the square: clicking it aims there too.
  const on = s.view.figures.find((f) => f.place.at === 'board' && `${f.place.square.x},${f.place.square.y}` === aim);
  if (on) await page.locator(`[data-figure="${on.id}"]`).first().click();
  else await page.locator(`#board .item-target[data-square="${aim}"]`).click();
  // A failed die opens a Heroic Luck window before the roll is logged when
  // the hand holds that card (DTC-CE-3): answer it "pass" like a player.
  await until('the grenade roll in the log', async () => {
    const pass = page.locator('#decision button[data-option]', { hasText: PASS_LIKE });
    if (await page.locator('#decision').isVisible() && (await pass.count()) > 0) await pass.first().click().catch(() => {});
    return (await citadelState(page)).seq > before &&
      /fires a grenade at .*: rolls .* = \d+ hits?\./.test(await page.locator('#log').innerText());
  });
  await shot(page, 'grenade-fired');
  await page.context().close();
});

// Mission tokens (C1M3 terminals, C2M1 debris, C2M4 portals…) drawn by the
// page's own board.js on a small map: each kind its shape and mark, its
// state (hacked, destroyed) shown and named in the tooltip, a kind the
// client does not know still drawn with its name, a carrier badged, and
// the legend rows built from what is on the board.
check('mission tokens are drawn by kind and state, unknown kinds generically, with a legend', async () => {
  const { page } = await person(browser, 'tokens');
  await page.goto(URL);
  const got = await page.evaluate(async () => {
    const { Board, tokenLegend } = await import('/games/siege/board.js');
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', '480');
    svg.setAttribute('height', '420');
    svg.id = 'token-fixture';
    document.body.prepend(svg);
    const squares = [];
    for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) squares.push({ at: { x, y }, tile: 0, glyph: '.' });
    const board = new Board(svg);
    board.setMap({ width: 4, height: 3, squares, walls: [], doors: [], entrances: [] });
    const mission = (x, y, kind, extra = {}) => ({ square: { x, y }, kind: { token: 'mission', kind, name: null, ...extra } });
    const view = {
      active: null, tiles: [{ name: 'Test Hall', smoke: false, face_down: 0, marked: [] }], doors: [],
      teams: [{ team: 0, corporation: 'bauhaus', figures: [1] }], dark_legion: { band: 1 },
      tokens: [mission(0, 0, 'terminal', { name: 'relay1', hacked: true }), mission(1, 0, 'portal'), mission(2, 0, 'debris'),
        mission(3, 0, 'container', { looted: true }), mission(0, 1, 'objective', { name: 'soldier' }), mission(1, 1, 'throne_of_bones'),
        { square: { x: 2, y: 1 }, kind: { token: 'trap', owner: null } }],
      destroyed_tokens: [mission(3, 1, 'terminal', { name: 'relay2', hacked: false })],
      figures: [{ id: 1, name: 'bauhaus-max_steiner', kind: { kind: 'doomtrooper', team: 0 }, place: { at: 'board', square: { x: 0, y: 2 } },
        health: 2, actions_used: 0, actions_allowed: 2, activation: 'ready', weapon: null, items: [], carrying: ['soldier'] }],
    };
    const none = new Set();
    board.render(view, { mine: none, selected: null, moveTargets: new Map(), squareTargets: new Map(), squareClass: '', attackTargets: none,
      figureChoices: none, entranceChoices: none, tileChoices: none });
    const tokens = [...svg.querySelectorAll('.token.mission')].map((g) => ({
      kind: g.getAttribute('data-token'), state: g.getAttribute('data-token-state'), cls: g.getAttribute('class'),
      mark: g.querySelector('text')?.textContent, title: g.querySelector('title')?.textContent, shapes: g.querySelectorAll('.shape').length,
    }));
    return { tokens, traps: svg.querySelectorAll('.token.trap').length, badge: svg.querySelector('[data-figure="1"] .carrying')?.getAttribute('data-carrying'),
      figTitle: svg.querySelector('[data-figure="1"] title')?.textContent, legend: tokenLegend(view).map((r) => r.text) };
  });
  const by = (kind, state = '') => got.tokens.find((t) => t.kind === kind && t.state === state);
  assert.equal(got.tokens.length, 7, 'six on the board, one destroyed');
  assert.ok(got.tokens.every((t) => t.shapes === 1), 'each token has its shape');
  assert.deepEqual([by('terminal', 'hacked').mark, by('terminal', 'hacked').title], ['Te', 'Terminal "Relay1" (hacked)']);
  assert.match(by('terminal', 'hacked').cls, /\bis-hacked\b/);
  assert.equal(by('portal').title, 'Portal');
  assert.equal(by('debris').mark, 'Db');
  assert.equal(by('container', 'looted').title, 'Container (looted)');
  assert.equal(by('objective').title, 'Objective "Soldier"');
  assert.deepEqual([by('throne_of_bones').mark, by('throne_of_bones').title], ['Th', 'Throne Of Bones'], 'an unknown kind by its name');
  assert.match(by('terminal', 'destroyed').title, /Terminal "Relay2" — destroyed/);
  assert.equal(got.traps, 1, 'traps still drawn as before');
  assert.equal(got.badge, 'soldier');
  assert.match(got.figTitle, /carrying the Soldier/);
  assert.deepEqual(got.legend, ['Terminal (hacked)', 'Portal', 'Debris', 'Container (looted)', 'Objective', 'Throne Of Bones', 'Trap',
    'Terminal (destroyed, crossed out)', 'Objective carried by a Doomtrooper (gold badge)']);
  await page.locator('#token-fixture').screenshot({ path: `${SCREENSHOT_DIR}/mission-tokens.png` });
  await page.context().close();
});
