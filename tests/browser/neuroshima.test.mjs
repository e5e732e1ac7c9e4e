// Neuroshima Hex in the browser (issue 30, item 5): the game's client
// module on a real server (`CITADEL_URL`), played by CLICKING the page the
// way a person does. Ann creates a Neuroshima table from the generic
// create form with its bots set to the search bot, takes the Doomsday
// Machine in the lobby and seats a bot (Moloch, the second seat's default
// army); Eve watches from a second
// browser context. Ann places her HQ and her tiles (a tile in hand, a
// hex, turned with the wheel, the keys or the buttons, then confirmed),
// answers the discard, plays Battle tiles and the other instants, uses her
// HQ's turn, reloads the page halfway and goes on, to the end of the game.
// Eve sees every battle played back phase by phase with its shots drawn.
// A last test plays at a phone's size by tapping.
//
// The page is read only to know what the server would accept (the
// `window.citadel` mirror); every move is a click on the page.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState, STEP_MS } from './lib/harness.mjs';

const URL = process.env.CITADEL_URL;
const { pending, check } = await boardClientTests(URL, 'Neuroshima Hex');

const T = {};
let browser;

before(async () => {
  if (pending) return;
  browser = await launch();
  T.ann = await person(browser, 'ann');
  T.eve = await person(browser, 'eve');
});
after(async () => { await browser?.close(); });

/** What the page holds now. */
async function state(page) {
  return page.evaluate(() => {
    const c = window.citadel;
    return { seq: c.lastSeq ?? 0, legal: c.legal ?? [], seat: c.seat, view: c.view, kind: c.kind };
  });
}
/** Wait until a click had its effect: a new event or another legal list. */
async function settled(page, before, what) {
  const key = JSON.stringify(before.legal);
  await until(what, async () => {
    const now = await state(page);
    return now.seq > before.seq || JSON.stringify(now.legal) !== key;
  }, STEP_MS);
  return state(page);
}
const stageOf = (s) => s.view?.state?.stage?.stage ?? null;
const hexKey = (h) => `${h.q},${h.r}`;
const DIR_WORD = ['up', 'up-right', 'down-right', 'down', 'down-left', 'up-left'];
/** The board tile on hex `k` in a view, with its rotation. */
function tileAt(view, staticHexes, k) {
  const i = staticHexes.findIndex((h) => hexKey(h) === k);
  return i >= 0 ? view.state.board[i] : null;
}

/**
 * Create a Neuroshima table from the home page's create form (its fields
 * come from the catalogue), choose `army`, seat a bot, get ready, start.
 */
async function createAgainstBot(page, name, army) {
  await page.goto(URL);
  await page.locator('form#create select[name=kind] option[value=neuroshima]').waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=kind]', 'neuroshima');
  await page.locator('#create-generic [data-option=infinity_combo]').waitFor();
  await page.fill('form#create [name=name]', name);
  // The bot thinks: the search bot (the `bots` option's "Normal").
  const level = page.locator('#create-generic [data-option=bots] select');
  await level.selectOption({ label: 'Normal (search)' });
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await until('the Neuroshima module to be mounted', () => page.evaluate(() => document.body.dataset.game === 'neuroshima'));
  assert.match(await page.locator('#lobby-options').innerText(), /Neuroshima Hex · first player: seat 1 · redirect loops: capped · bots: search/);
  // The lobby's army choice reaches the server (a `choose`) and comes back in the seats.
  for (const a of army === 'ddm' ? ['moloch', 'ddm'] : [army]) {
    await page.click(`#nsh-armies button[data-army=${a}]`);
    await until(`seat 1 to show ${a}`, async () =>
      (await page.locator(`#seats tr[data-seat="0"] [data-army=${a}]`).count()) === 1
      && !/default/.test(await page.locator('#seats tr[data-seat="0"]').innerText()));
    assert.equal(await page.getAttribute(`#nsh-armies button[data-army=${a}]`, 'aria-pressed'), 'true');
  }
  await page.click('button[data-bot-seat="1"]');
  await until('the bot to take seat 2', async () => /Bot/.test(await page.locator('#seats tr[data-seat="1"]').innerText()));
  assert.match(await page.locator('#seats tr[data-seat="1"]').innerText(), /Moloch \(default\)/);
  return (await page.locator('#code').innerText()).trim();
}
async function startGame(page) {
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board .nsh-hex').count()) return true;
    await page.click('#start', { timeout: 2_000 }).catch(() => {});
    return (await page.locator('#board .nsh-hex').count()) > 0;
  }, 20_000, 500);
}

check('lobby: a Neuroshima table from the generic form, the Doomsday Machine chosen, a bot seated, a spectator', async () => {
  const { ann, eve } = T;
  await ann.page.addInitScript(() => localStorage.setItem('citadel:nsh-phase-ms', '250'));
  T.code = await createAgainstBot(ann.page, 'Ann', 'ddm');
  await shot(ann.page, 'nsh-lobby');
  await eve.page.goto(URL);
  await eve.page.fill('form#join [name=name]', 'Eve');
  await eve.page.fill('form#join [name=code]', T.code);
  await eve.page.click('form#join button[value=spectator]');
  await eve.page.locator('#lobby').waitFor({ state: 'visible' });
  await until('Eve to see Ann\'s army', async () => (await eve.page.locator('#seats tr[data-seat="0"] [data-army=ddm]').count()) === 1);
  await startGame(ann.page);
  await eve.page.locator('#board .nsh-hex').first().waitFor();
  for (const who of [ann, eve]) {
    assert.equal(await who.page.locator('#board .nsh-hex').count(), 19, `${who.label}: 19 hexes`);
    const s = await state(who.page);
    assert.equal(s.kind, 'neuroshima');
    assert.deepEqual(s.view.state.armies, ['ddm', 'moloch']);
  }
  await eve.page.locator('#spectating').waitFor({ state: 'visible' });
  assert.equal(await eve.page.locator('#nsh-hand .nsh-hand-tile').count(), 0, 'a spectator has no hand');
  T.started = true;
});

/** Ann's player: one step per call, by clicking. */
const stats = { placed: 0, wheel: 0, keys: 0, buttons: 0, battles: 0, discards: 0, instants: new Set(), hqTurn: false, medics: 0, pushAnswers: 0, steps: 0 };

async function place(page, s, how) {
  // A target hex: the first highlighted one (a tile of the hand is selected, or the HQ).
  const target = page.locator('#board .nsh-hex.nsh-target');
  await target.first().waitFor();
  const k = await target.first().getAttribute('data-hex');
  await page.click(`#board .nsh-hex[data-hex="${k}"]`);
  const ghost = page.locator('#board .nsh-pending');
  await ghost.waitFor();
  const rot0 = Number(await ghost.getAttribute('data-rotation'));
  if (how === 'wheel') {
    const box = await page.locator('#board').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 120);
    stats.wheel++;
  } else if (how === 'keys') {
    await page.locator('#board').focus().catch(() => {});
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    stats.keys++;
  } else {
    await page.click('#nsh-rot-right');
    stats.buttons++;
  }
  await until('the pending tile to turn', async () => Number(await ghost.getAttribute('data-rotation')) === (rot0 + 1) % 6);
  const rot = Number(await ghost.getAttribute('data-rotation'));
  if (stats.placed === 2) await shot(page, 'nsh-placing');
  await page.click('#nsh-confirm');
  const after = await settled(page, s, 'the placement to be accepted');
  const placed = tileAt(after.view, T.hexes, k);
  if (placed) {
    assert.equal(placed.rot, rot, 'placed with the rotation shown');
    // Still Ann's turn (the bot has not moved since): her tile is the last one placed.
    if (stageOf(s) === 'action' && stageOf(after) === 'action' && after.legal.length && !(await page.locator('#board .nsh-overlay').count())) {
      assert.equal(await page.locator('#board .nsh-tile.nsh-last').getAttribute('data-hex'), k, 'the last tile placed is marked');
    }
  }
  else {
    // The board filled up and the battle that followed took the tile away: the log says how it was placed.
    const name = await page.getAttribute(`#board .nsh-hex[data-hex="${k}"]`, 'data-name');
    const log = await page.locator('#log').innerText();
    assert.ok(log.includes(` on ${name}, its top facing ${DIR_WORD[rot]}.`), `the log tells the placement on ${name} facing ${DIR_WORD[rot]}`);
  }
  stats.placed++;
  return after;
}

async function step(page) {
  const s = await state(page);
  const stage = stageOf(s);
  if (stage === 'over') return 'over';
  if (!s.legal.length) return null;
  stats.steps++;
  const types = new Set(s.legal.map((c) => c.type));
  const hand = s.view.state.players[s.seat].hand;
  const kindOf = (t) => T.static.armies[t.seat].kinds[t.kind];
  const handButton = (t) => `#nsh-hand button[data-tile="${t.seat}.${t.kind}#${t.k}"]`;
  const ways = ['wheel', 'keys', 'buttons'];
  switch (stage) {
    case 'hq': await place(page, s, 'wheel'); return 'hq';
    case 'discard': {
      // A Battle tile goes first while Ann is still building her army.
      const battle = hand.find((t) => kindOf(t).effect === 'battle');
      const pick = battle && stats.placed < 3 ? `#nsh-choices button[data-discard="${battle.seat}.${battle.kind}#${battle.k}"]` : '#nsh-choices button[data-discard]';
      if (stats.discards === 0) {
        // Pointing at a hand tile does not discard it: it marks the prompt's button for it.
        const t = hand[1];
        await page.click(handButton(t));
        await page.locator(`#nsh-choices button.primary[data-discard="${t.seat}.${t.kind}#${t.k}"]`).waitFor();
        assert.equal((await state(page)).seq, s.seq, 'nothing sent');
        assert.equal(await page.locator('#nsh-hand .nsh-hand-tile').count(), 3);
      }
      await page.click(pick);
      stats.discards++;
      await settled(page, s, 'the discard');
      return 'discard';
    }
    case 'push_choice':
      await page.click('#board .nsh-hex.nsh-target');
      stats.pushAnswers++;
      await settled(page, s, 'the push answer');
      return 'push_to';
    case 'battle': case 'bomb':
      await page.click('#nsh-choices button');
      stats.medics++;
      await settled(page, s, 'the battle answer');
      return 'answer';
  }
  // The action step. An instant first (Battle while allowed, the others when they have a use), then a board tile, then the HQ's turn, then end the turn.
  for (const t of hand) {
    const k = kindOf(t);
    const mine = s.legal.filter((c) => c.tile && c.tile.seat === t.seat && c.tile.kind === t.kind && c.tile.k === t.k && c.type !== 'discard');
    if (!mine.length) continue;
    if (k.effect === 'battle' && stats.placed >= 3) {
      await page.click(handButton(t));
      await page.click('#nsh-confirm');
      stats.battles++;
      await settled(page, s, 'the battle');
      return 'battle';
    }
    if (k.effect === 'small_bomb') {
      await page.click(handButton(t));
      await page.locator('#board .nsh-vertex').first().click();
      stats.instants.add('small_bomb');
      await settled(page, s, 'the bomb');
      return 'small_bomb';
    }
    if (k.effect === 'push') {
      await page.click(handButton(t));
      await page.click('#board .nsh-hex.nsh-target-from');
      await page.locator('#board .nsh-target-push').first().waitFor();
      await page.click('#board .nsh-hex.nsh-target-push');
      stats.instants.add('push');
      await settled(page, s, 'the push');
      return 'push';
    }
  }
  const board = hand.find((t) => kindOf(t).class !== 'instant' && s.legal.some((c) => c.type === 'place' && c.tile.seat === t.seat && c.tile.kind === t.kind && c.tile.k === t.k));
  if (board) {
    await page.click(handButton(board));
    await place(page, s, ways[stats.placed % 3]);
    return 'place';
  }
  if (types.has('rotate') && !stats.hqTurn) {
    const cmd = s.legal.find((c) => c.type === 'rotate');
    await page.click('#nsh-rotate-mode');
    const k = hexKey(cmd.hex);
    await page.click(`#board .nsh-hex[data-hex="${k}"]`);
    const rot0 = tileAt(s.view, T.hexes, k).rot;
    await page.keyboard.press('e');
    await page.click('#nsh-confirm');
    const after = await settled(page, s, 'the HQ turn');
    assert.equal(tileAt(after.view, T.hexes, k).rot, (rot0 + 1) % 6, 'the HQ turned the tile one step');
    stats.hqTurn = true;
    return 'rotate';
  }
  // Nothing more to do (a Battle tile in the ending stays in the hand): end the turn.
  await page.click('#nsh-end-turn');
  await settled(page, s, 'the end of the turn');
  return 'end_turn';
}

check('Ann plays a whole game against the bot by clicking; a reload on the way resumes it', async () => {
  const { ann, eve } = T;
  assert.ok(T.started, 'needs the game');
  const st = await ann.page.evaluate(() => window.citadel.staticData);
  T.static = st;
  T.hexes = st.board;
  assert.equal(T.hexes.length, 19);
  let reloaded = false;
  let eveShot = false;
  // Eve's page counts every battle phase drawn over her board.
  await eve.page.evaluate(() => {
    window.nshOverlays = 0;
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof Element && n.matches('.nsh-overlay')) window.nshOverlays++;
    }).observe(document.body, { childList: true, subtree: true });
  });
  for (let i = 0; i < 600; i++) {
    const did = await step(ann.page);
    if (did === 'over') break;
    if (did === null) { await new Promise((r) => setTimeout(r, 100)); continue; }
    if (!eveShot && (await eve.page.locator('#board .nsh-overlay').count()) > 0) {
      await shot(eve.page, 'nsh-spectator-battle');
      eveShot = true;
    }
    if (!reloaded && stats.placed >= 4 && did === 'place') {
      const before = await state(ann.page);
      const phasesBefore = await ann.page.locator('#log li.nsh-phase').count();
      await shot(ann.page, 'nsh-before-reload');
      await ann.page.reload();
      await waitForState(ann.page, 'connected');
      await until('the game to come back after the reload', async () => (await state(ann.page)).seq >= before.seq
        && (await ann.page.locator('#board .nsh-tile').count()) > 0);
      const back = await state(ann.page);
      assert.equal(back.seat, 0, 'the same seat');
      assert.deepEqual(back.view.state.board, before.view.state.board, 'the same board');
      assert.ok(await ann.page.locator('#log li.nsh-phase').count() >= phasesBefore, 'the log is rebuilt');
      assert.ok(await ann.page.locator('#log li').count() > 5, 'the log is rebuilt');
      reloaded = true;
    }
  }
  const end = await state(ann.page);
  assert.equal(stageOf(end), 'over', `the game ends (${stats.steps} steps)`);
  assert.ok(reloaded, 'the page was reloaded on the way');
  await ann.page.locator('#nsh-prompt[data-winner]').waitFor();
  const prompt = await ann.page.locator('#nsh-prompt').innerText();
  assert.match(prompt, /You won|You lost|Draw/);
  await shot(ann.page, 'nsh-game-over');
  console.log(`# Neuroshima: ${JSON.stringify({ ...stats, instants: [...stats.instants] })}; ${prompt}`);
  assert.ok(stats.placed >= 5, 'tiles were placed');
  assert.ok(stats.wheel > 0 && stats.keys > 0 && stats.buttons > 0, 'turned by wheel, keys and buttons');
  assert.ok(stats.discards > 0, 'the discard prompt was answered');

  // The battles: a log line per phase for both; Eve's board played every one back.
  const annPhases = await ann.page.locator('#log li.nsh-phase').count();
  await until('Eve to have the whole game', async () => stageOf(await state(eve.page)) === 'over');
  const evePhases = await eve.page.locator('#log li.nsh-phase').count();
  assert.ok(evePhases > 0, 'phases in the spectator\'s log');
  assert.ok(annPhases > 0, 'phases in the player\'s log');
  const eveRecord = await eve.page.evaluate(() => window.citadel.neuroshima);
  assert.ok(eveRecord.battles > 0, 'battles were seen by the spectator');
  const eveBombs = await eve.page.locator('#log li.nsh-bombed').count();
  assert.equal(eveRecord.frames.length, evePhases + eveBombs, 'every phase (and bomb) in Eve\'s log is drawn on her board');
  assert.ok(eveRecord.shown > 0, 'phases were shown');
  assert.ok(eveRecord.frames.some((f) => f.hits > 0), 'hits were drawn');
  assert.ok(eveRecord.frames.some((f) => f.segments > 0), 'shots were drawn');
  assert.ok(await eve.page.evaluate(() => window.nshOverlays) > 0, 'battle phases were drawn over Eve\'s board while they played');
  assert.match(await eve.page.locator('#log').innerText(), /Phase \d+: .*Hits: /);
  assert.match(await eve.page.locator('#log').innerText(), /wins with|draw/);

  // The finished game's replay draws the board too.
  await eve.page.goto(`${URL}/#replay/${T.code}`);
  await eve.page.locator('#replay-board-wrap .nsh-hex').first().waitFor();
  assert.equal(await eve.page.locator('#replay-board-wrap .nsh-hex').count(), 19);
  await eve.page.click('#replay-next');
  await until('a replay step in words', async () => (await eve.page.locator('#replay-command').innerText()).length > 0);
  // A step that fought a battle plays it back on the replay's board.
  let battleStep = null;
  for (let from = 0; battleStep === null; from += 50) {
    const r = await (await fetch(`${URL}/api/games/${T.code}/replay?from=${from}&count=50`)).json();
    battleStep = r.steps.find((st) => st.events.some(({ event }) => event.event === 'phase' && event.hits.length))?.index ?? null;
    if (from + 50 >= r.total_steps) break;
  }
  assert.notEqual(battleStep, null, 'the replay has a battle with hits');
  await eve.page.evaluate(() => localStorage.setItem('citadel:nsh-phase-ms', '3000'));
  await eve.page.locator('#replay-slider').fill(String(battleStep));
  await eve.page.locator('#replay-board-wrap .nsh-overlay').waitFor();
  assert.match(await eve.page.locator('#replay-events').innerText(), /Phase \d+:/);
  await shot(eve.page, 'nsh-replay-battle');
  await eve.page.locator('#replay-slider').fill('40');
  await until('a later replay step with tiles', async () => (await eve.page.locator('#replay-board-wrap .nsh-tile').count()) > 2);
  assert.match(await eve.page.locator('#replay-command').innerText(), /^(Doomsday Machine|Moloch) \(seat [12]\) /);
  await shot(eve.page, 'nsh-replay');
});

check('a tile is described on hover (and in its SVG title); the board zooms, pans and fits', async () => {
  const { ann } = T;
  const tile = ann.page.locator('#board .nsh-tile').first();
  await tile.waitFor();
  await tile.hover();
  await until('the info box to describe the tile', async () => (await ann.page.locator('#nsh-info li').count()) > 0);
  const text = await ann.page.locator('#nsh-info').innerText();
  assert.match(text, /(headquarters|soldier|module)/);
  assert.ok((await tile.locator('title').textContent()).length > 20, 'an SVG title for the browser\'s tooltip');
  // Zoom in, drag the board, fit it again.
  const board = ann.page.locator('#board');
  await ann.page.click('#zoom-in');
  assert.ok(Number(await board.getAttribute('data-zoom')) > 1.4, 'zoomed in');
  const vb0 = await board.getAttribute('viewBox');
  const b = await board.boundingBox();
  await ann.page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
  await ann.page.mouse.down();
  await ann.page.mouse.move(b.x + b.width / 2 + 80, b.y + b.height / 2 + 40, { steps: 5 });
  await ann.page.mouse.up();
  assert.notEqual(await board.getAttribute('viewBox'), vb0, 'the drag moved the board');
  await ann.page.click('#zoom-fit');
  assert.equal(await board.getAttribute('data-zoom'), '1.00');
});

check('a redirected shot is drawn branch by branch: a Tripler turns one shot into three', async () => {
  // A battle phase the server would report for this board, fed to the
  // page as if it came from the socket (`window.citadel.receive`): Ann's
  // Alpha Shooter on c4 (0,1) shoots up-right into her Tripler on d3
  // (1,0), which sends the shot on up-left, up and up-right; the upward
  // branch hits the Moloch HQ on d1 (1,-2), the others leave the board.
  const { ann } = T;
  const st = await ann.page.evaluate(() => window.citadel.staticData);
  const idx = (seat, id) => st.armies[seat].kinds.findIndex((k) => k.id === id);
  const at = (q, r) => st.board.findIndex((h) => h.q === q && h.r === r);
  const alpha = { seat: 0, kind: idx(0, 'alpha'), k: 1 };
  const tripler = { seat: 0, kind: idx(0, 'tripler'), k: 1 };
  const mhq = { seat: 1, kind: idx(1, 'hq'), k: 1 };
  const dhq = { seat: 0, kind: idx(0, 'hq'), k: 1 };
  const seq = (await state(ann.page)).seq;
  const view = await ann.page.evaluate(() => structuredClone(window.citadel.view));
  view.state.board = Array(19).fill(null);
  for (const [t, q, r] of [[alpha, 0, 1], [tripler, 1, 0], [mhq, 1, -2], [dhq, -1, 2]]) view.state.board[at(q, r)] = { tile: t, rot: 0, damage: 0 };
  view.state.stage = { stage: 'battle' };
  view.state.result = null;
  view.netted = []; view.effects = []; view.to_act = [];
  const trace = { source: alpha, edge: 1, kind: 'ranged', steps: [
    { step: 'redirect', redirector: tripler, entry: 4, exits: [5, 0, 1], copies: 1 },
    { step: 'hit', target: mhq, strength: 1, wounds: 1, copies: 1 },
    { step: 'lost', direction: 1, copies: 1 },
    { step: 'lost', direction: 5, copies: 1 },
  ] };
  const hit = { target: mhq, hex: { q: 1, r: -2 }, source: alpha, edge: 1, kind: 'ranged', strength: 1, wounds: 1, copies: 1, cancelled: 0, unbounded: false, arrival: 3 };
  const phase = { event: 'phase', phase: 3, acting: [alpha], netted: [], traces: [trace], explosions: [], hits: [hit], cancels: [], removed: [] };
  await ann.page.keyboard.press('Escape'); // ends any playback still going
  await ann.page.evaluate(({ seq, view, st, phase }) => {
    localStorage.setItem('citadel:nsh-phase-ms', '60000');
    window.citadel.receive({ type: 'snapshot', seq, view, static_data: st, legal: [] });
    window.citadel.receive({ type: 'events', seq: seq + 2, events: [
      { seq: seq + 1, event: { event: 'battle_started', cause: 'tile', from_phase: 3 } },
      { seq: seq + 2, event: phase },
    ], view_patch: [], legal: [] });
  }, { seq, view, st, phase });
  const overlay = ann.page.locator('#board .nsh-overlay[data-phase="3"]');
  await overlay.waitFor();
  // 1 segment to the Tripler; up-left 4 (off the board), up 2 (to the HQ), up-right 2 (off the board).
  assert.equal(await overlay.locator('.nsh-trace .nsh-seg').count(), 9, 'every branch drawn');
  assert.equal(await overlay.locator('.nsh-redirect').count(), 1);
  assert.equal((await overlay.locator('.nsh-redirect-n').textContent()).trim(), '×3');
  assert.equal(await overlay.locator('.nsh-hit[data-hex="1,-2"]').getAttribute('data-wounds'), '1');
  assert.equal(await overlay.locator('.nsh-acting').count(), 1);
  assert.match(await ann.page.locator('#log li.nsh-trace').last().innerText(), /Alpha Shooter's shot: Doomsday Machine Tripler turns it ↖↑↗, hits Moloch HQ −1, leaves the board ↗, leaves the board ↖/);
  assert.match(await ann.page.locator('#log li.nsh-phase').last().innerText(), /^Phase 3: Doomsday Machine Alpha Shooter acts\. Hits: Moloch HQ −1 \(ranged 1 from Doomsday Machine Alpha Shooter\)/);
  await shot(ann.page, 'nsh-tripler');
  await ann.page.evaluate(() => localStorage.removeItem('citadel:nsh-phase-ms'));
});

check('every edge of every tile kind of both armies is drawn where it faces', async () => {
  // Each army's board tiles laid out on the board (fed to the page as a
  // snapshot), every one upright but the first, turned twice: each edge's
  // icons are found on the side it faces, one icon per thing it carries.
  const { ann } = T;
  const page = ann.page;
  const st = await page.evaluate(() => window.citadel.staticData);
  const seq = (await state(page)).seq;
  const base = await page.evaluate(() => structuredClone(window.citadel.view));
  await page.keyboard.press('Escape');
  for (const seat of [0, 1]) {
    const kinds = st.armies[seat].kinds.map((k, kind) => ({ k, kind })).filter(({ k }) => k.class !== 'instant');
    assert.ok(kinds.length <= 19);
    const v = structuredClone(base);
    v.state.board = Array(19).fill(null);
    kinds.forEach(({ kind }, i) => { v.state.board[i] = { tile: { seat, kind, k: 1 }, rot: i === 0 ? 2 : 0, damage: 0 }; });
    v.state.stage = { stage: 'action' };
    v.netted = []; v.effects = []; v.to_act = [];
    await page.evaluate(({ seq, v, st }) => window.citadel.receive({ type: 'snapshot', seq, view: v, static_data: st, legal: [] }), { seq, v, st });
    await until('the tiles drawn', async () => (await page.locator('#board .nsh-tile').count()) === kinds.length);
    for (const [i, { k, kind }] of kinds.entries()) {
      const rot = i === 0 ? 2 : 0;
      const drawn = await page.evaluate((key) => {
        const g = document.querySelector(`#board .nsh-tile[data-tile="${key}"]`);
        const out = {};
        for (const e of g.querySelectorAll('.nsh-edge')) {
          const count = (sel) => e.querySelectorAll(sel).length;
          out[e.dataset.dir] = { melee: count('.nsh-melee'), ranged: count('.nsh-ranged'), gauss: count('.nsh-gauss'), armour: count('.nsh-armour'), net: count('.nsh-net') ? 1 : 0,
            entry: count('.nsh-entry'), exit: count('.nsh-exit'), link: count('.nsh-link'), trap: count('.nsh-trap'), numbers: [...e.querySelectorAll('.nsh-num')].map((n) => n.textContent) };
        }
        return out;
      }, `${seat}.${kind}#1`);
      k.edges.forEach((e, edge) => {
        const dir = String((edge + rot) % 6);
        const want = { melee: Math.min(e.melee ?? 0, 3), ranged: e.ranged ? 1 : 0, gauss: e.gauss ? 1 : 0, armour: e.armour ? 1 : 0, net: e.net ? 1 : 0,
          entry: e.entry ? 1 : 0, exit: e.exit ? 1 : 0, link: e.link ?? 0, trap: e.trap ? 1 : 0 };
        const got = drawn[dir] ?? { melee: 0, ranged: 0, gauss: 0, armour: 0, net: 0, entry: 0, exit: 0, link: 0, trap: 0, numbers: [] };
        const { numbers, ...icons } = got;
        assert.deepEqual(icons, want, `${st.armies[seat].name} ${k.name}, edge ${edge} (facing ${dir})`);
        const nums = [e.melee ? String(e.melee) : null, e.ranged ? String(e.ranged) : null, e.gauss ? 'G' : null].filter(Boolean).sort();
        assert.deepEqual(numbers.slice().sort(), nums, `${k.name}, edge ${edge}: strengths written`);
      });
    }
    await shot(page, `nsh-tiles-${st.armies[seat].id}`);
  }
});

check('Moloch\'s instants and the questions are answered by clicking exactly what `legal` offers', async () => {
  // States fed to the page as snapshots (`window.citadel.receive`), with
  // the legal lists the server would send, the seats' armies swapped so
  // that the page's seat plays Moloch (Move, Air Strike, the Clown). The
  // page's commands are read from `window.citadel.sent`.
  const { ann } = T;
  const page = ann.page;
  const st0 = await page.evaluate(() => window.citadel.staticData);
  const st = { board: st0.board, armies: [st0.armies[1], st0.armies[0]] };
  const idx = (seat, id) => st.armies[seat].kinds.findIndex((k) => k.id === id);
  const at = (q, r) => st.board.findIndex((h) => h.q === q && h.r === r);
  const tile = (seat, id, k = 1) => ({ seat, kind: idx(seat, id), k });
  const seq = (await state(page)).seq;
  const base = await page.evaluate(() => structuredClone(window.citadel.view));
  const hybrid = tile(0, 'hybrid'), clown = tile(0, 'clown'), medic = tile(0, 'medic');
  /** A view: Moloch (seat 1 of the page) with its HQ on c3, a Hybrid on c4, a Medic on b3; the enemy HQ on d1. */
  function view(stage, hand, extra = {}) {
    const v = structuredClone(base);
    v.state.armies = ['moloch', 'ddm'];
    v.state.board = Array(19).fill(null);
    for (const [t, q, r] of [[tile(0, 'hq'), 0, 0], [hybrid, 0, 1], [medic, -1, 1], [tile(1, 'hq'), 1, -2]]) v.state.board[at(q, r)] = { tile: t, rot: 0, damage: 0 };
    v.state.players[0].hand = hand;
    v.state.stage = stage;
    v.state.result = null; v.state.battle = null; v.state.bomb = null;
    v.netted = []; v.effects = []; v.to_act = [0];
    return Object.assign(v, extra);
  }
  const feed = (v, legal) => page.evaluate(({ seq, v, st, legal }) => window.citadel.receive({ type: 'snapshot', seq, view: v, static_data: st, legal }), { seq, v, st, legal });
  const lastSent = () => page.evaluate(() => window.citadel.sent.filter((m) => m.type === 'command').at(-1)?.command);
  const key = (t) => `${t.seat}.${t.kind}#${t.k}`;
  await page.keyboard.press('Escape');

  // Move: the tile, where it goes, its new facing, confirm.
  const move = tile(0, 'move');
  const dests = [[0, 1], [1, 0], [1, 1], [0, 2], [-1, 2]];
  const moves = [];
  for (const [q, r] of dests) for (let rotation = 0; rotation < 6; rotation++) {
    if (q === 0 && r === 1 && rotation === 0) continue;
    moves.push({ type: 'move', tile: move, from: { q: 0, r: 1 }, to: { q, r }, rotation });
  }
  await feed(view({ stage: 'action' }, [move]), [{ type: 'end_turn' }, { type: 'discard', tile: move }, ...moves]);
  await page.click(`#nsh-hand button[data-tile="${key(move)}"]`);
  assert.deepEqual(await page.locator('#board .nsh-target-from').evaluateAll((els) => els.map((e) => e.dataset.hex)), ['0,1'], 'only the Hybrid may move');
  await page.click('#board .nsh-hex[data-hex="0,1"]');
  assert.equal(await page.locator('#board .nsh-hex.nsh-target-place').count(), dests.length, 'its own hex and the empty neighbours');
  assert.equal(await page.locator('#board .nsh-tile[data-hex="0,1"]').count(), 1, 'the Hybrid still stands on its hex until it is sent');
  await page.click('#board .nsh-hex[data-hex="1,0"]');
  await page.locator('#board .nsh-pending[data-hex="1,0"]').waitFor();
  await page.keyboard.press('e');
  await page.click('#nsh-confirm');
  assert.deepEqual(await lastSent(), { type: 'move', tile: move, from: { q: 0, r: 1 }, to: { q: 1, r: 0 }, rotation: 1 });

  // Air Strike: a click on the centre hex.
  const air = tile(0, 'air_strike');
  const inner = [[0, 0], [0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
  await feed(view({ stage: 'action' }, [air]), [{ type: 'end_turn' }, { type: 'discard', tile: air }, ...inner.map(([q, r]) => ({ type: 'air_strike', tile: air, centre: { q, r } }))]);
  await page.click(`#nsh-hand button[data-tile="${key(air)}"]`);
  assert.equal(await page.locator('#board .nsh-hex.nsh-target-bomb').count(), 7);
  // By keyboard: the hexes to choose take the focus, Enter chooses.
  await page.focus('#board .nsh-hex[data-hex="-1,1"]');
  await page.keyboard.press('Enter');
  assert.deepEqual(await lastSent(), { type: 'air_strike', tile: air, centre: { q: -1, r: 1 } });

  // A pushed tile: its owner picks where it goes.
  await feed(view({ stage: 'push_choice', target: { q: 0, r: 1 }, candidates: [{ q: 0, r: 2 }, { q: 1, r: 1 }] }, []), [{ type: 'push_to', hex: { q: 0, r: 2 } }, { type: 'push_to', hex: { q: 1, r: 1 } }]);
  assert.match(await page.locator('#nsh-prompt').innerText(), /pushed back/);
  await page.click('#board .nsh-hex.nsh-target[data-hex="1,1"]');
  assert.deepEqual(await lastSent(), { type: 'push_to', hex: { q: 1, r: 1 } });

  // The Clown: fight or blow up (a battle waiting with no hits asks the Clown's question).
  await feed(view({ stage: 'battle' }, [], {}), [{ type: 'clown', explode: false }, { type: 'clown', explode: true }]);
  await page.click('#nsh-choices button[data-clown=true]');
  assert.deepEqual(await lastSent(), { type: 'clown', explode: true });

  // Medics: each plan a button, in words.
  const hit = { target: hybrid, hex: { q: 0, r: 1 }, source: tile(1, 'hq'), edge: 3, kind: 'melee', strength: 1, wounds: 1, copies: 1, cancelled: 0, unbounded: false, arrival: 0 };
  const v = view({ stage: 'battle' }, []);
  v.state.battle = { cause: 'tile', phase: 0, slots: [], clown: [null, null], medic: [null, null], waiting: [0], hits: [hit], changed: false };
  const plan = { type: 'medics', steps: [{ medic, hit: 0 }] };
  await feed(v, [plan]);
  assert.match(await page.locator('#nsh-choices button[data-medic-plan="0"]').innerText(), /Medic cancels hit 1 \(Moloch Hybrid −1\)/);
  await page.click('#nsh-choices button[data-medic-plan="0"]');
  assert.deepEqual(await lastSent(), plan);
  await shot(page, 'nsh-medics');
});

check('hotseat: two players on one page, each placing an HQ after the hand-over screen', async () => {
  const who = await person(browser, 'hotseat');
  const { page } = who;
  await page.goto(URL);
  await page.locator('form#create select[name=kind] option[value=neuroshima]').waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=kind]', 'neuroshima');
  await page.fill('form#create [name=name]', 'Ann');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await page.fill('#add-local [name=name]', 'Bea');
  await page.click('#add-local button[type=submit]');
  await until('two seats on this device', async () => (await page.locator('#local-seats button').count()) === 2);
  await page.click('#ready');
  await page.click('#local-seats button[data-local-seat="1"]');
  await page.click('#nsh-armies button[data-army=ddm]');
  await until('Bea\'s army', async () => (await page.locator('#seats tr[data-seat="1"] [data-army=ddm]').count()) === 1);
  await page.click('#ready');
  await page.click('#local-seats button[data-local-seat="0"]');
  await until('the hand-over screen', async () => {
    await page.click('#start', { timeout: 1_000 }).catch(() => {});
    return page.locator('#handover').isVisible();
  }, 15_000, 500);
  for (const name of ['Ann', 'Bea']) {
    await page.locator('#handover').waitFor({ state: 'visible' });
    assert.match(await page.locator('#handover-name').innerText(), new RegExp(name));
    // The side of a seat that left its army to the game is known once the
    // game has started and its view arrived: wait for it, not a race.
    await until(`${name}'s side on the hand-over screen`,
      async () => (await page.locator('#handover-side').innerText()) === 'Doomsday Machine');
    await page.click('#handover-go');
    const s = await state(page);
    await page.click('#board .nsh-hex.nsh-target');
    await page.click('#nsh-confirm');
    await settled(page, s, `${name}'s HQ`);
  }
  await page.locator('#handover').waitFor({ state: 'visible' });
  assert.match(await page.locator('#handover-name').innerText(), /Ann/, 'Ann\'s first turn next');
  await page.click('#handover-go');
  await until('both HQs on Ann\'s board', async () => (await page.locator('#board .nsh-tile[data-kind=hq]').count()) === 2);
  await who.context.close();
});

check('at a phone\'s size the board and the hand are usable by tapping', async () => {
  const phone = await person(browser, 'phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const { page } = phone;
  await createAgainstBot(page, 'Pia', 'ddm');
  await startGame(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (page ${width}px wide)`);
  const b = await page.locator('#board').boundingBox();
  assert.ok(b.width >= 300 && b.x >= 0 && b.x + b.width <= 390, `the board fills the phone's width (${JSON.stringify(b)})`);
  // The HQ: tap a hex, tap the turn button, tap confirm.
  let s = await state(page);
  const hqHex = page.locator('#board .nsh-hex.nsh-target').nth(9);
  await hqHex.tap();
  await page.locator('#nsh-rot-right').tap();
  await page.locator('#nsh-confirm').tap();
  s = await settled(page, s, 'the HQ placement');
  // Then the bot places its HQ; Ann's first turn draws one tile.
  await until('a tile in the hand', async () => (await page.locator('#nsh-hand .nsh-hand-tile:not([disabled])').count()) > 0
    && (await state(page)).legal.some((c) => c.type === 'end_turn'), 20_000);
  s = await state(page);
  const handTile = page.locator('#nsh-hand .nsh-hand-tile').first();
  await handTile.scrollIntoViewIfNeeded();
  const hb = await handTile.boundingBox();
  assert.ok(hb.width >= 40 && hb.height >= 40, 'hand tiles are big enough to tap');
  await handTile.tap();
  const kind = await handTile.getAttribute('data-kind');
  const instant = ['battle', 'push', 'small_bomb'].includes(kind);
  if (instant) {
    // Turn 1 may draw an instant: it is described and can be cancelled.
    assert.equal(await page.locator('#nsh-info').getAttribute('data-tile'), await handTile.getAttribute('data-tile'));
    await page.locator('#nsh-cancel').tap();
  } else {
    const t = page.locator('#board .nsh-hex.nsh-target').first();
    await t.tap();
    await page.locator('#nsh-rot-left').tap();
    await shot(page, 'nsh-phone-placing');
    await page.locator('#nsh-confirm').tap();
    s = await settled(page, s, 'the placement');
    assert.ok(s.view.state.board.filter(Boolean).length >= 3, 'two HQs and the placed tile');
  }
  await shot(page, 'nsh-phone');
  await phone.context.close();
});
