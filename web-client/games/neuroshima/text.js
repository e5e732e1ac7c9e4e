// Neuroshima Hex's words: tile names and descriptions (our own wording,
// made from the army data the server sends in `static_data`), hex names,
// and one sentence per event and command. No rules live here: the
// descriptions read the data, and the server decides everything.
// @ts-check

/**
 * The payloads, as the server sends them: generated from the rules crate's
 * types (protocol.ts, kept current by crates/citadel/tests/client_shell.rs).
 * @typedef {import("./protocol").Hex} Hex
 * @typedef {import("./protocol").TileId} TileId
 * @typedef {import("./protocol").Edge} Edge
 * @typedef {import("./protocol").Kind} Kind
 * @typedef {import("./protocol").Army} Army
 * @typedef {import("./protocol").Static} StaticData
 * @typedef {import("./protocol").Placed} Placed
 */

/** The armies a seat may choose in the lobby (the rules crate's ids), in our words. */
export const ARMIES = [
  { id: "ddm", name: "Doomsday Machine", blurb: "shooters, and redirectors that turn and triple your own shots; its HQ turns one of your tiles each turn" },
  { id: "moloch", name: "Moloch", blurb: "tough fighters, nets, bombs from the air; its HQ makes every neighbouring tile shoot harder" },
];
/** What a seat plays when it chose nothing (the rules' default: seat 1 ddm, seat 2 moloch). */
export const DEFAULT_ARMY = ["ddm", "moloch"];
export const armyName = (id) => ARMIES.find((a) => a.id === id)?.name ?? String(id ?? "");

/** The static data the module reads (set by the module on `setStaticData`). @type {StaticData|null} */
let data = null;
export function setData(d) { data = d; }
export function getData() { return data; }

/** A tile's kind. @param {TileId} t @returns {Kind|null} */
export function kindOf(t) {
  return data?.armies?.[t.seat]?.kinds?.[t.kind] ?? null;
}
/** The kind index of `id` in `seat`'s army (-1: none). */
export function kindIndex(seat, id) {
  return data?.armies?.[seat]?.kinds?.findIndex((k) => k.id === id) ?? -1;
}
/** A tile's stable label (`seat.kind#k`, the rules' Display form). @param {TileId} t */
export const tileKey = (t) => `${t.seat}.${t.kind}#${t.k}`;
export const sameTile = (a, b) => !!a && !!b && a.seat === b.seat && a.kind === b.kind && a.k === b.k;

/** `q,r`: a hex's key (the board's `data-hex`). @param {Hex} h */
export const hexKey = (h) => `${h.q},${h.r}`;
/** The hex of a key. @param {string} k @returns {Hex} */
export const keyHex = (k) => { const [q, r] = k.split(",").map(Number); return { q, r }; };

/** Directions clockwise from up (NSH-BRD-2): their axial steps and words. */
export const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
export const DIR_WORD = ["up", "up-right", "down-right", "down", "down-left", "up-left"];
export const DIR_ARROW = ["↑", "↗", "↘", "↓", "↙", "↖"];
export const onBoard = (h) => Math.max(Math.abs(h.q), Math.abs(h.r), Math.abs(h.q + h.r)) <= 2;
export const step = (h, d, n = 1) => ({ q: h.q + DIRS[d][0] * n, r: h.r + DIRS[d][1] * n });

/**
 * A hex's name: its column a–e (left to right) and its place in the
 * column from the top, 1–5; the centre is c3.
 * @param {Hex} h
 */
export function hexName(h) {
  const col = "abcde"[h.q + 2] ?? "?";
  const top = Math.max(-2, -2 - h.q);
  return `${col}${h.r - top + 1}`;
}

/** Whose tile: the army's name, with the seat when both seats play the same army. @param {number} seat */
export function sideName(seat) {
  const a = data?.armies?.[seat];
  if (!a) return `seat ${seat + 1}`;
  const same = data?.armies?.length === 2 && data.armies[0].id === data.armies[1].id;
  return same ? `${a.name} ${seat + 1}` : a.name;
}

/** "Moloch Hybrid": a tile in a log line. @param {TileId|null|undefined} t */
export function tileName(t) {
  if (!t) return "a tile";
  const k = kindOf(t);
  return `${sideName(t.seat)} ${k?.name ?? "tile"}`;
}
/** The kind's name alone. @param {TileId} t */
export const kindName = (t) => kindOf(t)?.name ?? "tile";

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const EDGE_PLACE = ["top", "upper right", "lower right", "bottom", "lower left", "upper left"];
const BONUS_WORDS = {
  melee: "+1 to the melee attacks of each tile it links to",
  ranged: "+1 to the ranged attacks (not Gauss) of each tile it links to",
  initiative: "+1 to the initiative of each tile it links to",
  extra_initiative: "an extra attack, one initiative step later, for each tile it links to",
  medic: "saves a linked tile: cancels one hit on it, then leaves the board",
};
const BONUS_SHORT = { melee: "+M", ranged: "+R", initiative: "+I", extra_initiative: "+1×", medic: "✚" };
export const bonusShort = (b) => BONUS_SHORT[b] ?? "+";
const EFFECT_WORDS = {
  battle: "Starts a battle at once, and your turn ends when it is over. Not allowed once a draw pile has run out.",
  push: "One of your tiles pushes an adjacent enemy tile one hex away from it (the enemy picks where if there is a choice). Netted tiles neither push nor get pushed.",
  move: "Moves one of your tiles to an adjacent empty hex, turns it, or both. Not a netted tile.",
  small_bomb: "Pick the three hexes around one corner: every tile on them except HQs takes 1 wound, yours too.",
  air_strike: "Pick a hex with six neighbours on the board: every tile on it and around it except HQs takes 1 wound, yours too.",
};
const ABILITY_WORDS = {
  rotate: "Once in each of your turns you may turn one of your tiles anywhere on the board to face any way.",
  explode: "When it acts it may blow up instead of attacking: every tile next to it except HQs takes 1 wound, and it is gone.",
};

/** What one edge carries, in words ("" when nothing). @param {Edge} e */
export function edgeWords(e) {
  const bits = [];
  if (e.melee) bits.push(`melee attack ${e.melee}`);
  if (e.ranged) bits.push(`ranged attack ${e.ranged}`);
  if (e.gauss) bits.push("Gauss shot (1, through every enemy in line)");
  if (e.armour) bits.push("armour (ranged and Gauss hits here do 1 less)");
  if (e.net) bits.push("net (the enemy tile it faces cannot act)");
  if (e.entry) bits.push("redirect entry");
  if (e.exit) bits.push("redirect exit");
  if (e.link) bits.push(e.link > 1 ? "long link (reaches 2 hexes)" : "link (reaches the next hex)");
  if (e.trap) bits.push("trap side (an enemy hit here sets it off)");
  return bits.join(", ");
}

/**
 * A tile kind's whole description, in our words, from its data: what it
 * is, its initiative and hit points, every edge, its ability.
 * @param {Kind} k @param {string} army
 */
export function describeKind(k, army = "") {
  const lines = [];
  const what = { hq: "headquarters", soldier: "soldier", module: "module", instant: "instant tile" }[k.class] ?? k.class;
  lines.push(`${k.name}: ${army ? `${army} ` : ""}${what}, ${plural(k.count, "copy", "copies")} in the army.`);
  if (k.class === "instant") {
    lines.push(EFFECT_WORDS[k.effect ?? ""] ?? "Used once, then discarded.");
    return lines.join("\n");
  }
  const redirector = k.edges.some((e) => e.entry);
  if (k.init?.length) lines.push(`Initiative ${k.init.join(" and ")}: acts in battle ${k.init.length > 1 ? "in each of those phases" : "in that phase"}.`);
  else if (redirector) lines.push("No initiative: it never attacks. Your own ranged and Gauss shots that come in through an entry edge leave through its exit edge(s), unchanged in strength; a netted one passes them straight on.");
  else if (k.class === "soldier") lines.push("No initiative: it never attacks.");
  lines.push(k.class === "hq" ? `${k.hp} hit points: the game is lost when they are gone.` : plural(k.hp, "hit point"));
  k.edges.forEach((e, i) => {
    const w = edgeWords(e);
    if (w) lines.push(`${EDGE_PLACE[i]}: ${w}.`);
  });
  if (k.bonus?.length) lines.push(`Links give ${k.bonus.map((b) => BONUS_WORDS[b] ?? b).join("; ")}.`);
  if (k.ability && ABILITY_WORDS[k.ability]) lines.push(ABILITY_WORDS[k.ability]);
  if (k.class === "hq" && k.edges.some((e) => e.link)) lines.push("Every friendly tile next to it gets +1 to its ranged attacks.");
  return lines.join("\n");
}

/** A board or hand tile's description (its kind's, with its damage). @param {TileId} t @param {number} [damage] */
export function describeTile(t, damage = 0) {
  const k = kindOf(t);
  if (!k) return "A tile.";
  const text = describeKind(k, sideName(t.seat));
  if (!damage) return text;
  return `${text}\nWounded: ${damage} of ${k.hp} hit point${k.hp === 1 ? "" : "s"} lost.`;
}

const CAUSE = { tile: "a Battle tile", full_board: "a full board", last: "the last battle", overtime: "the overtime battle" };
const REASON = { hq_destroyed: "an HQ was destroyed", last_battle: "after the last battle", overtime: "after overtime", stalemate: "a full board no battle changes", forfeit: "a player left" };
const HIT_KIND = { melee: "melee", ranged: "ranged", gauss: "Gauss", shrapnel: "shrapnel", bomb: "bomb" };

/** A hit in words: "Moloch Hybrid −1 (ranged 1 from DDM Omega Shooter)". */
export function hitWords(h) {
  const copies = h.unbounded ? " × ∞" : h.copies > 1 ? ` × ${h.copies}` : "";
  const saved = h.cancelled ? `, ${h.cancelled} saved by a Medic` : "";
  const from = h.source ? ` from ${tileName(h.source)}` : "";
  const armour = h.wounds < h.strength && (h.kind === "ranged" || h.kind === "gauss") ? ", armour −1" : "";
  return `${tileName(h.target)} ${h.wounds ? `−${h.wounds}` : "no wound"}${copies} (${HIT_KIND[h.kind] ?? h.kind} ${h.strength}${from}${armour}${saved})`;
}

/** One trace (a ranged or Gauss shot) in words, step by step (NSH-DM-15). */
export function traceWords(tr) {
  const x = (n) => (n > 1 ? ` ×${n}` : "");
  const steps = tr.steps.map((s) => {
    switch (s.step) {
      case "redirect": return `${tileName(s.redirector)} turns it ${s.exits.map((d) => DIR_ARROW[d]).join("")}${x(s.copies)}`;
      case "loop_cut": return `loop cut at ${tileName(s.redirector)}${x(s.copies)}`;
      case "hit": return `hits ${tileName(s.target)} ${s.wounds ? `−${s.wounds}` : "(no wound)"}${s.unbounded ? " ×∞" : x(s.copies)}`;
      case "lost": return `leaves the board ${DIR_ARROW[s.direction]}${x(s.copies)}`;
      default: return "";
    }
  }).filter(Boolean);
  const what = tr.kind === "gauss" ? "Gauss shot" : "shot";
  return `${tileName(tr.source)}'s ${what}: ${steps.join(", ") || "nothing"}${tr.combo_capped ? " (the loop is cut)" : ""}.`;
}

/** A phase report's log line (one per phase). */
export function phaseWords(p) {
  const acting = p.acting.map(tileName);
  const bits = [`Phase ${p.phase}:`];
  if (!acting.length && !p.hits.length && !p.removed.length) return `Phase ${p.phase}: nothing acts.`;
  bits.push(acting.length ? `${acting.join(", ")} act${acting.length === 1 ? "s" : ""}.` : "nobody acts.");
  if (p.explosions.length) bits.push(`${p.explosions.map(tileName).join(", ")} explode${p.explosions.length === 1 ? "s" : ""}.`);
  if (p.hits.length) bits.push(`Hits: ${p.hits.map(hitWords).join("; ")}.`);
  else if (acting.length) bits.push("No hits.");
  if (p.cancels.length) bits.push(`Medics: ${p.cancels.map((c) => `${tileName(c.medic)} saves ${tileName(c.target)}`).join("; ")}.`);
  if (p.removed.length) bits.push(`Removed: ${p.removed.map(tileName).join(", ")}.`);
  return bits.join(" ");
}

/**
 * One event's log line, or null for one that needs none.
 * @param {any} e @param {(seat: number) => string} names
 */
export function describeEvent(e, names) {
  const who = (s) => names(s);
  const cap = (s) => s.replace(/^./, (c) => c.toUpperCase());
  switch (e.event) {
    case "started": return `The game begins: ${armyName(e.armies[0])} (${who(0)}) against ${armyName(e.armies[1])} (${who(1)}). ${cap(who(e.first_player))} plays first.`;
    case "shuffled": return null;
    case "hq_placed": return `${cap(who(e.seat))} places the ${sideName(e.seat)} HQ on ${hexName(e.hex)}.`;
    case "turn_started": return `Turn ${e.turn}: ${who(e.seat)}.`;
    case "drew": return e.tiles.length ? `${cap(who(e.seat))} draws ${e.tiles.map(kindName).join(", ")}.` : `${cap(who(e.seat))} draws nothing: the pile is empty.`;
    case "ending_began": return `${cap(who(e.seat))} has drawn the last tile: the ending begins. No more Battle tiles; the other player takes one more turn, then the last battle.`;
    case "discarded": return `${cap(who(e.tile.seat))} discards ${kindName(e.tile)}.`;
    case "placed": return `${cap(who(e.tile.seat))} places ${kindName(e.tile)} on ${hexName(e.hex)}, its top facing ${DIR_WORD[e.rotation]}.`;
    case "used": return `${cap(who(e.tile.seat))} plays ${kindName(e.tile)}.`;
    case "moved": return e.from.q === e.to.q && e.from.r === e.to.r ? `${tileName(e.tile)} on ${hexName(e.to)} turns: its top faces ${DIR_WORD[e.rotation]}.` : `${tileName(e.tile)} moves from ${hexName(e.from)} to ${hexName(e.to)}, its top facing ${DIR_WORD[e.rotation]}.`;
    case "rotated": return `The HQ turns ${tileName(e.tile)}: its top faces ${DIR_WORD[e.rotation]}.`;
    case "bombed": return `Bomb: ${e.hits.length ? e.hits.map(hitWords).join("; ") : "no tile hit"}.${e.cancels.length ? ` Medics: ${e.cancels.map((c) => `${tileName(c.medic)} saves ${tileName(c.target)}`).join("; ")}.` : ""}${e.removed.length ? ` Removed: ${e.removed.map(tileName).join(", ")}.` : ""}`;
    case "awaiting": return `Waiting for ${e.seats.map(who).join(" and ")} to choose.`;
    case "battle_started": return `Battle! (${CAUSE[e.cause] ?? e.cause}) Phases from initiative ${e.from_phase} down to 0.`;
    case "phase": return phaseWords(e);
    case "battle_ended": return `The battle is over. HQs: ${sideName(0)} ${e.hq_hp[0]}, ${sideName(1)} ${e.hq_hp[1]}.`;
    case "overtime": return "The HQs are tied: overtime, one more turn each, then a last battle.";
    case "turn_ended": return null;
    case "game_over": return resultSentence(e.result, who);
    default: return null;
  }
}

/** The result in a sentence. @param {any} r @param {(seat: number) => string} who */
export function resultSentence(r, who) {
  const why = REASON[r.reason] ?? r.reason;
  const hp = `HQs ${r.hq_hp[0]} to ${r.hq_hp[1]}`;
  if (r.winner === null || r.winner === undefined) return `The game is a draw (${why}; ${hp}).`;
  return `${who(r.winner).replace(/^./, (c) => c.toUpperCase())} wins with ${sideName(r.winner)} (${why}; ${hp}).`;
}

/** A command in words (the replay viewer's line). @param {any} c */
export function describeCommand(c) {
  switch (c.type) {
    case "place_hq": return `places the HQ on ${hexName(c.hex)}`;
    case "discard": return `discards ${kindName(c.tile)}`;
    case "place": return `places ${kindName(c.tile)} on ${hexName(c.hex)}, its top facing ${DIR_WORD[c.rotation]}`;
    case "battle": return "plays a Battle tile";
    case "push": return `pushes from ${hexName(c.pusher)} the tile on ${hexName(c.target)}`;
    case "move": return `moves the tile on ${hexName(c.from)} to ${hexName(c.to)}, its top facing ${DIR_WORD[c.rotation]}`;
    case "small_bomb": return `drops the Small Bomb on ${c.hexes.map(hexName).join(", ")}`;
    case "air_strike": return `calls the Air Strike on ${hexName(c.centre)}`;
    case "rotate": return `turns the tile on ${hexName(c.hex)} to face ${DIR_WORD[c.rotation]}`;
    case "end_turn": return "ends the turn";
    case "push_to": return `sends the pushed tile to ${hexName(c.hex)}`;
    case "clown": return c.explode ? "blows up the Clown" : "lets the Clown fight";
    case "medics": return medicPlanWords(c.steps, null);
    default: return c.type;
  }
}

/** A Medic plan in words ("no Medic to use", "Medic saves Hybrid"). @param {any[]} steps @param {any[]|null} hits */
export function medicPlanWords(steps, hits) {
  if (!steps.length) return "no Medic can help";
  return steps.map((s) => {
    const h = hits?.[s.hit];
    return `${kindName(s.medic)} cancels hit ${s.hit + 1}${h ? ` (${tileName(h.target)} −${h.wounds})` : ""}`;
  }).join(", then ");
}
