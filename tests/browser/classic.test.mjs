// The 1993 edition in the browser (issue 15, item 6), on a real Citadel
// server (`CITADEL_URL`): the training mission `classic-training` created
// from the picker (the 1993 group, "no time limit", ranks 1–6), in hotseat
// with two corporations against the AI Dark Legion, and played by clicking
// (the Player driver: own figure, highlighted squares, decision buttons,
// end activation/turn) through the "Hand the device to …" screen.
//
// What it checks on the way: the Citadel piece is drawn (its solid base,
// the red entrance CITADEL on it, gates on its arms), each team's
// extra-action pool is shown and goes down when a Doomtrooper takes a third
// action, a creature's tooltip gives its AF, and the hand box ("Your
// cards") lists the shown seat's own two-use Doomtrooper cards (the
// training deals them) by name, both uses each with the uses the legal
// list offers marked, as many as the server sent; no seat's cards while the
// hand-over screen is up. Once, a marked use is played from the hand box
// by clicking, and the page sends exactly the command the server offered.
// The players step towards the nearest creature, else into a sector whose
// force cards are still face down, and never off the board; the game is
// played to its end (every Dark Legion figure eliminated, or every
// Doomtrooper out) within `CITADEL_CLASSIC_MS`. With
// CITADEL_CLASSIC_TO_END=0 the end is not required, only several rounds.
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';
import { Player, citadelState } from './lib/driver.mjs';

const URL = process.env.CITADEL_URL;
/** How long the two players may play. */
const PLAY_MS = Number(process.env.CITADEL_CLASSIC_MS ?? 180_000);
const TO_END = process.env.CITADEL_CLASSIC_TO_END !== '0';

const { pending, check } = await boardClientTests(URL, 'classic');

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
/** 1993 card uses whose effect lasts (the round or the mission), listed
 *  under "Cards in play" (`view.effects.cards`). */
const LASTING_USES = new Set(['combat_aura', 'legionnaire_fear', 'necrofear', 'hurt_leg', 'uncalibrated_targeter',
  'combat_neurosis', 'spectral_displacement']);

check('classic: the picker groups missions by edition; ranks 1-6 and no time limit for the 1993 training', async () => {
  const { page, context } = await person(browser, 'picker');
  await page.goto(URL);
  await until('the mission picker', async () => (await page.locator('form#create select[name=mission] option[value="classic-training"]').count()) === 1);
  const groups = await page.locator('form#create select[name=mission] optgroup').evaluateAll((gs) =>
    gs.map((g) => ({ label: g.getAttribute('label'), ids: [...g.querySelectorAll('option')].map((o) => o.value) })));
  assert.equal(groups.at(-1).label, '1993 edition', 'the 1993 edition comes after the Collectors Edition');
  const classicIds = content.missions.filter((m) => m.edition === 'classic').map((m) => m.id);
  assert.deepEqual(groups.at(-1).ids, classicIds, 'every 1993 mission, in record order, in its group');
  for (const g of groups.slice(0, -1)) {
    assert.match(g.label, /^Collectors Edition/);
    assert.ok(g.ids.every((id) => id.startsWith('ce-')), `${g.label}: CE missions only`);
  }
  const option = await page.locator('option[value="classic-training"]').textContent();
  assert.match(option, /no time limit/, 'ROUNDS 0 reads as no time limit');
  // A CE rank 9, then the 1993 training: the rank is clamped to 6.
  await page.selectOption('form#create select[name=mission]', content.missions.find((m) => m.edition === 'ce' && m.playable).id);
  assert.equal(await page.getAttribute('form#create [name=starting_rank]', 'max'), '12');
  await page.fill('form#create [name=starting_rank]', '9');
  await page.selectOption('form#create select[name=mission]', 'classic-training');
  assert.equal(await page.getAttribute('form#create [name=starting_rank]', 'max'), '6', 'ranks 1-6 in the 1993 edition');
  assert.equal(await page.inputValue('form#create [name=starting_rank]'), '6', 'the rank is clamped');
  const brief = await page.locator('#mission-brief').textContent();
  assert.match(brief, /no time limit/);
  assert.match(brief, /no credits/i, 'the training gives no credits');
  // A 1993 mission with credit rewards says so in words.
  await page.selectOption('form#create select[name=mission]', 'classic-m1');
  const m1 = content.missions.find((m) => m.id === 'classic-m1');
  assert.match(await page.locator('#mission-brief').textContent(), new RegExp(`success ${m1.rewards.credits.dt} credits?`));
  // A 1993 campaign: its own fields (how it ends, the target, free choice)
  // show only once it is chosen, and its ranks are 1-6.
  const form = page.locator('form#create-campaign');
  assert.equal(await form.locator('select[name=end]').isVisible(), false, 'no 1993 fields for a CE campaign');
  assert.equal(await form.locator('[name=starting_rank]').getAttribute('max'), '12');
  await form.locator('select[name=campaign]').selectOption('classic');
  assert.equal(await form.locator('select[name=end]').isVisible(), true, 'the 1993 campaign says how it ends');
  assert.equal(await form.locator('[name=target_pp]').isVisible(), true);
  assert.equal(await form.locator('[name=free_choice]').isVisible(), true);
  assert.equal(await form.locator('[name=starting_rank]').getAttribute('max'), '6', '1993 ranks 1-6');
  await context.close();
});

check('classic: the training mission in hotseat, two corporations against the AI, played by clicking', async () => {
  const who = await person(browser, 'classic');
  const { page } = who;
  const mission = content.missions.find((m) => m.id === 'classic-training');
  assert.ok(mission?.playable, 'the 1993 training mission is playable');
  assert.equal(mission.edition, 'classic');
  const [alice, bob] = [`Ada${unique}`, `Bo${unique}`];

  await page.goto(URL);
  await until('the mission picker', async () => (await page.locator('form#create select[name=mission] option[value="classic-training"]').count()) === 1);
  await page.selectOption('form#create select[name=mission]', 'classic-training');
  await page.fill('form#create [name=name]', alice);
  await page.fill('form#create [name=seats]', '2');
  await page.fill('form#create [name=starting_rank]', '6');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await page.fill('#add-local [name=name]', bob);
  await page.click('#add-local button[type=submit]');
  await until('Bo in seat 2', async () => ((await page.locator('#seats tr[data-seat="1"]').textContent()) ?? '').includes(bob));
  for (const [seat, corp] of [[0, 'mishima'], [1, 'capitol']]) {
    await page.click(`#local-seats button[data-local-seat="${seat}"]`);
    await until(`seat ${seat} shown`, async () => (await citadelState(page)).seat === seat);
    await page.click(`button[data-corp=${corp}]`);
    await until(`${corp} taken`, async () => new RegExp(corp, 'i').test((await page.locator(`#seats tr[data-seat="${seat}"]`).textContent()) ?? ''));
    await page.click('#ready');
    await until(`seat ${seat} ready`, async () => /ready/.test((await page.locator(`#seats tr[data-seat="${seat}"]`).textContent()) ?? ''));
  }
  await page.locator('#start').waitFor({ state: 'visible' });
  await page.click('#start');
  await page.locator('#board').waitFor({ state: 'visible', timeout: 20_000 });

  // The board: the Citadel piece.
  const citadel = await until('the Citadel drawn', async () => page.evaluate(() => {
    const c = document.querySelector('#board [data-citadel]');
    if (!c) return null;
    return {
      at: c.getAttribute('data-citadel'),
      base: [...document.querySelectorAll('#board .sq.citadel-base')].map((e) => e.getAttribute('data-square')).sort(),
      gates: document.querySelectorAll('#board .citadel-gate').length,
      entrance: document.querySelector('#board [data-entrance="CITADEL"]')?.textContent ?? null,
      entranceClass: document.querySelector('#board [data-entrance="CITADEL"]')?.getAttribute('class') ?? '',
      walls: document.querySelectorAll('#board line.wall').length,
    };
  }), 20_000);
  assert.equal(citadel.at, '16,8', 'the training mission\'s CITADEL 16,8');
  // Its 2×2 base (15..16, 7..8), less 16,7: the layout "1 2 -- / 4 5 3"
  // leaves the top right tile out, and the Citadel stands at its corner.
  assert.deepEqual(citadel.base, ['15,7', '15,8', '16,8'], 'its base squares on the board');
  // Two gate squares on each side of each arm, 16, less the 4 of the north
  // and east arms that fall in the missing tile.
  assert.equal(citadel.gates, 12, 'the gate squares on the board');
  assert.equal(citadel.entrance, 'CITADEL', 'the red entrance CITADEL is marked');
  assert.match(citadel.entranceClass, /\bred\b/);
  const map = await page.evaluate(() => window.citadel.staticData ?? null);
  if (map) {
    const arm = map.walls.filter((w) => w.V?.x === 16 || w.H?.y === 8).length;
    assert.ok(arm >= 24, `the Citadel's arms are walls (${arm})`);
  }

  // Where to step, as a player who wants to win would: never off the board
  // (a Doomtrooper who leaves is out of the mission), towards the nearest
  // creature, else into a sector whose force cards are still face down
  // (the goal needs them revealed and their creatures eliminated), else
  // towards the Citadel, where the Dark Legion comes from.
  const dist = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
  const onBoard = new Set((map?.squares ?? []).filter((q) => q.glyph !== '#' && q.glyph !== 'O').map((q) => `${q.at.x},${q.at.y}`));
  for (const b of citadel.base) onBoard.delete(b);
  const walls = new Set((map?.walls ?? []).map((w) => ('V' in w ? `V${w.V.x},${w.V.y}` : `H${w.H.x},${w.H.y}`)));
  /** Steps from the nearest goal square, around walls (4 directions). */
  // The wall key of the edge between two orthogonal neighbours (as `walls`).
  const edgeKey = (a, b) => (a.y === b.y ? `V${Math.max(a.x, b.x)},${a.y}` : `H${a.x},${Math.max(a.y, b.y)}`);
  const stepsFrom = (goals, closed = new Set()) => {
    const d = new Map(goals.map((g) => [`${g.x},${g.y}`, 0]));
    const queue = goals.map((g) => ({ x: g.x, y: g.y }));
    for (let i = 0; i < queue.length; i++) {
      const { x, y } = queue[i];
      const here = d.get(`${x},${y}`);
      for (const [nx, ny, edge] of [[x + 1, y, `V${x + 1},${y}`], [x - 1, y, `V${x},${y}`], [x, y + 1, `H${x},${y + 1}`], [x, y - 1, `H${x},${y}`]]) {
        const k = `${nx},${ny}`;
        if (!onBoard.has(k) || walls.has(edge) || closed.has(edge) || d.has(k)) continue;
        d.set(k, here + 1);
        queue.push({ x: nx, y: ny });
      }
    }
    return d;
  };
  const gateSquares = (map?.entrances ?? []).find((e) => e.id === 'CITADEL')?.squares ?? [];
  const nearCitadel = (map?.squares ?? []).map((q) => q.at).filter((q) => onBoard.has(`${q.x},${q.y}`)
    && gateSquares.every((g) => dist(q, g) >= 2) && dist(q, map?.citadel ?? { x: 16, y: 8 }) <= 7);
  const pickTarget = (st, _figure, targets) => {
    const inside = targets.filter((t) => onBoard.has(t));
    if (!inside.length) return false;
    const foes = st.view.figures.filter((f) => f.kind.kind === 'creature' && f.place.at === 'board').map((f) => f.place.square);
    const hidden = new Set((st.view.tiles ?? []).map((t, i) => (t.face_down > 0 ? i : -1)).filter((i) => i >= 0));
    const unrevealed = (map?.squares ?? []).filter((q) => hidden.has(q.tile) && onBoard.has(`${q.at.x},${q.at.y}`)).map((q) => q.at);
    // Nothing to fight nor to reveal: creatures wait in the Citadel. Stand
    // near it, off its gates and their neighbours, so they can come out.
    const goals = foes.length ? foes : unrevealed.length ? unrevealed : nearCitadel;
    // A creature's own square is not walkable, so start from its neighbours
    // (those not behind a Remote Controlled Door: a wall while it stands,
    // and the hunters would wait at it forever).
    const closed = new Set((st.view.card_doors ?? []).map(([a, b]) => edgeKey(a, b)));
    const d = stepsFrom(foes.length
      ? goals.flatMap((g) => [{ x: g.x + 1, y: g.y }, { x: g.x - 1, y: g.y }, { x: g.x, y: g.y + 1 }, { x: g.x, y: g.y - 1 }]
        .filter((n) => !closed.has(edgeKey(g, n))))
        .filter((g) => onBoard.has(`${g.x},${g.y}`))
      : goals, closed);
    const score = (t) => d.get(t) ?? 1e9;
    return inside.reduce((best, t) => (score(t) < score(best) ? t : best));
  };
  const options = { actionsPerTurn: 8, attacksPerTurn: 6, pickTarget };
  const drivers = new Map([[0, new Player({ label: alice, page }, options)], [1, new Player({ label: bob, page }, options)]]);
  const pools = new Map();
  let poolDrops = 0;
  let poolShownChecks = 0;
  let creatureTooltip = null;
  let dtTooltip = null;
  let legend = null;
  let boardShot = false;
  let handovers = 0;
  let lastHandover = null;
  let maxRound = 0;
  let twoUseChecks = 0;
  let windowPlaysChecked = 0;
  let windowShot = false;
  let effectsSeen = 0;
  let cardsShown = 0;
  let legalUsesShown = 0;
  let handShot = false;
  let played = null;
  let hiddenCards = 0;
  const dealtSeen = new Set();
  /**
   * The hand box against what the server sent, on one snapshot: while a
   * seat is shown, exactly its own two-use cards (`TeamView.cards` of its
   * own connection), in order, each named as the content names it, with
   * its two uses and their texts, a use marked legal exactly when the legal
   * list offers it; while the hand-over screen or the neutral view is up,
   * no card at all. Returns 1 when it checked a shown seat's hand.
   */
  const checkTwoUseHand = (snap, view) => {
    const seat = snap.hotseat.seats.find((x) => x.shown) ?? null;
    if (snap.handoverShown || !seat) {
      assert.deepEqual(snap.twoUse, [], 'no two-use card in the page while no seat is shown');
      // No held card's name anywhere (the neutral log says "is dealt 2 Doomtrooper cards.").
      for (const s of snap.hotseat.seats) {
        for (const n of s.cards ?? []) {
          const name = content.classic.two_use_cards.find((c) => c.number === n)?.name;
          assert.ok(name && snap.text !== null && !snap.text.includes(name), `seat ${s.seat}'s card "${name}" is not in the page behind the hand-over screen`);
          hiddenCards += 1;
        }
      }
      return 0;
    }
    const team = view.teams.find((t) => t.seat === seat.seat);
    const sent = seat.cards ?? [];
    assert.equal(sent.length, team.cards_size ?? 0, 'the owner gets every card its team holds');
    assert.deepEqual(snap.twoUse.map((c) => c.number), sent, `the hand box lists exactly ${seat.name}'s cards`);
    for (const other of view.teams.filter((t) => t.seat !== seat.seat)) {
      assert.equal(other.cards, undefined, `team ${other.team}'s cards are not in ${seat.name}'s view`);
    }
    assert.equal(snap.handBoxShown, true, 'the hand box is shown to a seat');
    assert.equal(snap.handTitle, sent.length ? 'Your cards' : 'Your cards: none');
    if (sent.length) cardsShown += 1;
    // The deal in the seat's own log, by name, while the first cards are still held.
    if (!played && !dealtSeen.has(seat.seat) && sent.length) {
      const dealt = snap.cardLog.find((l) => / \(you\) is dealt \d Doomtrooper cards?: /.test(l));
      assert.ok(dealt, `${seat.name}'s log says what it was dealt: ${JSON.stringify(snap.cardLog)}`);
      for (const n of sent) assert.ok(dealt.includes(content.classic.two_use_cards.find((c) => c.number === n).name), `the deal names card ${n}: ${dealt}`);
      assert.doesNotMatch(snap.cardLog.join('\n'), /draws no Doomtrooper cards/, 'no empty Collectors Edition deal in a 1993 log');
      dealtSeen.add(seat.seat);
    }
    // The start-of-turn card window offers its plays in the decision box
    // too: one button per card use the legal list offers, nothing else.
    const windowUses = view.pending?.decision === 'card_window'
      ? [...new Set(snap.legal.filter((c) => c.type === 'play_two_use').map((c) => `${c.card}:${c.card_use}`))] : [];
    assert.deepEqual([...snap.windowPlays].sort(), windowUses.sort(), 'the card window lists exactly the playable card uses');
    if (windowUses.length) {
      windowPlaysChecked += 1;
      assert.equal(snap.actionRowPlays, 0, 'the card window\'s plays are not repeated in the actions row');
    }
    const win = view.pending?.decision === 'reaction' ? view.pending.window : null;
    snap.twoUse.forEach((shown, i) => {
      const def = content.classic.two_use_cards.find((c) => c.number === shown.number);
      assert.ok(def, `card ${shown.number} is in the content`);
      assert.ok(shown.visible, `card ${shown.number} is visible`);
      assert.equal(shown.name, def.name, `card ${shown.number} by name`);
      assert.deepEqual(shown.uses.map((u) => u.use), def.uses.map((u) => u.card_use), `card ${shown.number}: both uses`);
      shown.uses.forEach((u, k) => {
        const d = def.uses[k];
        assert.ok(u.text.includes(d.name) && u.text.includes(d.text), `${d.name}: its name and what it does`);
        const offered = snap.legal.some((c) => (c.type === 'play_two_use' && c.card === shown.number && c.card_use === d.card_use)
          || (c.type === 'react' && c.card === i && win !== null && d.answers === win));
        assert.equal(u.legal, offered, `${d.name} is marked ${offered ? '' : 'not '}playable as the legal list says`);
        assert.equal(u.button, offered, `${d.name}: a Play button exactly when it may be played`);
        if (offered) legalUsesShown += 1;
      });
    });
    return 1;
  };
  /**
   * Play one marked use from the hand box by clicking, as a player would:
   * "Play" when the use has one command, else "Play…" and its first target.
   * The page must send exactly the offered command, and the card must
   * leave the hand.
   */
  const playFromHand = async (snap) => {
    // A use played on two sectors first (its two-step choice), then one
    // whose effect lasts, so "Cards in play" gets an entry.
    const pairFirst = (u) => u.legal && snap.legal.some((c) => c.type === 'play_two_use' && c.card_use === u.use && c.to_tile !== null && c.to_tile !== undefined);
    const lastingFirst = (u) => u.legal && LASTING_USES.has(u.use);
    const card = snap.twoUse.find((c) => c.uses.some(pairFirst)) ?? snap.twoUse.find((c) => c.uses.some(lastingFirst))
      ?? snap.twoUse.find((c) => c.uses.some((u) => u.legal));
    if (!card) return null;
    const u = card.uses.find(pairFirst) ?? card.uses.find(lastingFirst) ?? card.uses.find((x) => x.legal);
    const cmds = snap.legal.filter((c) => c.type === 'play_two_use' && c.card === card.number && c.card_use === u.use);
    if (!cmds.length) return null; // a reaction: left to the decision box
    await shot(page, 'classic-hand-playable');
    const before = await page.evaluate(() => window.citadel.sent.length);
    const li = `#hand [data-two-use="${card.number}"] [data-use="${u.use}"]`;
    await page.click(`${li} button[data-play-use]`);
    let pair = false;
    if (cmds.length > 1) {
      const first = page.locator(`${li} .use-targets button`).first();
      pair = (await first.getAttribute('data-from-tile')) !== null;
      if (pair) {
        // Two sectors: the first sector offered, then the first neighbour it may go to.
        const froms = await page.locator(`${li} .use-targets button[data-from-tile]`).evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-from-tile'))));
        assert.deepEqual(froms, [...new Set(cmds.map((c) => c.tile))], 'one "From" button per sector the card may take from');
        await first.click();
        const tos = await page.locator(`${li} .use-targets button[data-to-tile]`).evaluateAll((bs) => bs.map((b) => Number(b.getAttribute('data-to-tile'))));
        assert.deepEqual(tos, cmds.filter((c) => c.tile === cmds[0].tile).map((c) => c.to_tile), 'then one "To" button per neighbour of that sector');
        await page.locator(`${li} .use-targets button[data-to-tile]`).first().click();
      } else await first.click();
    }
    const sent = await page.evaluate(() => window.citadel.sent.at(-1));
    assert.equal(await page.evaluate(() => window.citadel.sent.length), before + 1, 'one message sent');
    assert.equal(sent.type, 'command');
    assert.deepEqual(sent.command, cmds[0], 'the hand box sends the command the server offered');
    await until(`card ${card.number} to leave the hand`, async () =>
      !((await page.evaluate(() => window.citadel.hotseat.seats.find((s) => s.shown)?.cards ?? [])).includes(card.number)));
    return { card: card.number, use: u.use, lasting: LASTING_USES.has(u.use), pair };
  };
  const deadline = Date.now() + PLAY_MS;
  for (;;) {
    const snap = await page.evaluate(() => {
      const c = window.citadel;
      return {
        view: c.view, seq: c.lastSeq, hotseat: c.hotseat,
        handoverShown: !document.querySelector('#handover').hidden,
        pools: [...document.querySelectorAll('#sides [data-team]')].map((tr) => ({
          team: Number(tr.getAttribute('data-team')),
          text: tr.querySelector('.extra-actions')?.textContent ?? null,
        })),
        ceCards: document.querySelectorAll('#hand [data-card]:not([data-two-use])').length,
        // The 1993 cards of the hand box, as shown.
        handBoxShown: !document.querySelector('#hand-box').hidden,
        handTitle: document.querySelector('#hand-box h3')?.textContent ?? '',
        twoUse: [...document.querySelectorAll('[data-two-use]')].map((li) => ({
          number: Number(li.getAttribute('data-two-use')),
          name: li.querySelector('.two-use-name')?.textContent ?? '',
          visible: li.getClientRects().length > 0,
          uses: [...li.querySelectorAll('[data-use]')].map((u) => ({
            use: u.getAttribute('data-use'), legal: u.getAttribute('data-legal') === 'true',
            text: u.textContent, button: !!u.querySelector('button[data-play-use]'),
          })),
        })),
        legal: c.legal,
        // The card window's plays in the decision box.
        windowPlays: [...document.querySelectorAll('#decision [data-card-play]')].map((b) => b.getAttribute('data-card-play')),
        actionRowPlays: document.querySelectorAll('#actions button.act.play_two_use').length,
        // The lasting 1993 card effects, as listed ("Cards in play").
        effects: [...document.querySelectorAll('#card-effects li')].map((li) => li.getAttribute('data-card-use')),
        effectsShown: !document.querySelector('#effects-box').hidden,
        cardLog: [...document.querySelectorAll('#log li')].map((li) => li.textContent).filter((t) => /Doomtrooper card/.test(t)),
        // Everything in the page, hidden parts included, while no seat may look.
        text: !document.querySelector('#handover').hidden || c.hotseat.neutral ? document.documentElement.textContent : null,
        creatureTitle: [...document.querySelectorAll('#board g.fig.creature title')].map((t) => t.textContent)[0] ?? null,
        dtTitle: [...document.querySelectorAll('#board g.fig.dt.board title')].map((t) => t.textContent)[0] ?? null,
        legend: document.querySelector('#legend-box')?.hidden ? null : document.querySelector('#legend')?.textContent ?? null,
      };
    });
    const view = snap.view;
    maxRound = Math.max(maxRound, view?.round ?? 0);
    if (view) {
      // Every team has its pool, shown in the panel as the view says.
      for (const t of view.teams) {
        assert.equal(typeof t.extra_actions, 'number', `team ${t.team} has an extra-action pool in the 1993 edition`);
        const shown = snap.pools.find((p) => p.team === t.team);
        if (shown) {
          assert.equal(shown.text, `Extra actions: ${t.extra_actions}`, `team ${t.team}'s pool in the panel`);
          poolShownChecks += 1;
        }
        const before = pools.get(t.team);
        if (before !== undefined && t.extra_actions < before) poolDrops += 1;
        pools.set(t.team, t.extra_actions);
        assert.ok(t.rank >= 1 && t.rank <= 6, `a 1993 rank (${t.rank})`);
      }
      assert.equal(snap.ceCards, 0, 'no Collectors Edition card in a 1993 game');
      twoUseChecks += checkTwoUseHand(snap, view);
      if (snap.windowPlays.length && !windowShot) {
        await shot(page, 'classic-card-window');
        windowShot = true;
      }
      // Lasting card effects are public: listed exactly as the view has them.
      const lasting = (view.effects.cards ?? []).map((e) => e.card_use);
      assert.deepEqual(snap.effects, lasting, 'the "Cards in play" list follows the view');
      assert.equal(snap.effectsShown, lasting.length > 0, '"Cards in play" is shown only while an effect lasts');
      if (lasting.length) effectsSeen += 1;
      if (snap.creatureTitle && !creatureTooltip) creatureTooltip = snap.creatureTitle;
      if (snap.dtTitle && !dtTooltip) dtTooltip = snap.dtTitle;
      if (snap.legend && !legend) legend = snap.legend;
    }
    if (view?.phase?.phase === 'finished') break;
    if (Date.now() > deadline) break;
    if (snap.handoverShown) {
      const to = snap.hotseat.handover;
      if (lastHandover !== snap.seq) handovers += 1;
      lastHandover = snap.seq;
      await page.click('#handover-go');
      await until('the seat to be shown', async () => {
        const h = await page.evaluate(() => window.citadel.hotseat);
        return h.handover !== to || h.seats.some((s) => s.seat === to && s.shown);
      });
      continue;
    }
    const shown = snap.hotseat.seats.find((s) => s.shown);
    if (shown && !boardShot && snap.dtTitle) {
      await shot(page, 'classic-board');
      // The rules reference ("?") of a 1993 game: AF, no defence die.
      await page.click('#rules-open');
      const head = await page.locator('#rules-body thead').first().textContent();
      assert.match(head, /Armour factor \(AF\)/);
      assert.doesNotMatch(head, /Defence die/);
      await page.click('#rules-close');
      boardShot = true;
    }
    if (shown && !handShot && snap.twoUse.length) {
      await shot(page, 'classic-hand');
      handShot = true;
    }
    // Once both deals were read: a card played changes what a seat holds.
    if (shown && !played && dealtSeen.size === 2 && !snap.handoverShown && snap.twoUse.some((c) => c.uses.some((u) => u.legal))) {
      played = await playFromHand(snap);
      if (played) continue;
    }
    const s = await citadelState(page);
    if (!shown || !s.legal.some((c) => c.type !== 'set_allow_pass')) {
      await sleep(100); // the AI's turn, or the view catching up: look again
      continue;
    }
    await drivers.get(shown.seat).act().catch(async (e) => {
      if (await page.evaluate(() => !document.querySelector('#handover').hidden)) return null;
      await shot(page, 'classic-failed');
      throw e;
    });
  }
  await shot(page, 'classic-training');
  if (process.env.CITADEL_CLASSIC_DEBUG) console.log(await page.locator('#log').innerText());
  const view = (await citadelState(page)).view;
  const finished = view.phase.phase === 'finished';
  console.log(`# classic-training: ${finished ? `finished (${JSON.stringify(view.phase.result ?? view.phase)})` : 'not finished'} after round ${view.round}; ` +
    `${handovers} hand-overs; pool drops ${poolDrops}; creature tooltip: ${creatureTooltip}`);
  if (!finished) {
    console.log('# creatures left:', JSON.stringify(view.figures.filter((f) => f.kind.kind === 'creature' && f.place.at !== 'eliminated').map((f) => [f.name, f.place])),
      'tiles:', JSON.stringify(view.tiles.map((t) => t.face_down)), 'DTs:', JSON.stringify(view.figures.filter((f) => f.kind.kind === 'doomtrooper').map((f) => f.place)));
  }
  if (TO_END) assert.ok(finished, `the training mission played to its end within ${PLAY_MS} ms (round ${view.round})`);
  if (finished) {
    const dlLeft = view.figures.filter((f) => f.kind.kind === 'creature' && f.place.at === 'board').length;
    const dtsOn = view.figures.filter((f) => f.kind.kind === 'doomtrooper' && f.place.at === 'board').length;
    assert.ok(dlLeft === 0 || dtsOn === 0, `it ended as the mission says: ${dlLeft} creatures and ${dtsOn} Doomtroopers on the board`);
    assert.ok(await page.locator('text=/Mission (accomplished|failed)/').first().isVisible(), 'the result is shown');
  }
  assert.ok(finished || maxRound >= 3, `several rounds played (round ${maxRound})`);
  assert.ok(poolShownChecks > 0, 'the pools were shown');
  assert.ok(poolDrops > 0, 'a third action came out of a team\'s pool');
  assert.ok(drivers.get(0).moves.length >= 2 && drivers.get(1).moves.length >= 2, 'both seats moved by clicking');
  if (creatureTooltip) assert.match(creatureTooltip, /, AF \d+\b/, 'a creature\'s tooltip gives its AF');
  const absorb = content.classic.ranks.find((r) => r.rank === 6).defense;
  assert.match(dtTooltip ?? '', new RegExp(`, AF 1, absorb die ${absorb}\\b`), 'a Doomtrooper\'s tooltip: AF 1 and the rank\'s absorb die');
  if (legend) assert.match(legend, /AF \d+/, 'the creature legend gives the AF');
  assert.ok(boardShot, 'the board was seen with a seat shown');
  console.log(`# classic-training: hand box checked ${twoUseChecks} times, ${cardsShown} with cards, ${legalUsesShown} playable uses marked, ${hiddenCards} held cards absent behind the hand-over screen; played from the hand: ${JSON.stringify(played)}; ${effectsSeen} checks with a lasting card effect listed; card window plays checked ${windowPlaysChecked} times`);
  assert.ok(windowPlaysChecked > 0, 'a card window with a playable card was shown and checked');
  assert.ok(cardsShown > 0, 'the hand box listed the two-use cards the training deals');
  assert.ok(legalUsesShown > 0, 'a playable use was marked');
  assert.ok(played, 'a card was played from the hand box by clicking');
  if (played.lasting) assert.ok(effectsSeen > 0, `the lasting effect of ${played.use} was listed under "Cards in play"`);
  assert.ok(hiddenCards > 0, 'held cards were checked absent behind the hand-over screen');
  assert.equal(dealtSeen.size, 2, 'both seats\' deals were read in their own logs');
  assert.ok(handovers >= 2, 'the device was handed over');
  await page.context().close();
});
