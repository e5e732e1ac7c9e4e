// The client's words for the protocol, without a browser: every `type` of
// Siege's Command and Event unions in web-client/games/siege/protocol.ts
// (generated from the Rust types; protocol 3 carries them as the game's
// JSON, so web-client/protocol.ts no longer declares them) must get its own sentence from web-client/games/siege/text.js, never the
// generic fallback (the raw type, or the type in words). A command or event
// added on the server without words here fails this test.
//
// Each variant gets a sample value built from its field types as
// protocol.ts declares them, so new variants are covered without editing
// this file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ts = readFileSync(`${root}web-client/games/siege/protocol.ts`, 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
const text = await import(`${root}web-client/games/siege/text.js`);

/** The body of `export type Name = …;` (top level, ends at a line ending in `;`). */
function typeBody(name) {
  const start = ts.indexOf(`export type ${name} =`);
  if (start < 0) return null;
  const rest = ts.slice(start + `export type ${name} =`.length);
  const end = rest.search(/;\s*\n(export|\s*$)/);
  return rest.slice(0, end < 0 ? undefined : end).trim();
}

/** The members of a tagged union: [{tag, fields: [[name, type, optional]]}]. */
function variants(name, tag) {
  const body = typeBody(name);
  assert.ok(body, `protocol.ts declares ${name}`);
  return body.split(/\n\s*\|\s*(?=\{)/).map((m) => m.replace(/^\|\s*/, '').trim()).filter(Boolean).map((m) => {
    const t = m.match(new RegExp(`"${tag}":\\s*"([a-z_0-9]+)"`));
    assert.ok(t, `a ${name} member without a "${tag}": ${m.slice(0, 80)}`);
    const fields = [...m.matchAll(/^\s*([a-z_0-9]+)(\??):\s*(.+?),?\s*$/gm)].map((f) => [f[1], f[3], f[2] === '?']);
    return { tag: t[1], fields };
  });
}

/** A plausible value of a protocol.ts type, written as it is there. */
function sample(type) {
  type = type.trim();
  const nullable = type.match(/^(.*)\s*\|\s*null$/);
  if (nullable) return sample(nullable[1]);
  const arr = type.match(/^Array<(.*)>$/);
  if (arr) return [sample(arr[1]), sample(arr[1])];
  const tup = type.match(/^\[(.*)\]$/);
  if (tup) return tup[1].split(',').map((x, i) => (x.trim() === 'FigureId' ? 1 + i : sample(x)));
  switch (type) {
    case 'FigureId': return 1;
    case 'Seat': case 'number': return 0;
    case 'string': return 'relay1';
    case 'boolean': return true;
    case 'Square': return { x: 2, y: 3 };
    case 'Side': return { team: 0 };
    case 'DieRoll': return { color: 'red', face: '2', hits: 1, reroll: false };
    case 'CardPlay': return { as: 'extra_action' };
    case 'SectorChange': return { change: 'rotate', tile: 0, clockwise: true };
  }
  const body = typeBody(type);
  const lit = body?.match(/"([a-z_0-9]+)"/);
  if (lit && !body.includes('{')) return lit[1];
  throw new Error(`no sample for type ${type}: add it to sample() in text.test.mjs`);
}

function build(v, tag) {
  const o = { [tag]: v.tag };
  for (const [name, type] of v.fields) o[name] = name === 'to' && type === 'FigureId' ? 3 : name === 'target' ? 2 : sample(type);
  return o;
}

const view = {
  mission: 'c1m1', round: 1, active: 1, pending: null,
  dark_legion: { seat: null, ai_seat: null, pp: 0, band: 1 },
  tiles: [{ name: 'Sally Port', smoke: false, face_down: 0, marked: [] }],
  teams: [{ team: 0, seat: 0, corporation: 'bauhaus', figures: [1, 3], hand: ['medkit'], reckless: 0, hand_size: 1 }],
  figures: [
    { id: 1, name: 'bauhaus-max_steiner', kind: { kind: 'doomtrooper', team: 0 }, weapon: 'gehenna_puker', items: ['grenade_launcher'] },
    { id: 2, name: 'legionnaire#1', kind: { kind: 'creature', creature: 'legionnaire' }, weapon: null, items: [] },
    { id: 3, name: 'bauhaus-valerie_duval', kind: { kind: 'doomtrooper', team: 0 }, weapon: null, items: [] },
  ],
  tokens: [],
};
const seatName = (s) => `Player ${s}`;
const BAD = /undefined|\[object|NaN|null\b/;
const generic = (type, s) => s === type || s === text.words(type);

test('every Command variant in protocol.ts has its own button label', () => {
  const vs = variants('Command', 'type');
  assert.ok(vs.length >= 25, `parsed ${vs.length} commands`);
  for (const tag of ['swing', 'spray', 'volley', 'attack_square', 'keep_secondary']) {
    assert.ok(vs.some((v) => v.tag === tag), `protocol.ts has ${tag}`);
  }
  for (const v of vs) {
    const c = build(v, 'type');
    const s = text.describeCommand(view, c);
    assert.equal(typeof s, 'string', v.tag);
    assert.ok(!generic(v.tag, s), `${v.tag}: generic label "${s}"`);
    assert.doesNotMatch(s, BAD, `${v.tag}: "${s}"`);
    // Optional fields, when absent, still read well.
    const bare = Object.fromEntries(Object.entries(c).filter(([k]) => !v.fields.some(([n, , opt]) => opt && n === k)));
    assert.doesNotMatch(text.describeCommand(view, bare), BAD, `${v.tag} without its optional fields`);
  }
});

test('every Event variant in protocol.ts has its own log sentence', () => {
  const vs = variants('Event', 'type');
  assert.ok(vs.length >= 50, `parsed ${vs.length} events`);
  for (const tag of ['area_attack_rolled', 'struck', 'barbs', 'secondary_dealt', 'secondary_kept', 'secondary_resolved']) {
    assert.ok(vs.some((v) => v.tag === tag), `protocol.ts has ${tag}`);
  }
  for (const v of vs) {
    const e = build(v, 'type');
    const s = text.describeEvent(view, e, seatName, { roll: null });
    if (v.tag === 'hidden') { assert.equal(s, null, 'a hidden event is left out'); continue; }
    assert.equal(typeof s, 'string', v.tag);
    assert.ok(!generic(v.tag, s), `${v.tag}: generic sentence "${s}"`);
    assert.doesNotMatch(s, BAD, `${v.tag}: "${s}"`);
  }
});

test('an area attack is explained roll by roll: the dice, each struck figure, then hits − DV − defence = damage', () => {
  const ctx = { roll: null };
  const say = (e) => text.describeEvent(view, e, seatName, ctx);
  const roll = say({ type: 'area_attack_rolled', attacker: 1, attack: 'firearm', squares: [{ x: 1, y: 1 }, { x: 1, y: 2 }, { x: 1, y: 3 }],
    dice: [{ color: 'red', face: '3', hits: 2, reroll: false }], hits: 2 });
  assert.match(roll, /Max Steiner sprays a line of 3 squares with the Gehenna Puker \(firearm\): rolls red 3 \(2 hits\) = 2 hits\./);
  assert.match(say({ type: 'struck', figure: 2, hits: 2 }), /Legionnaire #1 is caught: 2 hits/);
  assert.equal(say({ type: 'defense_rolled', figure: 2, die: { color: 'white', face: '1', hits: 0, reroll: false } }), null);
  assert.match(say({ type: 'damage', figure: 2, amount: 1, health: 0 }), /2 hits − defence die 1 saves 0 = 1 damage to Legionnaire #1/);
});

test('the new figure commands name the weapon, the squares and the choice', () => {
  assert.equal(text.describeCommand(view, { type: 'spray', figure: 1, direction: 'ne' }), 'Max Steiner: Gehenna Puker line ↗ north-east');
  assert.equal(text.describeCommand(view, { type: 'volley', figure: 1, targets: [2, 3] }),
    'Max Steiner: Gehenna Puker at two targets, Legionnaire #1 + Valerie Duval');
  assert.match(text.describeCommand(view, { type: 'swing', figure: 3, start: { x: 0, y: 0 }, clockwise: false }), /Valerie Duval: Violator sweep counter-clockwise from A1/);
  assert.match(text.describeCommand(view, { type: 'attack_square', figure: 1, square: { x: 2, y: 3 } }), /Grenade Launcher at C4/);
  assert.match(text.describeCommand(view, { type: 'attack', figure: 1, target: 2, attack: 'firearm', barb_die: 'black' }), /black die/);
  assert.match(text.describeCommand(view, { type: 'special', figure: 1, action: 'cell_sample' }), /cell sample/);
  assert.match(text.describeCommand(view, { type: 'overrun', figure: 1, square: { x: 0, y: 1 } }), /overrun into A2/);
});

test('a secondary mission to keep names its card and what it is worth', () => {
  text.content.data = { secondary: [{ number: 3, name: 'Cell Sample', success: 4, failure: -2, commander_penalty: -1, text: 'Sample a big one.' }] };
  try {
    assert.equal(text.describeCommand(view, { type: 'keep_secondary', card: 3 }), 'Keep #3 Cell Sample (success +4 PP, failure -2 PP)');
    assert.equal(text.secondaryText(3), 'Sample a big one.', 'what the card asks, from the content');
    assert.equal(text.secondaryText(4), '', 'an unknown card has no text');
    assert.equal(text.describeEvent(view, { type: 'secondary_kept', seat: 0, card: null }, seatName), 'Player 0 keeps a secondary mission.');
  } finally {
    text.content.data = null;
  }
});

test('items of the draft are described from the content: rank, cost, kind, dice and effect', () => {
  text.content.data = {
    weapons: [{ id: 'talon_combo', name: 'Talon Combo', icons: ['firearms', 'tech'], rank: 4, cost: 3, text: 'Gun and tentacles.',
      cc: { rank_dice: 1, extra: [] }, swing: false, fa: { dice: { rank_dice: 3, extra: ['white'] }, min_range: 2, max_range: 10, barrels: 1, line: null },
      te: { dice: { rank_dice: 3, extra: ['white'] }, trap: true, barbs: false } }],
    equipment: [{ id: 'laser_sight', name: 'Laser Sight', rank: 2, cost: 2, augment: 'firearm', text: 'Re-roll 1 failed die.' }],
    events: [{ number: 5, name: 'Mental Block', text: 'No firearm attacks.' }],
    door_cards: [{ kind: 'alarm', name: 'Alarm', text: 'A force card is drawn.' }],
  };
  try {
    const w = text.itemInfo('talon_combo');
    assert.deepEqual([w.name, w.rank, w.cost, w.kind, w.text], ['Talon Combo', 4, 3, 'FA/TE weapon', 'Gun and tentacles.']);
    assert.equal(w.profile, 'close combat 1 die · firearm 3 dice +1W, range 2–10 · tech 3 dice +1W, trap');
    const e = text.itemInfo('laser_sight');
    assert.deepEqual([e.kind, e.text, e.profile], ['Firearm augment', 'Re-roll 1 failed die.', '']);
    assert.equal(text.itemInfo('nothing_such'), null);
    assert.equal(text.describeEvent(view, { type: 'event_drawn', card: 5, final_round: true }, seatName),
      'Event: Mental Block (the final round begins) — No firearm attacks.');
    assert.equal(text.describeEvent(view, { type: 'door_card', card: 'alarm' }, seatName), 'Door card: Alarm — A force card is drawn.');
  } finally {
    text.content.data = null;
  }
});

test('a 1993 game reads the classic tables: AF and absorb die in the log and the tooltips', () => {
  const band = (dv) => ({ cc: ['red', 'red'], fa: ['white'], dv, defense_die: null, pp: 1 });
  const doc = {
    creatures: [{ kind: 'legionnaire', name: 'Legionnaire', actions: 2, pool: 12, bands: [1, 2, 3, 4, 5, 6].map(() => ({ ...band(4), defense_die: 'white' })) }],
    ranks: [],
    classic: {
      creatures: [{ kind: 'legionnaire', name: 'Legionnaire', actions: 2, pool: 12, bands: [0, 0, 1, 1, 1, 1].map(band) }],
      ranks: [1, 2, 3, 4, 5, 6].map((rank) => ({ rank, combat: ['white', 'white', 'white'], defense: rank > 3 ? 'red' : 'white', credits: 2, dt_cards: 2 })),
    },
    missions: [{ id: 'classic-training', edition: 'classic' }, { id: 'c1m1', edition: 'ce' }],
  };
  const classicView = { ...view, mission: 'classic-training', dark_legion: { ...view.dark_legion, band: 3 },
    teams: [{ ...view.teams[0], rank: 5, extra_actions: 6 }] };
  try {
    text.setContent(doc);
    assert.equal(text.editionOf('classic-training'), 'classic');
    assert.equal(text.editionOf('c1m1'), 'ce');
    assert.equal(text.protectionText(classicView, classicView.figures[1]), 'AF 1', 'a creature: its AF at the band');
    assert.equal(text.protectionText(classicView, classicView.figures[0]), 'AF 1, absorb die red', 'a DT: AF 1 and its rank\'s absorb die');
    assert.equal(text.protectionText(view, view.figures[1]), 'defence 4, defence die white', 'a CE creature: DV and die');
    assert.equal(text.protectionText(view, view.figures[0]), '', 'nothing extra for a CE Doomtrooper');
    text.useEdition('classic');
    assert.equal(text.content.data.creatures[0].bands[2].dv, 1, 'the classic tables in effect');
    assert.equal(text.content.data.missions.length, 2, 'the missions stay');
    const ctx = { roll: null };
    const say = (e) => text.describeEvent(classicView, e, seatName, ctx);
    say({ type: 'attack_rolled', attacker: 1, target: 2, attack: 'firearm', dice: [{ color: 'red', face: '3', hits: 2, reroll: false }], hits: 2 });
    say({ type: 'defense_rolled', figure: 2, die: { color: 'white', face: '1', hits: 0, reroll: false } });
    assert.match(say({ type: 'damage', figure: 2, amount: 1, health: 0 }), /2 hits − AF 1 − absorb die 1 saves 0 = 1 damage to Legionnaire #1/);
    text.useEdition('ce');
    assert.equal(text.content.data.creatures[0].bands[2].dv, 4, 'back to the CE tables');
  } finally {
    text.content.data = null;
    text.content.doc = null;
  }
});

test('the 1993 two-use cards are named in the buttons and the log; a card the viewer may not know is "a card"', () => {
  const use = (card_use, role, name, answers = null) => ({ card_use, role, name, text: `${name} does something.`, answers });
  const doc = {
    classic: {
      two_use_cards: [
        { number: 7, name: 'Limited Teleportation / Dud Round', uses: [use('limited_teleportation', 'boon', 'Limited Teleportation'), use('dud_round', 'sabotage', 'Dud Round', 'card_dt_hit')] },
        { number: 8, name: 'Medic / Uncalibrated Targeter', uses: [use('medic', 'boon', 'Medic'), use('uncalibrated_targeter', 'sabotage', 'Uncalibrated Targeter')] },
      ],
    },
    missions: [{ id: 'classic-training', edition: 'classic' }],
  };
  const classicView = { ...view, mission: 'classic-training', teams: [{ ...view.teams[0], hand: [], cards: [8, 7], cards_size: 2 }] };
  try {
    text.setContent(doc);
    text.useEdition('classic');
    assert.equal(text.describeCommand(classicView, { type: 'play_two_use', card: 8, card_use: 'medic', figure: 3 }),
      'Medic on Valerie Duval (Medic / Uncalibrated Targeter)', 'the use, its target and the card by name');
    assert.equal(text.describeCommand(classicView, { type: 'play_two_use', card: 8, card_use: 'uncalibrated_targeter', corporation: 'capitol' }),
      'Uncalibrated Targeter on Capitol (Medic / Uncalibrated Targeter)');
    // A 1993 reaction window: `card` indexes the two-use cards; the fitting use is named.
    const hit = { ...classicView, pending: { decision: 'reaction', team: 0, figure: 1, window: 'card_dt_hit', dice: [] } };
    assert.equal(text.describeCommand(hit, { type: 'react', card: 1 }), 'Play Dud Round (Limited Teleportation / Dud Round)');
    assert.equal(text.describeCommand(hit, { type: 'react', card: null }), 'Pass');
    const say = (e) => text.describeEvent(classicView, e, seatName, { roll: null });
    assert.equal(say({ type: 'two_use_dealt', seat: 0, count: 2, cards: [8, 7] }),
      'Player 0 is dealt 2 Doomtrooper cards: Medic / Uncalibrated Targeter, Limited Teleportation / Dud Round.');
    assert.equal(say({ type: 'two_use_dealt', seat: 1, count: 2, cards: null }), 'Player 1 is dealt 2 Doomtrooper cards.', 'another seat\'s cards stay unnamed');
    assert.equal(say({ type: 'two_use_played', seat: 0, card: 8, card_use: 'medic', corporation: null, figure: 1 }),
      'Player 0 plays Medic on Max Steiner (card: Medic / Uncalibrated Targeter).');
    assert.equal(say({ type: 'two_use_taken', from: 1, to: 0, card: 7 }), 'Player 0 takes Limited Teleportation / Dud Round from Player 1.');
    assert.equal(say({ type: 'two_use_taken', from: 1, to: 2, card: null }), 'Player 2 takes a card from Player 1.', 'a card the viewer may not know');
    assert.equal(say({ type: 'two_use_discarded', seat: 1, card: 8 }), 'Player 1 discards Medic / Uncalibrated Targeter.');
    // The empty Collectors Edition deal says nothing in a 1993 game (the two-use deal follows); it does in a CE one.
    assert.equal(say({ type: 'cards_dealt', seat: 0, count: 0, cards: [] }), null);
    assert.equal(text.describeEvent(view, { type: 'cards_dealt', seat: 0, count: 0, cards: [] }, seatName, { roll: null }), 'Player 0 draws no Doomtrooper cards.');
    // Lasting effects, shown to everyone: the use, who played it, on whom, how long.
    assert.equal(text.cardEffectText(classicView, { card_use: 'limited_teleportation', by: 0, lasts: 'round' }),
      'Limited Teleportation, played by Bauhaus: until the end of the round');
    assert.equal(text.cardEffectText(classicView, { card_use: 'uncalibrated_targeter', by: 0, figure: 1, lasts: 'mission' }),
      'Uncalibrated Targeter, played by Bauhaus on Max Steiner: until the end of the mission');
    assert.equal(text.twoUseName(null), 'a card');
    assert.equal(text.twoUseName(13), 'card 13', 'a number the content does not list');
  } finally {
    text.content.data = null;
    text.content.doc = null;
  }
});
