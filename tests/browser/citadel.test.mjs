// The web client against the DOM contract, on a real Citadel server
// (`CITADEL_URL`). Three browser contexts — Alice (host), Bob and the
// spectator Eve — go from the home page through the lobby into a game of
// C1M1, play it by clicking, and check what each of them sees.
//
// The table: 2 seats, both Doomtrooper players (Alice bauhaus, Bob capitol),
// the AI plays the Dark Legion. So every seat's flow is the same and
// deterministic up to the dice: no random Dark Legion draw, and no human
// has to play the Dark Legion's many decisions.
//
// The server has no test hook to set up a position, so attacks happen
// only if the rules offer one during the turns played: the driver attacks
// whenever `legal` holds an attack, and the test checks that every offered
// attack was taken; moves are always available and always checked.
//
// These tests run once web-client/index.html carries the board client's
// marker `data-client="citadel-board"`; before that they are skipped as
// pending (crates/citadel/tests/browser.rs does not even start them).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, dropConnection, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { Player, citadelState, figureSquare } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;
/** How long the players may play before the checks must have happened. */
const PLAY_MS = Number(process.env.CITADEL_PLAY_MS ?? 20_000);

const { pending, check: contract } = await boardClientTests(URL, 'contract');

const T = {}; // shared between the steps below, in order
let browser;

before(async () => {
  if (pending) return;
  browser = await launch();
  T.alice = await person(browser, 'alice');
  T.bob = await person(browser, 'bob');
  T.eve = await person(browser, 'eve');
});

after(async () => {
  await browser?.close();
});

const seqOf = async (who) => (await citadelState(who.page)).seq;

contract('home → lobby: Alice creates a 2-seat game with the AI Dark Legion, Bob joins, Eve watches', async () => {
  const { alice, bob, eve } = T;
  await alice.page.goto(URL);
  await alice.page.locator('form#create').waitFor();
  await shot(alice.page, 'home');

  await alice.page.fill('form#create [name=name]', 'Alice');
  await alice.page.fill('form#create [name=seats]', '2');
  await alice.page.selectOption('form#create select[name=dl]', 'ai');
  await alice.page.locator('form#create [type=submit], form#create button:not([type])').first().click();
  await alice.page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(alice.page, 'connected');
  const code = (await alice.page.locator('#code').textContent()).trim();
  assert.match(code, /^[23456789A-HJKMNP-Z]{6}$/i, 'a six-character join code');
  T.code = code;

  for (const [who, name, as] of [[bob, 'Bob', 'player'], [eve, 'Eve', 'spectator']]) {
    await who.page.goto(URL);
    await who.page.fill('form#join [name=name]', name);
    await who.page.fill('form#join [name=code]', code);
    await who.page.click(`form#join button[value=${as}]`);
    await who.page.locator('#lobby').waitFor({ state: 'visible' });
    await waitForState(who.page, 'connected');
  }

  await alice.page.click('button[data-corp=bauhaus]');
  await bob.page.click('button[data-corp=capitol]');
  for (const [seat, corp] of [[0, /bauhaus/i], [1, /capitol/i]]) {
    for (const who of [alice, bob, eve]) {
      await until(`${who.label} to see seat ${seat} as ${corp}`, async () =>
        corp.test((await who.page.locator(`#seats tr[data-seat="${seat}"]`).textContent()) ?? ''),
      );
    }
  }
  assert.match(await eve.page.locator('#seats tr[data-seat="1"]').textContent(), /Bob/);
  const bobStart = bob.page.locator('#start');
  assert.ok((await bobStart.count()) === 0 || !(await bobStart.isVisible()) || (await bobStart.isDisabled()),
    'only the host can use #start');
  await shot(alice.page, 'lobby');
});

contract('lobby → game: both ready, the host starts, everyone sees the board', async () => {
  const { alice, bob, eve } = T;
  assert.ok(T.code, 'needs the lobby');
  await alice.page.click('#ready');
  await bob.page.click('#ready');
  // #start is refused until the server has both ready flags: click until the board shows.
  await until('the game to start', async () => {
    if (await alice.page.locator('#board').isVisible()) return true;
    await alice.page.click('#start').catch(() => {});
    return alice.page.locator('#board').isVisible();
  }, 15_000, 500);

  for (const who of [alice, bob, eve]) {
    await who.page.locator('#board').waitFor({ state: 'visible' });
    await until(`${who.label} to have a view`, async () => (await citadelState(who.page)).view);
    assert.ok((await who.page.locator('#board [data-square]').count()) > 0, `${who.label}: squares drawn`);
    await who.page.locator('#round').waitFor({ state: 'visible' });
    await who.page.locator('#scoreboard').waitFor({ state: 'attached' }); // shown in full at the end
  }
  assert.equal((await citadelState(alice.page)).seat, 0);
  assert.equal((await citadelState(bob.page)).seat, 1);
  T.started = true;
});

contract('the spectator has the banner, no hand, and sees no secrets', async () => {
  const { eve } = T;
  assert.ok(T.started, 'needs the game');
  await eve.page.locator('#spectating').waitFor({ state: 'visible' });
  const hand = eve.page.locator('#hand');
  if ((await hand.count()) > 0) {
    assert.equal(await hand.evaluate((h) => h.children.length), 0, '#hand is empty for a spectator');
  }
  const s = await citadelState(eve.page);
  assert.equal(s.seat, null);
  assert.deepEqual(s.legal, []);
  assert.equal(s.view.viewer, 'spectator');
  assert.ok(s.view.teams.every((t) => t.hand === undefined || t.hand === null), 'no team hand in the view');
  assert.equal(await eve.page.locator('[data-mine="true"]').count(), 0, 'nothing is the spectator\'s');
  await shot(eve.page, 'game-spectator');
});

contract('players move (and attack when offered) by clicking; everyone sees it', async () => {
  const { alice, bob, eve } = T;
  assert.ok(T.started, 'needs the game');
  const players = [new Player(alice), new Player(bob)];
  T.players = players;
  const checked = [];
  const deadline = Date.now() + PLAY_MS;
  const enough = () => players.every((p) => p.moves.length >= 2) && checked.length >= 4 && players.every((p) => p.attacksOffered === 0 || p.attacks.length > 0);
  while (!enough() && Date.now() < deadline) {
    let acted = false;
    for (const [i, p] of players.entries()) {
      const done = await p.act();
      if (!done) continue;
      acted = true;
      if (done.kind !== 'move') continue;
      // The other player and the spectator reach the same seq and draw
      // the figure where the mover's page (and view) says it stands.
      assert.notEqual(done.to, done.from, `${p.who.label}: figure ${done.figure} moved in the view`);
      const mine = await figureSquare(p.page, done.figure);
      assert.equal(mine, done.to, `${p.who.label} draws figure ${done.figure} on its view square`);
      for (const other of [players[1 - i].who, eve]) {
        await until(`${other.label} to reach seq ${done.seq}`, async () => (await seqOf(other)) >= done.seq);
        assert.equal(await figureSquare(other.page, done.figure), done.to,
          `${other.label} sees ${p.who.label}'s figure ${done.figure} on ${done.to}`);
      }
      checked.push(done);
    }
    if (!acted) await new Promise((r) => setTimeout(r, 100)); // the AI Dark Legion's turn
  }
  const summary = players.map((p) => `${p.who.label}: ${p.moves.length} moves, ${p.attacks.length} attacks (${p.attacksOffered} offered)`);
  console.log(`# played: ${summary.join('; ')}; ${checked.length} moves checked in other pages`);
  for (const p of players) {
    assert.ok(p.moves.length >= 1, `${p.who.label} made a move by clicking`);
    if (p.attacksOffered > 0) assert.ok(p.attacks.length > 0, `${p.who.label} attacked when the rules offered it`);
  }
  for (const who of [alice, bob, eve]) {
    assert.ok((await who.page.locator('#log li').count()) > 0, `${who.label}: the log shows events`);
  }
  await shot(alice.page, 'game-alice');
  await shot(bob.page, 'game-bob');
  await shot(eve.page, 'game-spectator-after-moves');
});

contract('chat reaches the other player and the spectator', async () => {
  const { alice, bob, eve } = T;
  assert.ok(T.started, 'needs the game');
  await alice.page.fill('#chat input', 'Watch the door, Bob.');
  await alice.page.press('#chat input', 'Enter');
  for (const who of [bob, eve]) {
    await who.page.locator('#chat-lines li', { hasText: 'Watch the door, Bob.' }).waitFor();
  }
  // Every line says who sent it: a player's seat, or "spectator".
  const line = await bob.page.locator('#chat-lines li', { hasText: 'Watch the door, Bob.' }).textContent();
  assert.match(line, /\(seat \d\): Watch the door, Bob\./);
  await eve.page.fill('#chat input', 'I am a player, honest.');
  await eve.page.press('#chat input', 'Enter');
  const fromEve = alice.page.locator('#chat-lines li', { hasText: 'I am a player, honest.' });
  await fromEve.waitFor();
  assert.match(await fromEve.textContent(), /\(spectator\): I am a player, honest\./);
});

contract('a dropped connection reconnects and catches up with the others', async () => {
  const { alice, bob, eve } = T;
  assert.ok(T.players, 'needs the game played');
  const [a, b] = T.players;
  // Find a moment when one player can act: the other drops while the
  // actor makes events happen. If the mission already ended (the AI Dark
  // Legion can win early), a drop must still reconnect and agree.
  let actor = null;
  let seen;
  const describe = (st) => JSON.stringify({ to_act: st.view?.to_act, phase: st.view?.phase, pending: st.view?.pending,
    legal: [...new Set(st.legal.map((c) => c.type))] });
  const ready = (st, seat) => st.view.to_act === seat && !st.view.pending && st.view.phase.phase === 'corporation'
    && st.legal.some((c) => c.type !== 'set_allow_pass');
  try {
    await until('a player to have the turn, or the end', async () => {
      const [sa, sb] = [await citadelState(alice.page), await citadelState(bob.page)];
      seen = `alice ${describe(sa)}, bob ${describe(sb)}`;
      if (sa.view.phase.phase === 'finished') { actor = 'none'; return true; }
      if (ready(sa, 0)) { actor = 'alice'; return true; }
      if (ready(sb, 1)) { actor = 'bob'; return true; }
      await a.act();
      await b.act();
      return false;
    }, PLAY_MS, 50);
  } catch (e) {
    throw new Error(`${e.message}; last seen: ${seen}`);
  }
  const [mover, moverDriver, away] = actor === 'bob' ? [bob, b, alice] : [alice, a, bob];
  console.log(`# reconnect: ${away.label} drops while ${actor === 'none' ? 'the game is over' : `${mover.label} plays`}`);
  let awaySeq = 0;
  const state = await dropConnection(away, async () => {
    awaySeq = await seqOf(away);
    if (actor !== 'none') {
      await until(`${mover.label} to act while ${away.label} is away`, async () => {
        await moverDriver.act();
        return (await seqOf(mover)) > awaySeq;
      }, 15_000, 50);
      assert.equal(await seqOf(away), awaySeq, `${away.label} saw nothing while offline`);
    }
  });
  assert.equal(state, 'reconnecting', '#status says reconnecting while away');
  await until('Alice, Bob and Eve to agree on lastSeq', async () => {
    const seqs = [await seqOf(alice), await seqOf(bob), await seqOf(eve)];
    const caughtUp = actor === 'none' || (await seqOf(away)) > awaySeq;
    return caughtUp && seqs.every((x) => x === seqs[0]);
  }, 15_000);
  // The AI Dark Legion may still be playing: compare the two pages at one
  // and the same seq (read again until both are at it).
  let va, vb;
  await until('Alice and Bob to be at the same seq', async () => {
    [va, vb] = [await citadelState(alice.page), await citadelState(bob.page)];
    return va.seq === vb.seq;
  }, 15_000, 50);
  assert.deepEqual(vb.view.figures.map((f) => f.place), va.view.figures.map((f) => f.place),
    `both players see the figures in the same places at seq ${va.seq}`);
  await shot(away.page, 'after-reconnect');
});

contract('the game fits a phone (390×844)', async () => {
  const { alice, eve } = T;
  assert.ok(T.started, 'needs the game');
  for (const [who, name] of [[alice, 'game-phone'], [eve, 'game-phone-spectator']]) {
    await who.page.setViewportSize({ width: 390, height: 844 });
    const box = await who.page.locator('#board').boundingBox();
    assert.ok(box && box.width > 0 && box.height > 0, `${who.label}: the board shows at phone size`);
    const fits = box.x >= 0 && box.x + box.width <= 391;
    console.log(`# ${who.label} at 390×844: #board ${Math.round(box.width)}×${Math.round(box.height)} at x=${Math.round(box.x)}${fits ? '' : ' (wider than the screen: it scrolls)'}`);
    await shot(who.page, name);
  }
});
