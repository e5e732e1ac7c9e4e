// Words for what the server sends: names, commands and events as
// sentences. Pure formatting, no rules.
// @ts-check
/** @typedef {import("../../protocol").GameView} GameView */
/** @typedef {import("../../protocol").Command} Command */
/** @typedef {import("../../protocol").Event} Event */
/** @typedef {import("../../protocol").FigureView} FigureView */
/** @typedef {import("../../protocol").LobbyView} LobbyView */

export const CORPS = ["bauhaus", "capitol", "cybertronic", "imperial", "mishima"];
// Colours: the Okabe–Ito palette (Okabe & Ito, "Color Universal Design",
// 2008), chosen so that its colours stay apart for people with
// deuteranopia or protanopia (red–green colour blindness) as well as for
// everyone else: blue, yellow, sky blue, vermillion, bluish green for the
// five corporations, reddish purple for the Dark Legion. Colour is never
// the only cue: every figure carries letters (B1, Cy2, Lg...), and every
// highlight on the board has a shape of its own (style.css, board.js).
// tests/browser/palette.test.mjs checks the distances under simulated
// deuteranopia and protanopia.
export const CORP_COLOR = {
  bauhaus: "#0072b2", capitol: "#f0e442", cybertronic: "#56b4e9",
  imperial: "#d55e00", mishima: "#009e73",
};
export const CORP_LETTER = { bauhaus: "B", capitol: "C", cybertronic: "Cy", imperial: "I", mishima: "M" };
export const DL_COLOR = "#cc79a7";
// Two letters each, none a corporation's letter (Capitol is "C").
export const CREATURE_LETTER = {
  legionnaire: "Lg", necromutant: "Nm", centurion: "Ct", razide: "Rz",
  praetorian_stalker: "PS", nepharite: "Np", ezoghoul: "Ez",
};

/** The game's content tables from `GET /api/content` (names, options,
 *  stats): every card and creature name shown comes from there. */
export const content = {
  /** The tables in effect: the document's CE tables, or its `classic`
   *  ones in a 1993 game (`useEdition`); the missions are the document's. */
  data: /** @type {any} */ (null),
  /** The whole document as served. */
  doc: /** @type {import("./protocol").ContentDoc|null} */ (null),
  /** The edition of `data`: "ce" or "classic". */
  edition: "ce",
};

/** Set the document (`GET /api/content`) and show the CE tables. */
export function setContent(doc) {
  content.doc = doc;
  content.edition = "";
  useEdition("ce");
}

/**
 * Show the tables of an edition: a 1993 game's names and stats (AF,
 * 1993 ranks, weapons and equipment) come from the document's `classic`
 * tables, the missions stay the document's.
 * @param {string} edition "ce" or "classic"
 */
export function useEdition(edition) {
  const doc = /** @type {any} */ (content.doc);
  const ed = edition === "classic" && doc?.classic ? "classic" : "ce";
  if (content.edition === ed && content.data) return;
  content.edition = ed;
  content.data = doc ? (ed === "classic" ? { ...doc, ...doc.classic, missions: doc.missions } : doc) : null;
}

/** The edition of a mission by id ("ce" when unknown). */
export function editionOf(missionId) {
  return /** @type {any} */ (content.doc)?.missions?.find((m) => m.id === missionId)?.edition ?? "ce";
}

/**
 * A figure's protection in words, for its tooltip: in a 1993 game a
 * creature's armour factor ("AF 2") and a Doomtrooper's AF 1 and absorb
 * die (its rank's colour, CDF-1/2); in a CE game a creature's defence
 * value and die. Empty when unknown.
 */
export function protectionText(view, f) {
  const classic = editionOf(view?.mission) === "classic";
  if (f.kind.kind === "doomtrooper") {
    if (!classic) return "";
    const team = view.teams.find((t) => t.figures.includes(f.id));
    const die = content.doc && /** @type {any} */ (content.doc).classic?.ranks?.find((r) => r.rank === team?.rank)?.defense;
    return `AF 1${die ? `, absorb die ${die}` : ""}`;
  }
  const kind = /** @type {any} */ (f.kind).creature;
  const tables = classic ? /** @type {any} */ (content.doc)?.classic : content.doc;
  const st = tables?.creatures?.find((c) => c.kind === kind)?.bands?.[(view.dark_legion.band ?? 1) - 1];
  if (!st) return "";
  return classic ? `AF ${st.dv}` : `defence ${st.dv}${st.defense_die ? `, defence die ${st.defense_die}` : ""}`;
}

/** Where squares are: the map (square → tile index), set with the board. */
const places = { tileOf: new Map(), width: 0 };
/** @param {import("../../protocol").MapData} map */
export function setPlaces(map) {
  places.tileOf = new Map(map.squares.map((s) => [`${s.at.x},${s.at.y}`, s.tile]));
  places.width = map.width;
}

/** "a Medkit", "an Explosive Ammunition". */
export function withArticle(name) {
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}

/** "1 credit", "2 credits". */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A creature kind's name from the content ("praetorian_stalker" → "Praetorian Stalker"). */
export function creatureName(kind) {
  return content.data?.creatures?.find((c) => c.kind === kind)?.name ?? words(kind);
}

/** An item's name (weapon or equipment) from the content. */
export function itemName(id) {
  const d = content.data;
  return d?.equipment?.find((e) => e.id === id)?.name ?? d?.weapons?.find((w) => w.id === id)?.name ?? words(id);
}

/** A Doomtrooper card's name from the content. */
export function dtCardName(kind) {
  return content.data?.dt_cards?.find((c) => c.kind === kind)?.name ?? words(kind);
}

/** A Doomtrooper card's effect in words, from the content ("" if unknown). */
export function dtCardText(kind) {
  return content.data?.dt_cards?.find((c) => c.kind === kind)?.text ?? "";
}

/** The 1993 two-use Doomtrooper cards (`classic.two_use_cards` of the
 *  content): in effect in a 1993 game, else the document's. */
function twoUseCards() {
  const d = /** @type {any} */ (content.data);
  return d?.two_use_cards ?? /** @type {any} */ (content.doc)?.classic?.two_use_cards ?? [];
}

/** A 1993 two-use card's record by number ({number, name, uses}), or null. */
export function twoUseCard(n) {
  return twoUseCards().find((c) => c.number === n) ?? null;
}

/** A 1993 two-use card's name by number ("Medic / Uncalibrated
 *  Targeter"); "a card" when the number is not ours to know. */
export function twoUseName(n) {
  if (n === null || n === undefined) return "a card";
  return twoUseCard(n)?.name ?? `card ${n}`;
}

/** A use of a 1993 two-use card by id, from the content ("medic" → "Medic"). */
export function twoUseUseName(cardUse) {
  for (const c of twoUseCards()) for (const u of c.uses ?? []) if (u.card_use === cardUse) return u.name;
  return words(cardUse);
}

/** A lasting effect of a 1993 card (`view.effects.cards`, public), as a
 *  line: "Molecular Phasing, played by Capitol: until the end of the round". */
export function cardEffectText(view, e) {
  const on = e.team !== undefined && e.team !== null ? ` on ${teamName(view, e.team)}`
    : e.figure !== undefined && e.figure !== null ? ` on ${figName(view, e.figure)}` : "";
  const until = e.lasts === "mission" ? "until the end of the mission" : "until the end of the round";
  return `${twoUseUseName(e.card_use)}, played by ${teamName(view, e.by)}${on}: ${until}`;
}

/** What a `play_two_use` command names, as words to append to the use:
 *  " on Bauhaus", " on Max Steiner", ": sector A to sector B", "". */
export function twoUseTarget(view, c) {
  return c.corporation ? ` on ${words(c.corporation)}`
    : c.figure !== undefined && c.figure !== null ? ` on ${figName(view, c.figure)}`
    : c.tile !== undefined && c.tile !== null ? `: ${tileName(view, c.tile)} to ${tileName(view, c.to_tile)}`
    : c.squares ? `: door between ${sq(c.squares[0], view)} and ${sq(c.squares[1], view)}` : "";
}

/** A door card: {name, text}, from the content. */
export function doorCard(kind) {
  const c = content.data?.door_cards?.find((d) => d.kind === kind);
  return { name: c?.name ?? words(kind), text: c?.text ?? "" };
}

/** An event card's effect in words, from the content ("" if unknown). */
export function eventText(n) {
  return content.data?.events?.find((e) => e.number === n)?.text ?? "";
}

const DIE_LETTER = { white: "W", red: "R", black: "B" };
/** A weapon's dice for one attack type: "3 dice", "1 die", "3 dice +1R" (DICE-2). */
function weaponDice(d) {
  const extra = (d.extra ?? []).map((c) => `+1${DIE_LETTER[c] ?? "?"}`).join(" ");
  return `${plural(d.rank_dice, "die", "dice")}${extra ? ` ${extra}` : ""}`;
}

/**
 * An item of the draft (a weapon or an equipment card) from the content:
 * {id, name, rank, cost, kind, text, profile}, where `profile` spells a
 * weapon's attacks ("close combat 3 rank dice · firearm 3 rank dice,
 * range 2–16"), or null if the content does not know the id.
 */
export function itemInfo(id) {
  const d = content.data;
  const e = d?.equipment?.find((x) => x.id === id);
  if (e) {
    return { id, name: e.name, rank: e.rank, cost: e.cost, kind: e.augment ? `${words(ATTACK[AUGMENT[e.augment] ?? ""] ?? e.augment)} augment` : "Equipment",
      text: e.text ?? "", profile: "" };
  }
  const w = d?.weapons?.find((x) => x.id === id);
  if (!w) return null;
  const parts = [];
  if (w.cc && w.cc.rank_dice + (w.cc.extra?.length ?? 0) > 0) parts.push(`close combat ${weaponDice(w.cc)}${w.swing ? ", sweep" : ""}`);
  if (w.fa) {
    const reach = w.fa.line ? `a line of ${w.fa.line} squares` : `range ${w.fa.min_range}–${w.fa.max_range}`;
    parts.push(`firearm ${weaponDice(w.fa.dice)}${w.fa.barrels > 1 ? ` ×${w.fa.barrels}` : ""}, ${reach}`);
  }
  if (w.te) parts.push(`tech ${weaponDice(w.te.dice)}${w.te.trap ? ", trap" : ""}${w.te.barbs ? " + barbs" : ""}`);
  const who = (w.icons ?? []).map((i) => SPECIALIST[i] ?? words(i)).join("/");
  return { id, name: w.name, rank: w.rank, cost: w.cost, kind: `${who ? `${who} weapon` : "Weapon"}`, text: w.text ?? "", profile: parts.join(" · ") };
}
const AUGMENT = { CC: "close_combat", FA: "firearm", TE: "tech", close_combat: "close_combat", firearm: "firearm", tech: "tech", firearms: "firearm" };
const SPECIALIST = { close_combat: "CC", firearms: "FA", tech: "TE", CC: "CC", FA: "FA", TE: "TE" };

/** A force card by number: {name, options: ["1 Razide", "1 Centurion + 1 Necromutant"]}. */
export function forceCard(n) {
  const c = content.data?.force_cards?.find((x) => x.number === n);
  if (!c) return null;
  const group = (kinds) => {
    const counts = new Map();
    for (const k of kinds) counts.set(k, (counts.get(k) ?? 0) + 1);
    return [...counts].map(([k, m]) => `${m} ${creatureName(k)}${m > 1 ? "s" : ""}`).join(" + ") || "nothing";
  };
  const flags = [c.draw_one_more ? "draw one more" : null, c.stop ? "stop drawing" : null, c.remove ? "leaves the game" : null].filter(Boolean);
  return { name: c.name, options: c.options.map(group), flags };
}

/** An event card's name by number. */
export function eventName(n) {
  return content.data?.events?.find((e) => e.number === n)?.name ?? "an event";
}

/** What a secondary mission card asks, from the content (empty if unknown). */
export function secondaryText(n) {
  return content.data?.secondary?.find((s) => s.number === n)?.text ?? "";
}

/** A secondary mission card's name by number (ce.md SEC). */
export function secondaryName(n) {
  const c = content.data?.secondary?.find((s) => s.number === n);
  return c ? `#${n} ${c.name}` : `secondary mission #${n}`;
}

/** "smoke_grenade" → "Smoke Grenade" */
export function words(id) {
  return String(id ?? "").split(/[_\s]+/).filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

/** A figure's name for people: "bauhaus-max_steiner" → "Max Steiner",
 *  "legionnaire#3" → "Legionnaire #3". */
export function prettyName(name) {
  let n = String(name);
  const dash = n.indexOf("-");
  if (dash > 0 && CORPS.includes(n.slice(0, dash))) n = n.slice(dash + 1);
  const [base, num] = n.split("#");
  return words(base) + (num ? ` #${num}` : "");
}

/** @param {GameView|null} view @param {number|null} id */
export function figName(view, id) {
  if (id === null || id === undefined) return "someone";
  const f = view?.figures.find((x) => x.id === id);
  return f ? prettyName(f.name) : `figure ${id}`;
}

/** Short board label: "B1", "L", "Ne". @param {GameView} view @param {FigureView} f */
export function figLabel(view, f) {
  if (f.kind.kind === "doomtrooper") {
    const t = view.teams.find((t) => t.team === f.kind.team);
    const i = t ? t.figures.indexOf(f.id) + 1 : "";
    return (t ? CORP_LETTER[t.corporation] : "D") + i;
  }
  return CREATURE_LETTER[f.kind.creature] ?? "?";
}

/** @param {GameView} view @param {FigureView} f */
export function figColor(view, f) {
  if (f.kind.kind === "doomtrooper") {
    const team = f.kind.team;
    const t = view.teams.find((t) => t.team === team);
    return t ? CORP_COLOR[t.corporation] : "#888";
  }
  return DL_COLOR;
}

export function teamName(view, team) {
  const t = view?.teams.find((t) => t.team === team);
  return t ? words(t.corporation) : `team ${team}`;
}

export function sideName(view, side) {
  return side === "dark_legion" ? "the Dark Legion" : teamName(view, side.team);
}

/** A 1993 event 11 board change in words (`done`: as it happened). */
function sectorChange(view, c, done) {
  if (c.change === "rotate") {
    const way = c.clockwise ? "clockwise" : "anticlockwise";
    return done ? `${tileName(view, c.tile)} turns a quarter turn ${way}` : `Turn ${tileName(view, c.tile)} a quarter turn ${way}`;
  }
  return done ? `${tileName(view, c.a)} and ${tileName(view, c.b)} trade places` : `Swap ${tileName(view, c.a)} and ${tileName(view, c.b)}`;
}

export function tileName(view, tile) {
  const t = view?.tiles[tile];
  return t ? t.name : `tile ${tile}`;
}

/** A square for people: its area and a board-game grid name ("Sally Port, C4"). */
export function sq(s, view = null) {
  if (!s) return "off the board";
  const tile = places.tileOf.get(`${s.x},${s.y}`);
  const area = tile !== undefined ? view?.tiles?.[tile]?.name : null;
  const cell = `${colName(s.x)}${s.y + 1}`;
  return area ? `${area}, ${cell}` : cell;
}
/** Columns as letters: A…Z, then AA, AB… */
function colName(x) {
  let n = x, out = "";
  do { out = String.fromCharCode(65 + (n % 26)) + out; n = Math.floor(n / 26) - 1; } while (n >= 0);
  return out;
}
/** "into the Cross Corridor" for a step's destination, or "" off the map. */
function intoArea(view, s) {
  const tile = s ? places.tileOf.get(`${s.x},${s.y}`) : undefined;
  const area = tile !== undefined ? view?.tiles?.[tile]?.name : null;
  return area ? ` in the ${area}` : "";
}

export function diceText(dice) {
  return dice.map((d) => `${d.color} ${d.face}${d.hits ? ` (${plural(d.hits, "hit")})` : ""}${d.reroll ? " re-rolled" : ""}`).join(", ");
}

/** A figure's defence value: a creature's from the content at the Dark
 *  Legion's band, 1 for a Doomtrooper (cover adds 1 against firearms). */
export function defenceValue(view, id) {
  const f = view?.figures.find((x) => x.id === id);
  if (!f) return null;
  if (f.kind.kind === "doomtrooper") return 1;
  const def = content.data?.creatures?.find((c) => c.kind === /** @type {any} */ (f.kind).creature);
  return def?.bands?.[(view.dark_legion.band ?? 1) - 1]?.dv ?? null;
}

const ATTACK = { close_combat: "close combat", firearm: "firearm", tech: "tech" };
/** Compass directions (a Gehenna Puker's line), in button order. */
export const DIRECTIONS = ["nw", "n", "ne", "w", "e", "sw", "s", "se"];
export const DIRECTION_WORD = {
  n: "north", ne: "north-east", e: "east", se: "south-east", s: "south", sw: "south-west", w: "west", nw: "north-west",
};
export const DIRECTION_ARROW = { n: "↑", ne: "↗", e: "→", se: "↘", s: "↓", sw: "↙", w: "←", nw: "↖" };
/** Special actions that are not a mission's own: the secondary missions' (SEC cards 3, 4, 7; 1993 cards 2 and 10). */
const SPECIAL_WORDS = {
  cell_sample: "take a cell sample (secondary mission)",
  convey_message: "convey the message (secondary mission)",
  scan: "scan the tile (secondary mission)",
  examine: "examine the creature (secondary mission)",
  capture: "take the creature prisoner (secondary mission)",
};

/** A Special action's name: the mission's record, else a known one, else its id in words. */
export function specialName(view, action) {
  const m = content.data?.missions?.find((x) => x.id === view?.mission);
  const a = m?.special_actions?.find((x) => x.id === action);
  return a?.name ?? SPECIAL_WORDS[action] ?? words(action);
}

/** The weapon a figure carries, by name ("Violator Sword"), or a fallback. */
function weaponOf(view, id, fallback) {
  const w = view?.figures.find((x) => x.id === id)?.weapon;
  return w ? itemName(w) : fallback;
}

/** "Legionnaire #1 and Necromutant #2". */
function andList(xs) {
  return xs.length <= 1 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;
}

/** A mission token's name for a log line: "the Relay1 terminal", "the debris". */
function tokenWords(name, kind = null) {
  if (name && kind) return `the ${words(name)} (${words(kind).toLowerCase()})`;
  if (name) return `the ${words(name)}`;
  return kind ? `the ${words(kind).toLowerCase()}` : "the token";
}

/** A command as a button label. @param {GameView} view @param {Command} c */
export function describeCommand(view, c) {
  const fig = (id) => figName(view, id);
  switch (c.type) {
    case "pick_equipment": {
      const d = content.data?.equipment?.find((e) => e.id === c.item) ?? content.data?.weapons?.find((w) => w.id === c.item);
      return `${itemName(c.item)}${d ? ` (${plural(d.cost, "credit")})` : ""} for ${fig(c.figure)}`;
    }
    case "pass_equipment": return "Done with equipment";
    case "choose_entrance": return `Entrance ${c.entrance}`;
    case "choose_option": {
      const card = view.pending?.decision === "force_option" ? forceCard(view.pending.card) : null;
      return card?.options[c.option] ?? `Option ${c.option + 1}`;
    }
    case "place": return `Place ${creatureName(c.kind)} at ${sq(c.square, view)}`;
    case "place_start": return `Place ${fig(c.figure)} at ${sq(c.square, view)}`;
    case "place_debris": return `Debris at ${sq(c.square, view)}`;
    case "choose_tile": return `Tile: ${tileName(view, c.tile)}`;
    case "choose_figure": return fig(c.figure);
    case "choose_corporation": return words(c.corporation);
    case "discard": return `Discard ${itemName(c.item)}`;
    case "keep_secondary": {
      const d = content.data?.secondary?.find((x) => x.number === c.card);
      return `Keep ${secondaryName(c.card)}${d ? ` (success ${d.success >= 0 ? "+" : ""}${d.success} PP, failure ${d.failure} PP)` : ""}`;
    }
    case "react": {
      if (c.card === null) return "Pass";
      // A 1993 window is answered from the two-use cards, by their index.
      const win = view.pending?.decision === "reaction" ? view.pending.window : null;
      const own = view.teams.find((t) => t.cards)?.cards;
      const two = typeof win === "string" && own ? twoUseCard(own[c.card]) : null;
      if (two) {
        const use = two.uses?.find((u) => u.answers === win);
        return `Play ${use?.name ?? "the card"} (${two.name})`;
      }
      const hand = view.teams.find((t) => t.hand)?.hand;
      return `Play ${dtCardName(hand?.[c.card] ?? `card ${c.card + 1}`)}`;
    }
    case "move": return `${fig(c.figure)} moves to ${sq(c.path[c.path.length - 1], view)}`;
    case "attack":
      return `${fig(c.figure)}: ${ATTACK[c.attack]} attack on ${fig(c.target)}${c.barb_die ? ` (Manus barbs roll a ${c.barb_die} die)` : ""}`;
    case "swing":
      return `${fig(c.figure)}: ${weaponOf(view, c.figure, "Violator")} sweep ${c.clockwise ? "clockwise" : "counter-clockwise"}${c.start ? ` from ${sq(c.start, view)}` : ""}`;
    case "spray":
      return `${fig(c.figure)}: ${weaponOf(view, c.figure, "Gehenna Puker")} line ${DIRECTION_ARROW[c.direction] ?? ""} ${DIRECTION_WORD[c.direction] ?? c.direction}`;
    case "volley":
      return `${fig(c.figure)}: ${weaponOf(view, c.figure, "Nimrod Autocannon")} at two targets, ${fig(c.targets[0])} + ${fig(c.targets[1])}`;
    case "attack_square":
      return `${fig(c.figure)}: fire the Grenade Launcher${c.square ? ` at ${sq(c.square, view)}` : " at a square"}`;
    case "special": return `${fig(c.figure)}: ${specialName(view, c.action)}`;
    case "attack_token": return `${fig(c.figure)}: ${ATTACK[c.attack]} attack on the token${c.token ? ` at ${sq(c.token, view)}` : ""}`;
    case "hack": return `${fig(c.figure)}: hack the terminal${c.token ? ` at ${sq(c.token, view)}` : ""}`;
    case "use_item": return `${fig(c.figure)}: use ${itemName(c.item)}${c.square ? " at " + sq(c.square, view) : ""}`;
    case "overrun": return `${fig(c.figure)}: overrun${c.square ? ` into ${sq(c.square, view)}` : ""}`;
    case "pick_up": return `${fig(c.figure)}: pick up the ${words(c.token)}`;
    case "hand_over": return `${fig(c.figure)}: hand it to ${fig(c.to)}`;
    case "play_card": {
      const hand = view.teams.find((t) => t.hand)?.hand;
      const card = dtCardName(hand?.[c.card] ?? `card ${c.card + 1}`);
      if (c.play.as === "extra_action") return `${card}: +1 action for ${fig(c.figure)}`;
      const on = c.play.target !== null ? ` on ${fig(c.play.target)}` : c.play.square ? ` at ${sq(c.play.square, view)}` : "";
      return `${card} (${fig(c.figure)})${on}`;
    }
    case "play_two_use":
      // A 1993 two-use card (CDT-1): the use, whatever it names, the card.
      return `${twoUseUseName(c.card_use)}${twoUseTarget(view, c)} (${twoUseName(c.card)})`;
    case "pass_card": return "Pass (keep the cards)";
    case "attack_door": return `${fig(c.figure)}: attack the door between ${sq(c.squares[0], view)} and ${sq(c.squares[1], view)}`;
    case "choose_square": return `Square ${sq(c.square, view)}`;
    case "set_allow_pass": return c.allow ? "Let others pass through" : "Block passing through";
    case "end_activation": return "End activation";
    case "reveal_ai_card": return "Reveal an AI card";
    case "end_turn": return "End turn";
    case "call_reinforcements": return c.call ? "Call reinforcements" : "No call";
    case "alter_sectors": return c.change ? sectorChange(view, c.change, false) : "Leave the board as it is";
    default: return /** @type {any} */ (c).type;
  }
}

/** Events of the carried-objective and debris rules (C2M1), or null. */
function missionEvent(view, e) {
  const fig = (id) => figName(view, id);
  switch (e.type) {
    case "token_placed": return `${withArticle(words(e.kind))} token is placed at ${sq(e.square, view)}.`;
    case "objective_picked_up": return `${fig(e.figure)} picks up ${tokenWords(e.token)} at ${sq(e.square, view)}.`;
    case "objective_handed_over": return `${fig(e.figure)} hands ${tokenWords(e.token)} to ${fig(e.to)}.`;
    case "objective_dropped": return `${tokenWords(e.token)[0].toUpperCase()}${tokenWords(e.token).slice(1)} is dropped at ${sq(e.square, view)}.`;
    case "objective_carried_out": return `${fig(e.figure)} carries ${tokenWords(e.token)} off the board by ${e.exit}.`;
    default: return null;
  }
}

/** An event as a sentence, or null to leave it out of the log.
 * @param {GameView} view @param {Event} e @param {(seat:number|null)=>string} seatName */
export function describeEvent(view, e, seatName, ctx = { roll: null }) {
  const fig = (id) => figName(view, id);
  // An attack is explained over three events: the roll, the defence die
  // (if any), the damage; `ctx.roll` carries it from one to the next.
  if (e.type === "attack_rolled") ctx.roll = { target: e.target, hits: e.hits, saves: 0, face: null };
  else if (e.type === "struck") ctx.roll = { target: e.figure, hits: e.hits, saves: 0, face: null };
  else if (e.type === "defense_rolled" && ctx.roll?.target === e.figure) {
    ctx.roll.saves = e.die.hits; ctx.roll.face = e.die.face;
    return null;
  } else if (e.type === "damage" && ctx.roll?.target === e.figure) {
    const r = ctx.roll;
    ctx.roll = null;
    const dv = defenceValue(view, e.figure);
    const parts = [plural(r.hits, "hit")];
    // The 1993 edition: armour factor and absorb die (CDF-1/2).
    const classic = content.edition === "classic";
    if (dv !== null) parts.push(classic ? `AF ${dv}` : `defence value ${dv}`);
    if (r.face !== null) parts.push(`${classic ? "absorb die" : "defence die"} ${r.face} saves ${r.saves}`);
    return `→ ${parts.join(" − ")} = ${e.amount} damage to ${fig(e.figure)}${e.amount && e.health ? ` (health ${e.health})` : ""}.`;
  }
  switch (e.type) {
    case "hidden": return null;
    case "game_started":
      return `The game starts. Dark Legion: ${e.dark_legion === null ? "the AI" : seatName(e.dark_legion)} (band ${e.band}).` +
        (e.commander !== null && e.commander !== undefined ? ` Commander: ${seatName(e.commander)}.` : "");
    case "equipment_picked": return `${seatName(e.seat)} gives ${fig(e.figure)} ${withArticle(itemName(e.item))}.`;
    case "equipment_passed": return `${seatName(e.seat)} is done with equipment.`;
    case "cards_dealt":
      // A 1993 game deals no Collectors Edition cards, only the two-use
      // ones (`two_use_dealt`), so the empty CE deal is left out there.
      if (e.count === 0) return editionOf(view?.mission) === "classic" ? null : `${seatName(e.seat)} draws no Doomtrooper cards.`;
      return `${seatName(e.seat)} draws ${e.count} Doomtrooper card${e.count === 1 ? "" : "s"}${e.cards?.length ? ": " + e.cards.map(dtCardName).join(", ") : ""}.`;
    case "secondary_dealt":
      // 1993 (CSM-1): one card, no choice; CE (SET-10): two, one kept.
      return `${seatName(e.seat)} draws ${content.edition === "classic" ? "a secondary mission instead of the primary one" : "2 secondary missions"}${e.cards ? ": " + e.cards.map(secondaryName).join(", ") : ""}.`;
    case "secondary_kept":
      return `${seatName(e.seat)} keeps a secondary mission${e.card !== null ? ": " + secondaryName(e.card) : ""}.`;
    case "secondary_resolved":
      return `${seatName(e.seat)}'s secondary mission ${secondaryName(e.card)}: ${e.success ? "accomplished" : "failed"}.`;
    case "round_started": return `— Round ${e.round} —`;
    case "turn_started": return `${words(sideName(view, e.side))}'s turn${e.seat !== null ? `: ${seatName(e.seat)}` : ""}.`;
    case "turn_ended": return `${words(sideName(view, e.side))} ends the turn.`;
    case "entrance_chosen": return `${teamName(view, e.team)} enters at ${e.entrance}.`;
    case "activated": return `${fig(e.figure)} activates.`;
    case "stepped": return `${fig(e.figure)} steps to ${sq(e.to, view)}.`;
    case "exited": return `${fig(e.figure)} leaves the board.`;
    case "moved_back": return `${fig(e.figure)} is moved back to ${e.to ? sq(e.to, view) : "its entrance"}.`;
    case "relocated": return `${fig(e.figure)} is moved to ${sq(e.to, view)}.`;
    case "sectors_altered": return `Altered Reality: ${sectorChange(view, e.change, true)}, with everything on it.`;
    case "ai_card_revealed": return e.tie_breaker
      ? `The AI Dark Legion turns over card ${e.card} to set the order its figures act in this turn.`
      : `The AI Dark Legion turns over card ${e.card} to make its next choice.`;
    case "ai_deck_shuffled": return `The AI deck is shuffled.`;
    case "door_removed": return `A door is removed.`;
    case "door_card": {
      const d = doorCard(e.card);
      return `Door card: ${d.name}${d.text ? ` — ${d.text}` : "."}`;
    }
    case "attack_rolled": {
      const who = e.attacker === null ? "A trap" : fig(e.attacker);
      const f = e.attacker === null ? null : view?.figures.find((x) => x.id === e.attacker);
      const weapon = f?.weapon ? itemName(f.weapon) : null;
      const how = e.attack ? ` with ${weapon ? `${weapon} (${ATTACK[e.attack]})` : ATTACK[e.attack]}` : "";
      return `${who} attacks ${fig(e.target)}${how}: rolls ${diceText(e.dice)} = ${plural(e.hits, "hit")}.`;
    }
    case "area_attack_rolled": {
      const who = fig(e.attacker);
      const f = view?.figures.find((x) => x.id === e.attacker);
      const n = e.squares.length;
      let what;
      if (e.attack === "close_combat") what = `sweeps ${f?.weapon ? `the ${itemName(f.weapon)}` : "a blade"} through ${plural(n, "square")}`;
      else if (f?.weapon === "gehenna_puker") what = `sprays a line of ${plural(n, "square")} with the ${itemName(f.weapon)}`;
      else if (f?.items?.includes("grenade_launcher") || (e.attack === "firearm" && n > 1 && n <= 9))
        what = `fires a grenade at ${sq(e.squares[0], view)} (${plural(n - 1, "adjacent square")} take 1 hit less)`;
      else what = `attacks ${plural(n, "square")}`;
      return `${who} ${what} (${ATTACK[e.attack] ?? words(e.attack)}): rolls ${diceText(e.dice)} = ${plural(e.hits, "hit")}.`;
    }
    case "struck": return `${fig(e.figure)} is caught: ${plural(e.hits, "hit")} against it.`;
    case "barbs": return `Manus barbs spring from the trap at ${sq(e.square, view)}: each adjacent figure is attacked in turn.`;
    case "defense_rolled": return `${fig(e.figure)} rolls defense: ${e.die.face} (${e.die.hits} saved) [${e.die.color}].`;
    case "damage": return `${fig(e.figure)} takes ${e.amount} damage (health ${e.health}).`;
    case "healed": return `${fig(e.figure)} heals ${e.amount} (health ${e.health}).`;
    case "eliminated": return `${fig(e.figure)} is eliminated${e.by !== null ? ` by ${teamName(view, e.by)}` : ""}.`;
    case "promotion_points":
      return `${words(sideName(view, e.side))} ${e.delta >= 0 ? "gains" : "loses"} ${Math.abs(e.delta)} PP (${e.reason}); now ${e.total}.`;
    case "rank_changed": return `${teamName(view, e.team)} is now rank ${e.rank}.`;
    case "reinforcements_called": return e.call ? "The Dark Legion calls reinforcements." : "The Dark Legion makes no call.";
    case "extra_action_taken": return `${fig(e.figure)} takes an extra action from the team's pool (${e.pool} left).`;
    case "reckless_token": return `${teamName(view, e.team)} has ${e.total} reckless token${e.total === 1 ? "" : "s"}.`;
    case "event_drawn": {
      const t = eventText(e.card);
      return `Event: ${eventName(e.card)}${e.final_round ? " (the final round begins)" : ""}${t ? ` — ${t}` : "."}`;
    }
    case "event_target": {
      const t = e.figure !== null ? fig(e.figure) : e.tile !== null ? tileName(view, e.tile) : e.corporation ? words(e.corporation) : "nobody";
      return `${eventName(e.card)} targets ${t}.`;
    }
    case "force_card_drawn": {
      const c = forceCard(e.card);
      return c ? `Force card drawn: ${c.name} (${c.options.join(" or ")}${c.flags.length ? `; ${c.flags.join(", ")}` : ""}).` : "Force card drawn.";
    }
    case "force_cards_dealt": return `${e.count} force card${e.count === 1 ? "" : "s"} dealt face down on ${tileName(view, e.tile)}.`;
    case "force_card_revealed": return `${forceCard(e.card)?.name ?? "A force card"} revealed in the ${tileName(view, e.tile)}!`;
    case "tile_marked": return `${teamName(view, e.team)} marks ${tileName(view, e.tile)}.`;
    case "option_chosen": return `The Dark Legion chooses ${forceCard(e.card)?.options[e.option] ?? `option ${e.option + 1}`}.`;
    case "reinforcement": return `${fig(e.figure)} arrives as reinforcement at ${e.entrance}.`;
    case "placed": return `${fig(e.figure)} is placed at ${sq(e.square, view)}.`;
    case "not_placed": return `No room to place ${withArticle(creatureName(e.kind))}.`;
    case "trap_placed": return `A trap is set at ${sq(e.square, view)}.`;
    case "token_removed": return `A token is removed from ${sq(e.square, view)}.`;
    case "token_attack_rolled": {
      const how = e.attack ? `attacks the token at ${sq(e.token, view)} (${ATTACK[e.attack]})` : `hacks the terminal at ${sq(e.token, view)}`;
      return `${fig(e.attacker)} ${how}: rolls ${diceText(e.dice)} = ${plural(e.hits, "hit")} against DV ${e.dv}${e.hits > e.dv ? "" : " — no effect"}.`;
    }
    case "token_hacked": return `${fig(e.figure)} hacks ${e.name ? `the ${words(e.name)}` : "the terminal"} at ${sq(e.token, view)}.`;
    case "token_destroyed": return `${fig(e.figure)} destroys ${e.name ? `the ${words(e.name)}` : "the token"} at ${sq(e.token, view)}.`;
    case "bomb_placed": return `${teamName(view, e.team)} plants a bomb at ${sq(e.square, view)}.`;
    case "smoke": return `Smoke fills ${tileName(view, e.tile)}.`;
    case "card_played":
      return `${seatName(e.seat)} plays ${dtCardName(e.card)} for ${fig(e.figure)}${e.extra_action ? " (+1 action)" : ""}.`;
    // The 1993 two-use cards, by name; a card the viewer may not know
    // (another player's hand) is "a card".
    case "two_use_dealt": return `${seatName(e.seat)} is dealt ${plural(e.count, "Doomtrooper card")}${e.cards ? `: ${e.cards.map(twoUseName).join(", ")}` : ""}.`;
    case "two_use_played":
      return `${seatName(e.seat)} plays ${twoUseUseName(e.card_use)}${e.corporation ? ` on ${words(e.corporation)}` : e.figure !== null ? ` on ${fig(e.figure)}` : ""} (card: ${twoUseName(e.card)}).`;
    case "two_use_taken": return `${seatName(e.to)} takes ${e.card !== null ? twoUseName(e.card) : "a card"} from ${seatName(e.from)}.`;
    case "two_use_discarded": return `${seatName(e.seat)} discards ${twoUseName(e.card)}.`;
    case "card_door_placed": return `A door shuts between ${sq(e.squares[0], view)} and ${sq(e.squares[1], view)}.`;
    case "card_door_attacked": return `${fig(e.figure)} attacks the door: rolls ${diceText(e.dice)} = ${plural(e.hits, "hit")}${e.hits >= 3 ? "" : " — it holds"}.`;
    case "card_door_destroyed": return `The door between ${sq(e.squares[0], view)} and ${sq(e.squares[1], view)} is destroyed.`;
    case "force_card_moved": return `A face-down force card moves from ${tileName(view, e.from)} to ${tileName(view, e.to)}.`;
    case "extra_action_pool": return `${teamName(view, e.team)}'s extra-action pool is now ${e.pool}.`;
    case "item_used": return `${fig(e.figure)} uses ${itemName(e.item)}.`;
    case "special_done": return `${fig(e.figure)}: ${specialName(view, e.action)}.`;
    case "reaction_offered": return `${teamName(view, e.team)} may react.`;
    case "decision_requested": return `Waiting for ${e.seat === null ? "the AI" : seatName(e.seat)}: ${e.what}.`;
    case "activation_ended": return `${fig(e.figure)} ends activation.`;
    case "mission_ended":
      return `Mission ${e.result === "success" ? "accomplished" : "failed"}. Winners: ${[
        ...e.winners.map(seatName), ...(e.dl_wins && (view.dark_legion.seat === null) ? ["the Dark Legion AI"] : []),
      ].join(", ") || "none"}.`;
    default: return missionEvent(view, /** @type {any} */ (e)) ?? words(/** @type {any} */ (e).type);
  }
}

/** A mission's goal as a sentence, from its content record (MSN-2). */
export function goalText(mission, goal = mission?.goal) {
  if (!goal) return "";
  const list = (xs) => xs.map(words).join(", ");
  if (typeof goal === "string") return goal === "all_dl_eliminated" ? "eliminate every Dark Legion figure" : words(goal).toLowerCase();
  const [kind, v] = Object.entries(goal)[0];
  switch (kind) {
    case "and": return v.map((g) => goalText(mission, g)).join(" and ");
    case "or": return v.map((g) => goalText(mission, g)).join(" or ");
    case "special_done": {
      const a = mission.special_actions?.find((x) => x.id === v.action);
      const where = a?.adjacent_to ? ` next to ${withArticle(words(a.adjacent_to).toLowerCase())}` : "";
      return `${a?.name ?? words(v.action)}${where} ${v.times === 1 ? "once" : `${v.times} times`}`;
    }
    case "exited": return `${v.count === 0 ? "one Doomtrooper of every corporation" : plural(v.count, "Doomtrooper")} must leave the board${v.exits.length ? ` by ${list(v.exits)}` : ""}`;
    case "carried_out": return `carry the ${words(v.token)} off the board${v.exits.length ? ` by ${list(v.exits)}` : ""}`;
    case "eliminated": return `eliminate the ${words(v)}`;
    case "destroyed": return `destroy the ${list(v)}`;
    case "hacked": return `hack the ${list(v)}`;
    case "pp_earned": return `earn ${v} PP`;
    // MSN-2 then(first, next): `next` counts only once `first` has held.
    case "then": return `${goalText(mission, v.first)}, then ${goalText(mission, v.next)}`;
    case "alive": return `keep ${plural(v, "Doomtrooper")} alive`;
    default: return words(kind).toLowerCase();
  }
}

/** A mission's content record by id. */
export function missionDef(id) {
  return content.data?.missions?.find((m) => m.id === id) ?? null;
}
