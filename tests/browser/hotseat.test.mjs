// Hotseat (issue 15, item 4), on a real Citadel server (`CITADEL_URL`):
// one page holds both corporation seats of a game against the AI Dark
// Legion ("Add a player on this device" in the lobby) and the two players
// pass the device. The game is played by clicking, into round 4 (or to its end), through
// the "Hand the device to …" screen between the seats.
//
// What must never happen: another seat's secrets in the page. After every
// step the test reads, in one go, what each seat of the page may see
// (`window.citadel.hotseat`: its hand, 1993 two-use cards and secondary mission, kept in
// memory) and the whole DOM, and checks that
// - while the hand-over screen or the neutral view is shown, no seat's
//   Doomtrooper cards (`#hand [data-card]`, the 1993 ones `[data-two-use]`)
//   nor secondary mission (its name,
//   anywhere in the page: the panel, the decision, the log) are in the DOM;
// - while a seat is shown, the hand in the DOM is exactly that seat's, and
//   no other seat's secondary mission is anywhere in the DOM.
//
// The mission is the first playable one with secondary missions (from
// `GET /api/content`), so both secrets exist to be hidden. Nothing here
// depends on the edition: the 1993 missions will do when they are playable.
//
// Like the other board-client files this runs once web-client/index.html
// carries the marker `data-client="citadel-board"`.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { Player, citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;
/** How long the two players may take to reach round 4 (or the end). */
const PLAY_MS = Number(process.env.CITADEL_HOTSEAT_MS ?? 150_000);

const { pending, check } = await boardClientTests(URL, 'hotseat');

let browser;
let content;
const unique = `${Date.now().toString(36).slice(-4)}${Math.floor(Math.random() * 1e3)}`;

before(async () => {
  if (pending) return;
  browser = await launch();
  content = await (await fetch(`${URL}/api/content`)).json();
});

after(async () => {
  await browser?.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** What the page holds for each of its seats, and what its DOM shows, read at one instant. */
async function snapshot(page) {
  return page.evaluate(() => {
    const c = window.citadel;
    const view = c.view;
    return {
      hotseat: c.hotseat,
      seat: c.seat,
      seq: c.lastSeq,
      finished: view?.phase?.phase === 'finished',
      handoverShown: !document.querySelector('#handover').hidden,
      handoverName: document.querySelector('#handover-name')?.textContent ?? '',
      cards: [...document.querySelectorAll('[data-card]:not([data-two-use])')].map((e) => e.getAttribute('data-kind')),
      // A 1993 game's two-use cards, by number.
      twoUse: [...document.querySelectorAll('[data-two-use]')].map((e) => Number(e.getAttribute('data-two-use'))),
      handBoxShown: !document.querySelector('#hand-box').hidden,
      marks: (document.querySelector('#sides')?.textContent.match(/◎/g) ?? []).length,
      // Everything in the page, hidden parts included.
      text: document.documentElement.textContent,
      html: document.documentElement.innerHTML,
    };
  });
}

/** A secondary mission's words as the client writes them (text.js `secondaryName`). */
function secondaryWords(n) {
  const c = content.secondary?.find((s) => s.number === n);
  return c ? `#${n} ${c.name}` : `secondary mission #${n}`;
}

/**
 * The check of the file's header on one snapshot. Returns how many secrets
 * of hidden seats the page held at that moment (so the test can tell it
 * checked something real).
 */
function assertNoOtherSecrets(snap, where) {
  const shown = snap.hotseat.seats.find((s) => s.shown) ?? null;
  const blocked = snap.handoverShown || !shown;
  const mine = new Set(shown && !blocked ? [shown.secondary, ...(shown.secondary_offer ?? [])].filter((x) => x !== null) : []);
  let secrets = 0;
  for (const seat of snap.hotseat.seats) {
    if (!blocked && seat === shown) continue;
    secrets += (seat.hand?.length ?? 0) + (seat.cards?.length ?? 0) + (seat.secondary !== null ? 1 : 0);
    if (snap.finished) continue; // secondary missions are revealed at the end (SET-10)
    for (const n of [seat.secondary, ...(seat.secondary_offer ?? [])]) {
      if (n === null || mine.has(n)) continue;
      const words = secondaryWords(n);
      assert.ok(!snap.text.includes(words) && !snap.html.includes(words),
        `${where}: seat ${seat.seat}'s secondary mission "${words}" is in the page`);
    }
  }
  if (blocked) {
    assert.deepEqual(snap.cards, [], `${where}: no Doomtrooper card in the page while no seat is shown`);
    assert.deepEqual(snap.twoUse, [], `${where}: no 1993 two-use card in the page while no seat is shown`);
    assert.equal(snap.handBoxShown, false, `${where}: no hand box while no seat is shown`);
    if (!snap.finished) assert.equal(snap.marks, 0, `${where}: no secondary mission marked in the panel`);
  } else {
    assert.deepEqual(snap.cards, shown.hand ?? [], `${where}: the page shows exactly ${shown.name}'s hand`);
    assert.deepEqual(snap.twoUse, shown.cards ?? [], `${where}: the page shows exactly ${shown.name}'s two-use cards`);
    if (!snap.finished) assert.ok(snap.marks <= (shown.secondary !== null ? 1 : 0), `${where}: only ${shown.name}'s secondary is marked`);
  }
  return secrets;
}

check('hotseat: two corporations on one page pass the device; no seat sees another seat\'s hand', async () => {
  const who = await person(browser, 'hotseat');
  const { page } = who;
  const mission = content.missions.find((m) => m.playable && m.secondary) ?? content.missions.find((m) => m.playable);
  assert.ok(mission, 'a playable mission');
  const [alice, bob] = [`Ann${unique}`, `Ben${unique}`];

  // Home: a two-seat game against the AI Dark Legion.
  await page.goto(URL);
  await until('the mission picker', async () => (await page.locator(`form#create select[name=mission] option[value="${mission.id}"]`).count()) === 1);
  await page.selectOption('form#create select[name=mission]', mission.id);
  await page.fill('form#create [name=name]', alice);
  await page.fill('form#create [name=seats]', '2');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');

  // The lobby: add Bob on this device; he takes the second seat.
  assert.ok(await page.locator('#add-local').isVisible(), 'the lobby offers "Add a player on this device"');
  assert.ok(await page.locator('#local-seats').isHidden(), 'no seat switcher with one seat');
  await page.fill('#add-local [name=name]', bob);
  await page.click('#add-local button[type=submit]');
  await until('Bob in seat 2', async () => ((await page.locator('#seats tr[data-seat="1"]').textContent()) ?? '').includes(bob));
  await page.locator('#local-seats').waitFor({ state: 'visible' });
  assert.deepEqual(await page.locator('#local-seats button').allTextContents(), [alice, bob], 'both players of this device');
  assert.ok(await page.locator('#add-local').isHidden(), 'no open seat left to add');
  assert.match(await page.locator('#seats tr[data-seat="1"]').textContent(), /on this device/);
  assert.match(await page.locator('#lobby-options').textContent(), /· 0 watching$/, 'the neutral view is not counted as a spectator');
  await shot(page, 'hotseat-lobby');

  // Each player of the device chooses a corporation and gets ready.
  for (const [seat, corp] of [[0, 'bauhaus'], [1, 'capitol']]) {
    await page.click(`#local-seats button[data-local-seat="${seat}"]`);
    await until(`seat ${seat} shown`, async () => (await citadelState(page)).seat === seat);
    await page.click(`button[data-corp=${corp}]`);
    await until(`${corp} taken`, async () => new RegExp(corp, 'i').test((await page.locator(`#seats tr[data-seat="${seat}"]`).textContent()) ?? ''));
    await page.click('#ready');
    await until(`seat ${seat} ready`, async () => /ready/.test((await page.locator(`#seats tr[data-seat="${seat}"]`).textContent()) ?? ''));
  }
  // Bob is shown, Alice is the host: the host's Start is still offered.
  await page.locator('#start').waitFor({ state: 'visible' });
  await page.click('#start');

  // The game: the hand-over screen first, whoever acts first.
  await page.locator('#handover').waitFor({ state: 'visible', timeout: 20_000 });
  await shot(page, 'hotseat-handover');

  const drivers = new Map([[0, new Player({ label: alice, page })], [1, new Player({ label: bob, page })]]);
  const handedTo = [];
  const moves = new Map([[0, 0], [1, 0]]);
  let checks = 0;
  let secretsHeld = 0;
  let lastHandover = null;
  const deadline = Date.now() + PLAY_MS;
  for (;;) {
    const snap = await snapshot(page);
    secretsHeld += assertNoOtherSecrets(snap, `seq ${snap.seq}`);
    checks += 1;
    const view = (await citadelState(page)).view;
    if (snap.finished || (view?.round ?? 0) >= 4) break;
    assert.ok(Date.now() < deadline, `round 4 within ${PLAY_MS} ms (round ${view?.round}, handed over ${handedTo.length} times)`);

    if (snap.handoverShown) {
      const to = snap.hotseat.handover;
      const seat = snap.hotseat.seats.find((s) => s.seat === to);
      assert.ok(seat, `the hand-over screen waits for a seat of this page (${to})`);
      assert.equal(snap.handoverName, seat.name, 'it names the player');
      assert.equal(snap.hotseat.neutral, true, 'behind it: the neutral view');
      if (lastHandover !== snap.seq) handedTo.push(to);
      lastHandover = snap.seq;
      await page.click('#handover-go');
      await until(`${seat.name} to be shown`, async () => {
        const h = await page.evaluate(() => window.citadel.hotseat);
        return h.handover !== to || h.seats.some((s) => s.seat === to && s.shown);
      });
      continue;
    }
    const shown = snap.hotseat.seats.find((s) => s.shown);
    const s = await citadelState(page);
    if (!shown || !s.legal.some((c) => c.type !== 'set_allow_pass')) {
      // The AI's turn (the neutral view), or the shown seat's view is catching up.
      await sleep(100);
      continue;
    }
    const done = await drivers.get(shown.seat).act().catch(async (e) => {
      // The screen changed under the click (a hand-over came): look again.
      if ((await snapshot(page)).handoverShown) return null;
      await shot(page, 'hotseat-failed');
      console.log('hotseat failure:', JSON.stringify(await page.evaluate(() => {
        const c = window.citadel;
        return { seat: c.seat, seq: c.lastSeq, round: c.view?.round, phase: c.view?.phase, to_act: c.view?.to_act, pending: c.view?.pending,
          legal: c.legal.map((x) => x.type), hotseat: c.hotseat, places: document.querySelectorAll('.place-target').length,
          attacks: document.querySelectorAll('.attack-target').length, decision: document.querySelector('#decision').textContent };
      })));
      throw e;
    });
    if (done?.kind === 'move') moves.set(shown.seat, moves.get(shown.seat) + 1);
  }
  await shot(page, 'hotseat-round-4');

  const view = (await citadelState(page)).view;
  assert.ok(view.round >= 4 || view.phase.phase === 'finished', 'well into the game');
  for (const seat of [0, 1]) {
    assert.ok(handedTo.filter((s) => s === seat).length >= 2, `the device was handed to seat ${seat} again and again: ${handedTo.join(',')}`);
    assert.ok(moves.get(seat) >= 2, `seat ${seat} moved by clicking (${moves.get(seat)} moves)`);
  }
  assert.ok(secretsHeld > 0, `the page held hidden seats' secrets while checked (${checks} checks)`);
  const teams = view.teams.map((t) => t.seat).sort();
  assert.deepEqual(teams, [0, 1], 'two corporations');
  assert.equal(view.dark_legion.seat, null, 'the AI plays the Dark Legion');

  // A reload brings every seat of the device back, behind the hand-over screen.
  await page.reload();
  await until('both seats back', async () =>
    (await page.evaluate(() => window.citadel.hotseat.seats.filter((s) => s.seat !== null).length)) === 2, 20_000);
  if (!view.phase || view.phase.phase !== 'finished') {
    await until('a hand-over or the neutral view after the reload', async () => {
      const snap = await snapshot(page);
      try { assertNoOtherSecrets(snap, 'after the reload'); } catch (e) { console.log('reload failure', JSON.stringify({  h: snap.hotseat, cards: snap.cards, seat: snap.seat, seq: snap.seq })); throw e; }
      return snap.handoverShown || snap.hotseat.neutral;
    }, 20_000);
  }
  await page.context().close();
});
