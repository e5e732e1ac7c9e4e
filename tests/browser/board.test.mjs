// Issue 16, the board and the cards: zoom and pan that keep clicks on the
// right square, the whole board on a phone after "Fit", moves that glide
// along their path, the last action marked, a colour-blind safe palette
// with shapes as well as colours, and every card and item explained from
// the server's content data (the draft on one 1280×800 screen).
//
// Like player.test.mjs: one real game (Alice, one seat, the AI Dark
// Legion) gives a real `view` and `map`; each test shows an edited copy
// in a fresh page through `window.citadel.receive`.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { citadelState } from './lib/driver.mjs';
import { VISIONS, closestPair } from './lib/colour.mjs';

const URL = process.env.CITADEL_URL;
const { pending, check } = await boardClientTests(URL, 'board');

const T = {};
let browser;
const clone = (x) => JSON.parse(JSON.stringify(x));
const S = 40; // board.js: one square in SVG units

before(async () => {
  if (pending) return;
  browser = await launch();
  T.alice = await person(browser, 'alice');
  const { page } = T.alice;
  await page.goto(URL);
  await page.fill('form#create [name=name]', 'Alice');
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await page.click('button[data-corp=bauhaus]');
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start').catch(() => {});
    return page.locator('#board').isVisible();
  }, 15_000, 300);
  await until('a view', async () => (await citadelState(page)).view);
  Object.assign(T, await page.evaluate(() => ({ view: window.citadel.view, map: window.citadel.staticData, lobby: window.citadel.lobby })));
  T.content = await (await fetch(`${URL}/api/content`)).json();
  // A floor square in the middle of the map with floor all round it.
  const floor = new Set(T.map.squares.filter((s) => s.glyph === '.').map((s) => `${s.at.x},${s.at.y}`));
  const around = (x, y) => [[-1, -1], [0, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [0, 1], [1, 1]].map(([dx, dy]) => ({ x: x + dx, y: y + dy }));
  const mid = { x: T.map.width / 2, y: T.map.height / 2 };
  T.centre = T.map.squares.map((s) => s.at)
    .filter((a) => floor.has(`${a.x},${a.y}`) && around(a.x, a.y).every((b) => floor.has(`${b.x},${b.y}`))
      && floor.has(`${a.x + 2},${a.y}`) && floor.has(`${a.x + 3},${a.y}`))
    .sort((a, b) => Math.hypot(a.x - mid.x, a.y - mid.y) - Math.hypot(b.x - mid.x, b.y - mid.y))[0];
  assert.ok(T.centre, 'a floor square with floor all round');
  T.around = around(T.centre.x, T.centre.y);
});

after(async () => {
  await browser?.close();
});

/** Show `view` (seat 0) with `legal` in `who`'s page, no server behind it. */
async function showState(who, { view, legal = [], map = T.map, lobby = T.lobby }) {
  const { page } = who;
  await page.goto(`${URL}/`);
  await page.locator('#home').waitFor({ state: 'visible' });
  await until('the content', () => page.evaluate(() => document.querySelectorAll('form#create select[name=mission] option').length > 1));
  await page.evaluate(({ view, map, legal, lobby }) => {
    const c = window.citadel;
    c.receive({ type: 'welcome', protocol: 3, kind: 'siege', seat: 0, token: null });
    c.receive({ type: 'lobby', lobby });
    c.receive({ type: 'snapshot', seq: 7, view, static_data: map, legal });
  }, { view, map, legal, lobby });
  await page.locator('#board').waitFor({ state: 'visible' });
}

/** Alice's first Doomtrooper on `at`, in her own turn. */
function trooperOn(at) {
  const view = clone(T.view);
  const id = view.teams[0].figures[0];
  const f = view.figures.find((x) => x.id === id);
  f.place = { at: 'board', square: at };
  f.actions_used = 0;
  f.actions_allowed = 2;
  view.round = 1;
  view.phase = { phase: 'corporation', team: view.teams[0].team };
  view.to_act = 0;
  view.pending = null;
  view.active = null;
  return { view, id };
}

const moves = (id) => T.around.map((to) => ({ type: 'move', figure: id, path: [to] }));
const viewBox = (page) => page.evaluate(() => document.querySelector('#board').getAttribute('viewBox').split(' ').map(Number));
const zoom = (page) => page.evaluate(() => Number(document.querySelector('#board').dataset.zoom));
const commands = (page) => page.evaluate(() => window.citadel.sent.filter((m) => m.type === 'command').map((m) => m.command));

/** Screen centre of an element of the board, or null. */
const centreOf = (page, selector) => page.evaluate((sel) => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return { x: r.x + r.width / 2, y: r.y + r.height / 2, w: r.width };
}, selector);

check('zoom keeps a clicked square correct: wheel, drag and pinch, then a click moves to the square under the pointer', async () => {
  const who = await person(browser, 'zoomer');
  const { page } = who;
  const { view, id } = trooperOn(T.centre);
  await showState(who, { view, legal: [...moves(id), { type: 'end_turn' }] });
  await page.locator('.move-target').first().waitFor();
  assert.equal(await zoom(page), 1, 'the whole board at first');
  const fitSquare = (await centreOf(page, `.move-target[data-square="${T.around[0].x},${T.around[0].y}"]`)).w;

  // The wheel zooms in at the pointer: the trooper stays under it.
  const fig = await centreOf(page, `#board [data-figure="${id}"] circle.body`);
  await page.mouse.move(fig.x, fig.y);
  await page.mouse.wheel(0, -600);
  await until('the wheel to zoom in', async () => (await zoom(page)) > 1.5);
  const figZoomed = await centreOf(page, `#board [data-figure="${id}"] circle.body`);
  assert.ok(Math.hypot(figZoomed.x - fig.x, figZoomed.y - fig.y) < S / 2, `the point under the wheel stays put: ${JSON.stringify([fig, figZoomed])}`);

  // A drag pans, and is no click: nothing is sent, the figure stays selected.
  const before = await viewBox(page);
  await page.mouse.move(fig.x + 5, fig.y + 40);
  await page.mouse.down();
  await page.mouse.move(fig.x - 55, fig.y + 10, { steps: 6 });
  await page.mouse.up();
  const panned = await viewBox(page);
  assert.ok(panned[0] > before[0] + 10 && panned[1] > before[1] + 5, `the drag panned: ${before} → ${panned}`);
  assert.equal(panned[2], before[2], 'a pan keeps the zoom');
  assert.deepEqual(await commands(page), [], 'a drag sends nothing');
  assert.ok(await page.locator('.move-target').count() > 0, 'the selection survives the drag');

  // Click a highlighted square where it is drawn now: the move goes there.
  const target = await page.evaluate(() => {
    const svg = document.querySelector('#board').getBoundingClientRect();
    for (const r of document.querySelectorAll('#board .move-target[data-square]')) {
      const b = r.getBoundingClientRect();
      const x = b.x + b.width * 0.3, y = b.y + b.height * 0.7; // off centre, away from the mark
      if (x > svg.left && x < svg.right && y > svg.top && y < svg.bottom) {
        const hit = document.elementFromPoint(x, y)?.closest('[data-square]')?.getAttribute('data-square');
        return { square: r.getAttribute('data-square'), x, y, hit, w: b.width };
      }
    }
    return null;
  });
  assert.ok(target, 'a highlighted square in view');
  assert.equal(target.hit, target.square, 'the square drawn under the pointer is the one hit');
  assert.ok(target.w > fitSquare * 1.5, `squares are bigger zoomed in (${fitSquare} → ${target.w} px)`);
  await page.mouse.click(target.x, target.y);
  await until('the move to be sent', async () => (await commands(page)).length > 0);
  const [sent] = await commands(page);
  assert.equal(sent.type, 'move');
  assert.equal(`${sent.path.at(-1).x},${sent.path.at(-1).y}`, target.square, 'the move goes to the clicked square');
  await shot(page, 'board-zoomed-click');

  // Two fingers spreading apart zoom in; "Fit" shows the whole board again.
  await page.click('#zoom-fit');
  assert.equal(await zoom(page), 1);
  const pinched = await page.evaluate(() => {
    const svg = document.querySelector('#board');
    const r = svg.getBoundingClientRect();
    const cx = r.x + r.width / 2, cy = r.y + r.height / 2;
    const ev = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
      pointerId: id, pointerType: 'touch', isPrimary: id === 11, clientX: x, clientY: cy, bubbles: true, cancelable: true, button: 0 }));
    ev('pointerdown', 11, cx - 20); ev('pointerdown', 12, cx + 20);
    for (let k = 1; k <= 6; k++) { ev('pointermove', 11, cx - 20 - 10 * k); ev('pointermove', 12, cx + 20 + 10 * k); }
    ev('pointerup', 11, cx - 80); ev('pointerup', 12, cx + 80);
    return Number(svg.dataset.zoom);
  });
  assert.ok(pinched > 2.5, `the pinch zoomed in: ${pinched}`);
  await page.click('#zoom-in');
  assert.ok((await zoom(page)) > pinched, 'the + button zooms further');
  await who.context.close();
});

check('phone viewport shows the whole board after fit', async () => {
  const phone = await person(browser, 'phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const { page } = phone;
  const { view, id } = trooperOn(T.centre);
  await showState(phone, { view, legal: [...moves(id), { type: 'end_turn' }] });
  const outside = () => page.evaluate(() => {
    const b = document.querySelector('#board').getBoundingClientRect();
    return [...document.querySelectorAll('#board rect.sq:not(.offboard)')].filter((r) => {
      const q = r.getBoundingClientRect();
      return q.left < b.left - 1 || q.right > b.right + 1 || q.top < b.top - 1 || q.bottom > b.bottom + 1;
    }).length;
  });
  await page.click('#zoom-in');
  await page.click('#zoom-in');
  assert.ok((await zoom(page)) > 2, 'zoomed in');
  assert.ok((await outside()) > 0, 'zoomed in, part of the board is out of view');
  await page.click('#zoom-fit');
  assert.equal(await zoom(page), 1, 'fit: zoom 1');
  const box = await page.locator('#board').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390 + 0.5, `the board fits the phone's width: ${JSON.stringify(box)}`);
  assert.ok(box.width > 390 * 0.85, `fit to the width: ${box.width} px of 390`);
  assert.equal(await outside(), 0, 'every square of the map is in view');
  await shot(page, 'board-phone-fit');
  await phone.context.close();
});

check('moves glide along their path, except for a burst of events or with reduced motion', async () => {
  const who = await person(browser, 'glider');
  const { page } = who;
  const c = T.centre;
  const path = [c, { x: c.x + 1, y: c.y }, { x: c.x + 2, y: c.y }, { x: c.x + 3, y: c.y }];
  const { view, id } = trooperOn(path[0]);
  await showState(who, { view });
  const moved = clone(view);
  moved.figures.find((f) => f.id === id).place = { at: 'board', square: path[3] };
  const steps = (seq) => [
    { seq, event: { type: 'activated', figure: id } },
    ...[1, 2, 3].map((k) => ({ seq: seq + k, event: { type: 'stepped', figure: id, from: path[k - 1], to: path[k] } })),
  ];
  // Where the figure is drawn (in squares), and whether it is gliding.
  await page.evaluate(() => {
    window.whereFigure = (id) => {
      const g = document.querySelector(`#board [data-figure="${id}"]`);
      const c = g.querySelector('circle.body').getBoundingClientRect();
      const svg = document.querySelector('#board');
      const p = new DOMPoint(c.x + c.width / 2, c.y + c.height / 2).matrixTransform(svg.getScreenCTM().inverse());
      return { x: p.x / 40 - 0.5, running: g.getAnimations().length, flag: g.dataset.animating ?? null };
    };
  });
  const where = () => page.evaluate((id) => window.whereFigure(id), id);
  // Sampled in the page one frame after the batch, not after a fixed wait:
  // on a loaded machine a wait may outlast the whole glide.
  const during = await page.evaluate(async ({ moved, events, id }) => {
    window.citadel.receive({ type: 'events', view: moved, legal: [], events });
    await new Promise((r) => requestAnimationFrame(() => r()));
    return window.whereFigure(id);
  }, { moved, events: steps(8), id });
  // The client's own record says whether it started a glide; the frame
  // sample can only see it mid-way when that frame came in time (on a
  // loaded machine one frame may outlast the whole glide).
  const records = await page.evaluate(() => ({ glides: window.citadel.glides, hidden: document.querySelector('#game')?.hidden, reduced: matchMedia('(prefers-reduced-motion: reduce)').matches }));
  const started = records.glides.at(-1);
  assert.equal(started?.animated, 1, `the figure glides: ${JSON.stringify(records)}`);
  assert.equal(started.burst, false);
  if (during.running === 1) {
    assert.equal(during.flag, 'true');
    assert.ok(during.x > path[0].x - 0.01 && during.x < path[3].x - 0.5, `mid-way along the path, not yet at the end: x ${during.x}`);
  }
  await until('the glide to end', async () => (await where()).running === 0, 3_000);
  const done = await where();
  assert.ok(Math.abs(done.x - path[3].x) < 0.05, `at the end of its path: ${done.x}`);
  assert.equal(done.flag, null);

  // A burst: two batches at once; the second shows the board as it is.
  const back = clone(view);
  await page.evaluate(({ back, moved, a, b }) => {
    window.citadel.receive({ type: 'events', view: back, legal: [], events: a });
    window.citadel.receive({ type: 'events', view: moved, legal: [], events: b });
  }, { back, moved, a: [{ seq: 12, event: { type: 'stepped', figure: id, from: path[3], to: path[0] } }], b: steps(13) });
  let log = await page.evaluate(() => window.citadel.glides);
  assert.equal(log.at(-1).burst, true, 'the second batch came in a burst');
  assert.equal(log.at(-1).animated, 0);
  assert.equal((await where()).running, 0, 'no glide in a burst');

  // Reduced motion: no glide at all.
  await page.waitForTimeout(400);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.evaluate(({ moved, events }) => window.citadel.receive({ type: 'events', view: moved, legal: [], events }), { moved, events: [
    { seq: 17, event: { type: 'stepped', figure: id, from: path[2], to: path[3] } }] });
  log = await page.evaluate(() => window.citadel.glides);
  assert.deepEqual([log.at(-1).reduced, log.at(-1).animated, log.at(-1).burst], [true, 0, false]);
  assert.equal((await where()).running, 0);
  await who.context.close();
});

check('the last action is highlighted: a halo on who acted, a burst on whom it struck, the squares of an area attack', async () => {
  const who = await person(browser, 'watcher');
  const { page } = who;
  const { view, id } = trooperOn(T.centre);
  const creature = view.figures.find((f) => f.kind.kind === 'creature');
  creature.place = { at: 'board', square: T.around[4] };
  await showState(who, { view });
  assert.equal(await page.locator('#board [data-last]').count(), 0, 'nothing marked before any action');
  await page.evaluate(({ view, a, t }) => window.citadel.receive({ type: 'events', view, legal: [], events: [
    { seq: 8, event: { type: 'attack_rolled', attacker: a, target: t, attack: 'close_combat', hits: 0,
      dice: [{ color: 'white', face: 2, hits: 0, reroll: false }] } },
    { seq: 9, event: { type: 'damage', figure: t, amount: 0, health: 1 } },
  ] }), { view, a: id, t: creature.id });
  assert.equal(await page.locator(`#board [data-figure="${id}"] [data-last=actor]`).count(), 1, 'the attacker has the halo');
  assert.equal(await page.locator(`#board [data-figure="${creature.id}"] [data-last=target]`).count(), 1, 'the target has the burst');
  assert.equal(await page.locator('#board [data-last=actor]').count(), 1, 'one actor');
  await shot(page, 'board-last-action');
  const squares = [T.around[4], T.around[5], T.around[6]];
  await page.evaluate(({ view, a, squares }) => window.citadel.receive({ type: 'events', view, legal: [], events: [
    { seq: 10, event: { type: 'area_attack_rolled', attacker: a, attack: 'firearm', squares, hits: 1, dice: [] } },
  ] }), { view, a: id, squares });
  assert.equal(await page.locator('#board [data-last=square]').count(), 3, 'the area attack\'s squares');
  assert.equal(await page.locator('#board [data-last=target]').count(), 0, 'the old target is no longer marked');
  await who.context.close();
});

check('a colour-blind safe palette: corporations and highlights stay apart in deuteranopia and protanopia, and have shapes too', async () => {
  // The simulation tells a classic red and green apart only for normal vision.
  assert.ok(closestPair({ red: '#d62728', green: '#2ca02c' }, 'deuteranopia').distance < 15, 'the check can fail');
  const who = await person(browser, 'palette');
  const { page } = who;
  const { view, id } = trooperOn(T.centre);
  const creature = view.figures.find((f) => f.kind.kind === 'creature');
  creature.place = { at: 'board', square: { x: T.centre.x + 3, y: T.centre.y } };
  const attack = { type: 'attack', figure: id, target: creature.id, attack: 'firearm' };
  await showState(who, { view, legal: [...moves(id), attack] });
  const colours = await page.evaluate(async () => {
    const t = await import('/games/siege/text.js');
    const svg = document.querySelector('#board');
    const probe = (cls, tag, prop) => {
      const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      g.setAttribute('class', cls.g ?? '');
      const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
      e.setAttribute('class', cls.e);
      g.append(e);
      svg.append(g);
      const v = getComputedStyle(e)[prop];
      g.remove();
      return v;
    };
    return {
      sides: { ...t.CORP_COLOR, dark_legion: t.DL_COLOR },
      highlights: {
        move: probe({ e: 'sq move-target' }, 'rect', 'fill'),
        place: probe({ e: 'sq place-target' }, 'rect', 'fill'),
        item: probe({ e: 'sq item-target' }, 'rect', 'fill'),
        attack: probe({ g: 'fig attack-target', e: 'ring' }, 'circle', 'stroke'),
        can_act: probe({ g: 'fig can-act', e: 'ring' }, 'circle', 'stroke'),
        active: probe({ g: 'fig active', e: 'ring' }, 'circle', 'stroke'),
      },
    };
  });
  for (const [what, set] of Object.entries(colours)) {
    for (const vision of VISIONS) {
      const { distance, pair } = closestPair(set, vision);
      assert.ok(distance >= 15, `${what} in ${vision}: ${pair} are too close (ΔE ${distance.toFixed(1)})`);
    }
  }
  // Shapes as well as colours.
  assert.equal(await page.locator('#board .target-mark.move-target circle').count(), T.around.length, 'a dot on each square to move to');
  assert.equal(await page.locator(`#board [data-figure="${creature.id}"].attack-target path.aim`).count(), 1, 'a cross-hair on the target');
  const letters = await page.locator('#board [data-figure] text').allTextContents();
  assert.ok(letters.length > 0 && letters.every((l) => l.trim().length > 0), 'every figure has letters');
  await shot(page, 'board-palette');
  await who.context.close();
});

check('a 1993 card played on two sectors asks for the sector, then the neighbour it goes to', async () => {
  const who = await person(browser, 'interferer');
  const { page } = who;
  const view = clone(T.view);
  // A 1993 game (the edition follows the mission), in Alice's own turn,
  // her team holding card 6 (Command Interference / Hurt Leg).
  view.mission = 'classic-training';
  view.round = 1;
  view.phase = { phase: 'corporation', team: view.teams[0].team };
  view.to_act = 0;
  view.pending = null;
  view.active = null;
  view.teams[0].hand = [];
  view.teams[0].cards = [6];
  view.teams[0].cards_size = 1;
  assert.ok(view.tiles.length >= 3, 'three sectors to choose among');
  const play = (tile, to) => ({ type: 'play_two_use', card: 6, card_use: 'command_interference', tile, to_tile: to });
  const legal = [play(0, 1), play(0, 2), play(2, 1), { type: 'end_turn' }];
  await showState(who, { view, legal });
  const use = page.locator('#hand [data-two-use="6"] [data-use="command_interference"]');
  await use.locator('button[data-play-use]').click();
  const from = () => use.locator('.use-targets button[data-from-tile]').evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-from-tile'))));
  const to = () => use.locator('.use-targets button[data-to-tile]').evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-to-tile'))));
  assert.deepEqual(await from(), [0, 2], 'one button per sector a card may be taken from');
  assert.deepEqual(await to(), [], 'no neighbour before a sector is chosen');
  await use.locator('button[data-from-tile="0"]').click();
  assert.deepEqual(await to(), [1, 2], 'then the sectors it may go to from there');
  await shot(page, 'card-two-sectors');
  await use.locator('button[data-from-tile="2"]').click();
  assert.deepEqual(await to(), [1], 'choosing another sector shows its neighbours');
  await use.locator('button[data-from-tile="0"]').click();
  await use.locator('button[data-to-tile="2"]').click();
  assert.deepEqual(await commands(page), [play(0, 2)], 'the chosen pair is the command sent');
  await who.context.close();
});

check('cards and items are explained from the content: the draft fits 1280×800 with rank, cost and effect', async () => {
  const who = await person(browser, 'drafter');
  const { page } = who;
  const view = clone(T.view);
  view.round = 0;
  view.phase = { phase: 'equipment', team: view.teams[0].team };
  view.to_act = 0;
  view.pending = null;
  view.teams[0].credits = 13;
  view.teams[0].hand = ['heroic_luck', 'dud_round'];
  const [a, b] = view.teams[0].figures;
  // Every card of the bunker offered to both Doomtroopers: the largest draft.
  const ids = [...T.content.weapons.map((w) => w.id), ...T.content.equipment.map((e) => e.id)];
  const legal = [{ type: 'pass_equipment' }, ...ids.flatMap((item) => [a, b].map((figure) => ({ type: 'pick_equipment', figure, item })))];
  await showState(who, { view, legal });
  const draft = page.locator('#decision.draft');
  await draft.waitFor({ state: 'visible' });
  await until('the draft cards', async () => (await page.locator('.draft-item').count()) === ids.length);
  await shot(page, 'draft-1280x800');
  const fits = await page.evaluate(() => {
    const d = document.querySelector('#decision');
    const r = d.getBoundingClientRect();
    return { bottom: r.bottom, top: r.top, scroll: d.scrollHeight - d.clientHeight, right: r.right };
  });
  assert.ok(fits.top >= 0 && fits.bottom <= 800 && fits.right <= 1280, `the draft is on the screen: ${JSON.stringify(fits)}`);
  assert.ok(fits.scroll <= 1, `every card shows without scrolling (${fits.scroll} px more)`);
  for (const def of [...T.content.weapons, ...T.content.equipment]) {
    const card = page.locator(`.draft-item[data-item="${def.id}"]`);
    const text = await card.innerText();
    assert.match(text, new RegExp(def.name), def.id);
    assert.match(text, new RegExp(`rank ${def.rank} · ${def.cost} credits?\\b`), `${def.id}: rank and cost`);
    assert.ok(text.includes(def.text), `${def.id}: its effect from the content`);
    assert.equal(await card.locator('button[data-option]').count(), 2, `${def.id}: one button per Doomtrooper`);
  }
  await page.locator('.draft-item[data-item="laser_sight"] button[data-option]').first().click();
  const sent = await page.evaluate(() => window.citadel.sent.filter((m) => m.type === 'command').map((m) => m.command));
  assert.deepEqual(sent, [{ type: 'pick_equipment', figure: a, item: 'laser_sight' }]);

  // The hand: each card with its effect.
  const hand = await page.locator('#hand').innerText();
  for (const kind of ['heroic_luck', 'dud_round']) {
    const def = T.content.dt_cards.find((c) => c.kind === kind);
    assert.ok(hand.includes(def.name) && hand.includes(def.text), `${kind} in the hand with its effect`);
  }
  // Events, door cards and force cards in the log, with their effects.
  const ev = T.content.events.find((e) => e.number === 5);
  const door = T.content.door_cards.find((d) => d.kind === 'jammed_lock');
  await page.evaluate(({ view, door }) => window.citadel.receive({ type: 'events', view, legal: [], events: [
    { seq: 8, event: { type: 'event_drawn', card: 5, final_round: false } },
    { seq: 9, event: { type: 'door_card', card: door } },
    { seq: 10, event: { type: 'force_card_drawn', card: 42 } },
  ] }), { view, door: door.kind });
  const log = await page.locator('#log').innerText();
  assert.ok(log.includes(`Event: ${ev.name} — ${ev.text}`), `the event's effect: ${log}`);
  assert.ok(log.includes(`Door card: ${door.name} — ${door.text}`), 'the door card\'s effect');
  assert.match(log, /Force card drawn: Advance Guard \(1 Razide or 1 Centurion; stop drawing\)/);

  // The rules reference lists every Doomtrooper card and door card with its effect.
  await page.click('#rules-open');
  await page.locator('#rules').waitFor({ state: 'visible' });
  const rules = await page.locator('#rules').innerText();
  for (const def of [...T.content.dt_cards, ...T.content.door_cards]) assert.ok(rules.includes(def.text), `the rules reference explains ${def.name}`);
  const mission = T.content.missions.find((m) => m.id === view.mission);
  assert.equal(await page.locator('#rules-events tbody tr').count(), mission.events.length, 'the mission\'s events');
  await page.click('#rules-close');

  // None of these words is written in the page's own files: they come from the server.
  const files = await Promise.all(['/', '/app.js', '/games/siege/game.js', '/games/siege/slots.js', '/games/siege/text.js', '/games/siege/board.js'].map((f) => fetch(`${URL}${f}`).then((r) => r.text())));
  for (const def of [...T.content.equipment, ...T.content.dt_cards, ...T.content.events, ...T.content.door_cards]) {
    assert.ok(!files.some((f) => f.includes(def.text)), `"${def.text}" is not hard-coded in the page`);
  }
  await who.context.close();
});
