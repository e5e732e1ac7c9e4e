// Missions and campaigns in the web client (issue 14, items 4 and 6), on a
// real Citadel server (`CITADEL_URL`): the mission picker with each
// mission's briefing and the starting rank, a game started with the chosen
// mission and rank ("Round 1 of N"), and the campaign screen's mission
// order and next briefing; the create form's game picker (the catalogue
// first, then the game's options, generic ones for a game without a module).
//
// Every expectation comes from the server's own data (`GET /api/content`:
// every mission with `playable` and `missing`), never from a list of
// mission ids: as more missions become playable these tests follow.
//
// Like screens.test.mjs these run once web-client/index.html carries the
// board client's marker `data-client="citadel-board"`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, createSoloGame, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { Player, citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;

const { pending, check } = await boardClientTests(URL, 'mission');

let browser;
/** @type {any[]} */
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

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

check('the content lists every mission, each playable or saying what it needs', async () => {
  assert.ok(missions.length >= 10, `all CE missions: ${missions.length}`);
  assert.ok(missions.some((m) => m.playable), 'at least one playable mission');
  for (const m of missions) {
    assert.equal(typeof m.playable, 'boolean', m.id);
    assert.equal(m.playable, m.missing.length === 0, `${m.id}: playable iff nothing is missing`);
  }
});

check('picking a mission shows its briefing; the game starts with that mission and rank: "Round 1 of N"', async () => {
  const { page } = await person(browser, 'picker');
  await page.goto(URL);
  await until('every mission in the picker', async () =>
    (await page.locator('form#create select[name=mission] option').count()) === missions.length);
  const submit = page.locator('form#create button[type=submit]');
  for (const m of missions) {
    await page.selectOption('form#create select[name=mission]', m.id);
    const brief = page.locator(`#mission-brief [data-mission="${m.id}"]`);
    await brief.waitFor();
    const text = await brief.innerText();
    // ROUNDS 0 (the 1993 training): no time limit.
    assert.match(text, m.rounds ? new RegExp(`Goal: .*within ${m.rounds} rounds?`) : /Goal: .*with no time limit/, `${m.id}: goal and rounds`);
    if (m.rewards.credits) {
      // The 1993 edition rewards credits (CEC-2), in words; none in training.
      const c = m.rewards.credits;
      assert.match(text, c.dt || c.dl ? new RegExp(`Rewards: success ${c.dt} credits?.*failure ${c.dl} credits?`) : /Rewards: none/, `${m.id}: credit rewards`);
    } else {
      assert.match(text, new RegExp(`Rewards: success \\+${m.rewards.success} PP`), `${m.id}: rewards`);
    }
    for (const a of m.special_actions) assert.match(text, new RegExp(escape(a.name)), `${m.id}: special action ${a.id}`);
    for (const r of m.special_rules) assert.ok(text.includes(r.text), `${m.id}: special rule ${r.key}`);
    const option = page.locator(`form#create select[name=mission] option[value="${m.id}"]`);
    assert.equal(await option.getAttribute('data-playable'), String(m.playable), `${m.id}: option marked`);
    if (m.playable) {
      assert.ok(await submit.isEnabled(), `${m.id}: can be created`);
      assert.doesNotMatch(text, /Not playable yet/);
    } else {
      assert.ok(await submit.isDisabled(), `${m.id}: cannot be created yet`);
      assert.match(text, /Not playable yet/, `${m.id}: greyed`);
      for (const gap of m.missing) assert.ok(text.includes(gap), `${m.id}: says it needs ${gap}`);
    }
  }
  const unplayable = missions.find((m) => !m.playable);
  if (unplayable) {
    await page.selectOption('form#create select[name=mission]', unplayable.id);
    await shot(page, 'mission-picker-unplayable');
  }

  // The last playable Collectors Edition mission (one with a time limit),
  // at starting rank 6 (RNK-4: 50 PP each).
  const m = missions.filter((x) => x.playable && x.edition === 'ce').at(-1);
  await page.selectOption('form#create select[name=mission]', m.id);
  await shot(page, 'mission-picker');
  await createSoloGame(page, m, 6, `Pia${unique}`);
  const lobby = await page.evaluate(() => window.citadel.lobby);
  assert.equal(lobby.options.mission, m.id, 'the chosen mission');
  assert.equal(lobby.options.starting_rank, 6, 'the chosen rank');
  assert.match(await page.locator('#lobby-options').innerText(), /starting rank 6\b/);
  // Through the setup decisions (equipment, entrances) to round 1, by
  // clicking like a player: pass when offered, else any legal step.
  const driver = new Player({ label: 'picker', page });
  const deadline = Date.now() + 60_000;
  let secondaryShown = false;
  for (;;) {
    const s = await citadelState(page);
    if (s.view?.round >= 1) break;
    assert.ok(Date.now() < deadline, `round 1 within 60 s (phase ${JSON.stringify(s.view?.phase)})`);
    const keep = s.legal.filter((c) => c.type === 'keep_secondary');
    if (keep.length && !secondaryShown) {
      // Before choosing, the page says what each offered card asks (from the content).
      const cards = page.locator('#decision .secondary-cards li');
      await until('the secondary cards described', async () => (await cards.count()) === keep.length);
      const texts = await cards.allInnerTexts();
      for (const [i, c] of keep.entries()) assert.match(texts[i], new RegExp(`#${c.card} .+ — .{20,}`), `card ${c.card} has its words`);
      await shot(page, 'secondary-choice');
      secondaryShown = true;
    }
    const options = page.locator('#decision button[data-option]');
    if ((await options.count()) > 0 && await page.locator('#decision').isVisible()) {
      const labels = await options.allTextContents();
      const pass = labels.findIndex((l) => /\b(pass|done|skip|no|decline|none)\b/i.test(l));
      await options.nth(pass >= 0 ? pass : 0).click();
      await driver.settled(s);
    } else if (s.legal.length) {
      await driver.act();
    } else {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const view = (await citadelState(page)).view;
  assert.equal(view.mission, m.id);
  assert.equal(secondaryShown, Boolean(m.secondary), 'the secondary choice was shown exactly when the mission has secondary missions');
  if (view.round === 1) {
    await until('"Round 1 of N"', async () =>
      new RegExp(`^Round 1 of ${m.rounds}\\b`).test(await page.locator('#round').innerText()));
  }
  assert.match(await page.locator('#round').innerText(), new RegExp(`^Round ${view.round} of ${m.rounds}\\b`));
  assert.match(await page.locator('#briefing').innerText(), new RegExp(`${escape(m.name)}.*Goal: `));
  // RNK-4: every player starts at 10·(R0−1) PP (the page's seat has not
  // acted yet, so it has earned nothing).
  const team = view.teams.find((t) => t.seat === 0);
  assert.ok(team, 'seat 0 plays a corporation');
  assert.equal(team.pp, 50, 'starting rank 6');
  assert.equal(view.dark_legion.seat, null, 'the AI plays the Dark Legion');
  await shot(page, 'game-round-of-n');
  await page.context().close();
});

/** Create a campaign through the home page's forms and join it; returns its code. */
async function createCampaign(page, name, which, missions = '') {
  await page.goto(URL);
  await page.locator('form#create-campaign').waitFor();
  await page.fill('form#create-campaign [name=name]', name);
  await page.fill('form#create-campaign [name=players]', '1');
  await page.selectOption('form#create-campaign select[name=campaign]', which);
  await page.fill('form#create-campaign [name=missions]', missions);
  await page.selectOption('form#create-campaign select[name=dark_legion]', 'ai');
  await page.locator('form#create-campaign button[type=submit]').click();
  let code = '';
  await until('the campaign code', async () => {
    code = await page.locator('form#join-campaign [name=code]').inputValue();
    return code.length === 6;
  });
  await page.fill('form#join-campaign [name=name]', `Cam${unique}`);
  await page.selectOption('form#join-campaign select[name=corporation]', 'imperial');
  await page.locator('form#join-campaign button[type=submit]').click();
  await page.locator('#campaign').waitFor({ state: 'visible' });
  await page.locator('#standings tr[data-player="0"]').waitFor();
  return code;
}

for (const [which, n] of [['c1', 1], ['c2', 2]]) {
  check(`the campaign screen of Campaign ${n}: its missions in order, the next briefing, rank and PP`, async () => {
    const { page } = await person(browser, `campaign-${which}`);
    await createCampaign(page, `Campaign ${n} ${unique}`, which);
    const inOrder = missions.filter((m) => m.campaign === n);
    assert.equal(inOrder.length, 5, `five missions in Campaign ${n}`);
    assert.match(await page.locator('#campaign-info').innerText(), new RegExp(`Campaign ${n}\\b`));
    assert.match(await page.locator('#campaign-info').innerText(), /0\/5 missions/, 'M defaults to the whole campaign');

    // The mission order: names in record order, the first one next.
    await until('the mission order', async () => (await page.locator('#campaign-order li').count()) === 5);
    const items = await page.locator('#campaign-order li').allInnerTexts();
    inOrder.forEach((m, i) => assert.ok(items[i].startsWith(`${m.name} (`), `mission ${i + 1} is ${m.name}: ${items[i]}`));
    const first = inOrder[0];
    assert.equal(await page.locator('#campaign-order li.next').getAttribute('data-mission'), first.id);
    for (const [i, m] of inOrder.entries()) {
      assert.equal(await page.locator(`#campaign-order li[data-order="${i}"]`).evaluate((e) => e.classList.contains('unplayable')),
        !m.playable, `${m.id} greyed iff not playable`);
    }

    // The next mission's briefing.
    await page.locator('#campaign-next').waitFor({ state: 'visible' });
    assert.match(await page.locator('#campaign-next-name').innerText(), new RegExp(`^${escape(first.name)} .*mission 1 of 5`));
    const brief = await page.locator('#campaign-next-brief').innerText();
    assert.match(brief, new RegExp(`Goal: .*within ${first.rounds} rounds?`));
    assert.match(brief, /Rewards: /);

    // Rank and PP per player; gear is not carried (EQP-6).
    const cell = (i) => page.locator(`#standings tr[data-player="0"] td:nth-child(${i})`).innerText();
    assert.match(await cell(3), /Imperial/);
    assert.equal((await cell(4)).trim(), '0', 'PP');
    assert.equal((await cell(5)).trim(), '1', 'rank');
    assert.match(await page.locator('#campaign-gear').innerText(), /EQP-6/);

    // Start only what can be played: an unplayable next mission is named,
    // never replaced by another.
    const next = page.locator('#next-mission');
    await next.waitFor({ state: 'visible' });
    if (first.playable) {
      assert.ok(await next.isEnabled());
      assert.match(await next.innerText(), /Start mission 1/);
    } else {
      assert.ok(await next.isDisabled(), 'an unplayable mission cannot be started');
      assert.match(await next.innerText(), /not playable yet/);
      assert.match(await page.locator('#campaign-state').innerText(), /not playable yet.*needs/);
    }
    await shot(page, `campaign-${which}-order`);
    await page.context().close();
  });
}

const PASS_LIKE = /\b(pass|done|skip|no|decline|none)\b/i;

/**
 * Click through the page's seat until `stop(state)` holds: answer decisions
 * (passing when offered), end the turn or activation as soon as the rules
 * allow, else let the driver take a legal step.
 */
async function clickUntil(who, stop, ms = 90_000) {
  const { page } = who;
  const driver = new Player(who);
  const deadline = Date.now() + ms;
  for (;;) {
    const s = await citadelState(page);
    if (stop(s)) return;
    assert.ok(Date.now() < deadline, `${who.label}: not done within ${ms} ms (round ${s.view?.round})`);
    const todo = s.legal.filter((c) => c.type !== 'set_allow_pass');
    if (!todo.length) { await new Promise((r) => setTimeout(r, 100)); continue; }
    const types = new Set(todo.map((c) => c.type));
    const options = page.locator('#decision button[data-option]');
    if (types.has('end_turn') && await page.locator('#end-turn').isEnabled()) {
      await page.locator('#end-turn').click();
      await driver.settled(s);
    } else if (types.has('end_activation') && await page.locator('#end-activation').isEnabled()) {
      await page.locator('#end-activation').click();
      await driver.settled(s);
    } else if ((await options.count()) > 0 && await page.locator('#decision').isVisible()) {
      const labels = await options.allTextContents();
      const pass = labels.findIndex((l) => PASS_LIKE.test(l));
      await options.nth(pass >= 0 ? pass : 0).click();
      await driver.settled(s);
    } else {
      await driver.act();
    }
  }
}

check('a two-mission campaign: after mission 1 the next is mission 2 of the order, with its briefing', async () => {
  const who = await person(browser, 'two-missions');
  const { page } = who;
  await createCampaign(page, `Two ${unique}`, 'c1', '2');
  const [m1, m2] = missions.filter((m) => m.campaign === 1);
  assert.ok(m1.playable, 'the first mission of Campaign 1 is playable');
  assert.equal(await page.locator('#campaign-order li').count(), 2, 'M = 2');
  await page.locator('#next-mission').waitFor({ state: 'visible' });
  await page.click('#next-mission');
  await until('the mission to open', async () => {
    if (await page.locator('#board').isVisible()) return true;
    if (await page.locator('#play-campaign-game').isVisible()) await page.click('#play-campaign-game').catch(() => {});
    return false;
  }, 20_000, 250);
  await waitForState(page, 'connected');
  assert.equal((await citadelState(page)).view?.mission, m1.id, 'mission 1 is the first of the order');
  await clickUntil(who, (s) => s.view?.phase?.phase === 'finished');
  await page.locator('#scoreboard').waitFor({ state: 'visible' });
  await page.click('#back-to-campaign');
  await page.locator('#campaign').waitFor({ state: 'visible' });
  await until('mission 1 in the history', async () => (await page.locator('#history tr[data-mission="0"]').count()) === 1);
  assert.match(await page.locator('#history tr[data-mission="0"]').innerText(), new RegExp(escape(m1.name)));
  // CMP-5: the next mission is the second of the order whatever the outcome.
  await until('mission 2 next', async () => (await page.locator('#campaign-order li.next').getAttribute('data-mission').catch(() => null)) === m2.id);
  assert.match(await page.locator('#campaign-order li[data-order="0"]').innerText(), /accomplished|failed/);
  await page.locator('#campaign-next').waitFor({ state: 'visible' });
  assert.match(await page.locator('#campaign-next-name').innerText(), new RegExp(`^${escape(m2.name)} .*mission 2 of 2`));
  assert.match(await page.locator('#campaign-next-brief').innerText(), new RegExp(`Goal: .*within ${m2.rounds} rounds?`));
  await shot(page, 'campaign-mission-2-next');
  const next = page.locator('#next-mission');
  if (!m2.playable) {
    assert.ok(await next.isDisabled(), 'mission 2 cannot start before it is playable');
    assert.match(await page.locator('#campaign-state').innerText(), new RegExp(`${escape(m2.name)}.*not playable yet`));
    return;
  }
  // Mission 2 starts as the campaign's next mission, not mission 1 again.
  await page.click('#next-mission');
  await until('mission 2 to open', async () => {
    if (await page.locator('#board').isVisible()) return true;
    if (await page.locator('#play-campaign-game').isVisible()) await page.click('#play-campaign-game').catch(() => {});
    return false;
  }, 20_000, 250);
  await until('mission 2 in play', async () => (await citadelState(page)).view?.mission === m2.id);
  await clickUntil(who, (s) => s.view?.round >= 1);
  assert.match(await page.locator('#round').innerText(), new RegExp(`^Round \\d+ of ${m2.rounds}\\b`));
  await page.context().close();
});

check('three different missions start and play a few turns in the browser', async () => {
  const playable = missions.filter((m) => m.playable);
  assert.ok(playable.length >= 3, `at least three playable missions: ${playable.map((m) => m.id).join(', ')}`);
  // The first, a middle and the last playable mission.
  const picks = [playable[0], playable[Math.floor(playable.length / 2)], playable.at(-1)];
  for (const m of picks) {
    const who = await person(browser, `play-${m.id}`);
    const { page } = who;
    await page.goto(URL);
    await until('every mission in the picker', async () =>
      (await page.locator('form#create select[name=mission] option').count()) === missions.length);
    await createSoloGame(page, m, 1, `Tri${unique}`);
    // Round 1 and the Dark Legion's turn, into round 2 (or the end).
    await clickUntil(who, (s) => s.view?.round >= 2 || s.view?.phase?.phase === 'finished', 120_000);
    const view = (await citadelState(page)).view;
    assert.equal(view.mission, m.id, 'the mission played');
    // A mission without a time limit (the 1993 training, `rounds` 0) has
    // no "of N".
    const of = m.rounds ? ` of ${m.rounds}\\b` : ' ·';
    assert.match(await page.locator('#round').innerText(), new RegExp(`^(Round \\d+${of}|.*finished)`));
    assert.match(await page.locator('#briefing').innerText(), new RegExp(`${escape(m.name)}.*Goal: `));
    await shot(page, `play-${m.id}`);
    await page.context().close();
  }
});

check('the create form picks the game first (the catalogue), then its options; a game without a module gets fields from its option specs', async () => {
  const catalogue = await (await fetch(`${URL}/api/catalogue`)).json();
  assert.ok(catalogue.some((g) => g.id === 'siege'), 'the catalogue lists Siege');
  const who = await person(browser, 'game-picker');
  const { page } = who;
  // The real catalogue plus a made-up game this page has no module for,
  // with an integer and a choice option.
  const neuroshima = {
    id: 'madeup', name: 'A made-up game', rules: catalogue[0].rules,
    options: [
      { name: 'players', label: 'Players', kind: 'integer', min: 2, max: 4, default: 2, note: 'two to four armies' },
      { name: 'army', label: 'Army', kind: 'choice', choices: [{ value: 'moloch', name: 'Moloch' }, { value: { mode: 'drawn' }, name: 'Drawn' }], default: { mode: 'drawn' } },
      { name: 'bonus', label: 'Bonus', kind: 'integer', min: 0, max: 9, default: null },
    ],
  };
  await page.route('**/api/catalogue', (route) => route.fulfill({ json: [...catalogue, neuroshima] }));
  /** Every POST /api/games body the page sends. */
  const bodies = [];
  await page.route('**/api/games', async (route) => {
    const req = route.request();
    if (req.method() !== 'POST') return route.continue();
    const body = req.postDataJSON();
    bodies.push(body);
    if (body.kind === 'madeup') return route.fulfill({ status: 400, json: { error: 'bad_options', message: 'no such game here' } });
    return route.continue();
  });
  await page.goto(URL);
  const kind = page.locator('form#create select[name=kind]');
  await until('the catalogue in the game picker', async () => (await kind.locator('option').count()) === catalogue.length + 1);
  assert.deepEqual(await kind.locator('option').evaluateAll((os) => os.map((o) => [o.value, o.textContent])),
    [...catalogue, neuroshima].map((g) => [g.id, g.name]), 'the games in the catalogue\'s order, by name');
  assert.equal(await kind.inputValue(), 'siege', 'the first game is picked');
  await until('Siege\'s own options', async () => page.locator('form#create select[name=mission]').isVisible());

  // Another game: its options from the specs, and Siege's fields gone (not sent, not required).
  await kind.selectOption('madeup');
  await page.locator('#create-generic [data-option=players] input').waitFor({ state: 'visible' });
  assert.equal(await page.locator('form#create select[name=mission]').isVisible(), false, 'no mission picker for another game');
  const players = page.locator('#create-generic [data-option=players] input');
  assert.deepEqual(await players.evaluate((i) => [i.type, i.min, i.max, i.value]), ['number', '2', '4', '2']);
  assert.match(await page.locator('#create-generic [data-option=players]').innerText(), /two to four armies/);
  const army = page.locator('#create-generic [data-option=army] select');
  assert.deepEqual(await army.locator('option').allTextContents(), ['Moloch', 'Drawn']);
  assert.equal(await army.locator('option:checked').textContent(), 'Drawn', 'the default is picked');
  await shot(page, 'create-generic');
  await page.fill('form#create [name=name]', `Gen${unique}`);
  await players.fill('3');
  await army.selectOption({ label: 'Moloch' });
  await page.fill('#create-generic [data-option=bonus] input', '5');
  await page.locator('form#create button[type=submit]').click();
  await until('the game\'s options sent', async () => bodies.length === 1);
  // The platform's own options beside the game's: the turn limit, and
  // listed in the lobby (the box is ticked by default).
  assert.deepEqual(bodies[0], { kind: 'madeup', players: 3, army: 'moloch', bonus: 5, turn_seconds: null, listed: true });
  await until('the refusal shown', async () => /no such game here/.test(await page.locator('#toast').innerText()));

  // Back to Siege: its form again, and a game of that kind in the lobby.
  await kind.selectOption('siege');
  await page.locator('form#create select[name=mission]').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#create-generic').isVisible(), false);
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  const sent = bodies.at(-1);
  assert.equal(sent.kind, 'siege');
  assert.equal(sent.seats, 1);
  assert.deepEqual(sent.dark_legion, { mode: 'ai' });
  const lobby = await page.evaluate(() => window.citadel.lobby);
  assert.equal(lobby.kind, 'siege', 'the lobby names the game');
  assert.equal(await page.evaluate(() => window.citadel.kind), 'siege');
  // Siege's lobby choice: one `choose` with the whole choice each time.
  await page.click('button[data-corp=cybertronic]');
  await until('the corporation taken', async () => (await page.evaluate(() => window.citadel.lobby.seats[0].choice?.corporation)) === 'cybertronic');
  await page.selectOption('#team-choice', 'close_combat,tech');
  await until('the team chosen', async () => (await page.evaluate(() => window.citadel.lobby.seats[0].choice?.doomtroopers?.slice().sort().join())) === 'close_combat,tech');
  const chooses = await page.evaluate(() => window.citadel.sent.filter((m) => m.type === 'choose'));
  assert.deepEqual(chooses.at(-1), { type: 'choose', choice: { corporation: 'cybertronic', doomtroopers: ['close_combat', 'tech'] } },
    'the corporation kept when the team changes');
  assert.equal(await page.locator('button[data-corp=cybertronic]').getAttribute('aria-pressed'), 'true');
  // A game this page has no module for is refused in words, and the page goes home.
  // (Neuroshima Hex has its module now: the made-up game stands for one without.)
  await page.evaluate(() => window.citadel.receive({ type: 'welcome', protocol: 3, kind: 'madeup', seat: 0, token: null }));
  await page.locator('#home').waitFor({ state: 'visible' });
  assert.match(await page.locator('#toast').innerText(), /cannot show A made-up game games/);
  await page.context().close();
});
