// Neuroshima Hex's client module, behind the shell's game-module interface
// (docs/ARCHITECTURE.md, "The browser client: shell and game modules";
// docs/neuroshima/CLIENT.md for this module). Thin like the shell: it holds
// no rules and offers exactly `legal` — a tile in hand, then a hex, then a
// rotation (wheel, keys or buttons) before it is confirmed; instant tiles
// by their targets; the discard, Push Back, Clown and Medic questions; the
// HQ's turn of a tile. Battles are played back phase by phase from the
// events' reports, every shot's path and redirect branch drawn.
// @ts-check
import { $, h } from "../../dom.js";
import { HexBoard, tileSvg, tracePaths } from "./board.js";
import {
  ARMIES, DEFAULT_ARMY, DIR_WORD, armyName, describeCommand, describeEvent, describeTile, hexKey, hexName, keyHex, kindIndex, kindName,
  kindOf, medicPlanWords, resultSentence, sameTile, setData, sideName, tileKey, traceWords, getData,
} from "./text.js";
import { SLOTS } from "./slots.js";

/** @typedef {import("./protocol").TileId} TileId */
/** @typedef {import("./protocol").View} View */
/** @typedef {import("./protocol").Command} Command */
/** @typedef {import("../../protocol").LobbyView} LobbyView */
/** @typedef {import("../../protocol").LobbySeat} LobbySeat */

/** The shell's services (`init`). @type {any} */
let shell = null;
const conn = () => shell.conn;
/** This module's state for the shown connection (`newConnState`). */
const ui = () => shell.conn.game;

/** @type {HexBoard} */
let board = /** @type {any} */ (null);

/** How long each battle phase stays on the board (ms); `citadel:nsh-phase-ms` overrides it. */
const phaseMs = () => Number(localStorage.getItem("citadel:nsh-phase-ms") ?? 1100);
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * Tests read what was played back here (`window.citadel.neuroshima`):
 * battles seen, each phase (or bomb) drawn for playback (`frames`), and
 * how many of them were on the board so far (`shown`).
 */
const record = { battles: 0, frames: /** @type {any[]} */ ([]), shown: 0 };
function exposeRecord() {
  const c = /** @type {any} */ (window).citadel;
  if (c && !c.neuroshima) c.neuroshima = record;
}

// ---------------------------------------------------------------- views

const stageOf = (view) => view?.state?.stage?.stage ?? "over";
/** The hex of the last tile placed, moved or turned (marked on the board). */
const lastMove = { hex: /** @type {string|null} */ (null) };
/** The board as a list: each tile with its hex, rotation and damage. */
function boardTiles(view) {
  const hexes = getData()?.board ?? [];
  const out = [];
  view.state.board.forEach((p, i) => { if (p && hexes[i]) out.push({ hex: hexes[i], tile: p.tile, rot: p.rot, damage: p.damage }); });
  return out;
}
function boardModel(view) {
  return {
    tiles: boardTiles(view),
    netted: new Set((view.netted ?? []).map(hexKey)),
    effects: new Map((view.effects ?? []).map((e) => [hexKey(e.hex), e])),
  };
}
const hqOf = (seat) => ({ seat, kind: kindIndex(seat, "hq"), k: 1 });

// ---------------------------------------------------------------- battles played back

/**
 * Where every board tile stands, kept from the shown connection's view and
 * moved along with the events (placements, moves, turns, removals), so
 * that each battle phase is drawn on the board as it stood then.
 */
const track = { seq: -1, where: /** @type {Map<string, any>} */ (new Map()) };
function trackFrom(view, seq) {
  track.where = new Map(view ? boardTiles(view).map((t) => [tileKey(t.tile), { ...t }]) : []);
  track.seq = seq;
}
function trackEvent(e) {
  const w = track.where;
  switch (e.event) {
    case "hq_placed": { const t = hqOf(e.seat); w.set(tileKey(t), { hex: e.hex, tile: t, rot: e.rotation, damage: 0 }); break; }
    case "placed": w.set(tileKey(e.tile), { hex: e.hex, tile: e.tile, rot: e.rotation, damage: 0 }); break;
    case "moved": { const o = w.get(tileKey(e.tile)); if (o) { o.hex = e.to; o.rot = e.rotation; } break; }
    case "rotated": { const o = w.get(tileKey(e.tile)); if (o) o.rot = e.rotation; break; }
  }
}
/** Wounds of a phase's (or bomb's) hits go on the tiles, removed tiles go. */
function trackDamage(hits, removed) {
  for (const hit of hits) {
    const o = track.where.get(tileKey(hit.target));
    if (!o) continue;
    const hp = kindOf(hit.target)?.hp ?? 1;
    o.damage = hit.unbounded && hit.wounds ? hp : Math.min(hp, o.damage + hit.wounds * Math.max(0, hit.copies - hit.cancelled));
  }
  for (const t of removed) track.where.delete(tileKey(t));
}

/** One phase (or bomb) drawn: the board then, and what happened in it. */
function makeFrame(p, label) {
  const where = new Map([...track.where].map(([k, v]) => [k, { ...v }]));
  const byHex = new Map([...where.values()].map((t) => [hexKey(t.hex), t]));
  const netted = new Set((p.netted ?? []).map(tileKey));
  const strikes = [];
  for (const hit of p.hits) {
    if (!hit.source || (hit.kind !== "melee" && hit.kind !== "shrapnel")) continue;
    const from = where.get(tileKey(hit.source))?.hex;
    if (from) strikes.push({ from, to: hit.hex, kind: hit.kind });
  }
  return {
    phase: label, where, tiles: [...where.values()],
    netted: new Set([...where.values()].filter((t) => netted.has(tileKey(t.tile))).map((t) => hexKey(t.hex))),
    acting: p.acting ?? [], explosions: p.explosions ?? [], hits: p.hits, removed: p.removed ?? [],
    paths: (p.traces ?? []).map((tr) => tracePaths(tr, byHex, where, netted)), strikes,
  };
}

/**
 * The battle being played back: frames waiting (`queue`), the one shown
 * (`frame`), the battle being seen (`current`) and the last whole one
 * (`last`); `replay`: the replay step's view while a replay step plays
 * its battle back (the board is drawn here, not by `render`).
 */
const playback = { queue: /** @type {any[]} */ ([]), frame: /** @type {any} */ (null), timer: 0, current: /** @type {any[]} */ ([]), last: /** @type {any[]} */ ([]),
  replay: /** @type {any} */ (null) };
function stopPlayback() {
  clearTimeout(playback.timer);
  playback.timer = 0; playback.queue = []; playback.frame = null; playback.replay = null;
}
function queueFrame(f) {
  playback.queue.push(f);
  if (!playback.timer && !playback.frame) nextFrame();
}
function nextFrame() {
  clearTimeout(playback.timer);
  playback.frame = playback.queue.shift() ?? null;
  playback.timer = 0;
  if (playback.frame) {
    record.shown++;
    playback.timer = setTimeout(nextFrame, phaseMs());
  }
  if (playback.replay) {
    const f = playback.frame;
    if (f) board.render({ tiles: f.tiles, netted: f.netted, effects: new Map() }, { overlay: f });
    else { board.render(boardModel(playback.replay), {}); playback.replay = null; }
    return;
  }
  if (shell && conn().view) shell.render();
}

// ---------------------------------------------------------------- what the player may do

/** The legal commands grouped for the controls. */
function analyse(view) {
  const legal = conn().legal ?? [];
  const by = (type) => legal.filter((c) => c.type === type);
  return { legal, by, stage: stageOf(view) };
}

/** Drop the half-made choice. */
function clearChoice() {
  const u = ui();
  u.sel = null; u.hex = null; u.from = null; u.rot = 0;
}

function send(cmd) {
  clearChoice();
  stopPlayback();
  shell.command(cmd);
}

/** The tile a pending placement shows, and which commands confirm it. */
function pendingOf(view, a) {
  const u = ui();
  if (!u.hex) return null;
  const hex = keyHex(u.hex);
  if (a.stage === "hq") return { tile: hqOf(conn().seat), hex, rot: u.rot };
  if (u.sel?.kind === "tile" && kindOf(u.sel.tile)?.class !== "instant") return { tile: u.sel.tile, hex, rot: u.rot };
  if (u.sel?.kind === "rotate" || (u.sel?.kind === "tile" && kindOf(u.sel.tile)?.effect === "move" && u.from)) {
    const fromKey = u.sel.kind === "rotate" ? u.hex : u.from;
    const t = boardTiles(view).find((x) => hexKey(x.hex) === fromKey);
    if (t) return { tile: t.tile, hex, rot: u.rot, damage: t.damage };
  }
  return null;
}

/** The command a pending choice confirms, or null. */
function confirmCommand(view, a) {
  const u = ui();
  const same = (h1, k) => hexKey(h1) === k;
  if (a.stage === "hq" && u.hex) return a.by("place_hq").find((c) => same(c.hex, u.hex) && c.rotation === u.rot) ?? null;
  if (u.sel?.kind === "tile") {
    const k = kindOf(u.sel.tile);
    if (k?.effect === "battle") return a.by("battle").find((c) => sameTile(c.tile, u.sel.tile)) ?? null;
    if (k?.effect === "move" && u.from && u.hex) return a.by("move").find((c) => sameTile(c.tile, u.sel.tile) && same(c.from, u.from) && same(c.to, u.hex) && c.rotation === u.rot) ?? null;
    if (k?.class !== "instant" && u.hex) return a.by("place").find((c) => sameTile(c.tile, u.sel.tile) && same(c.hex, u.hex) && c.rotation === u.rot) ?? null;
  }
  if (u.sel?.kind === "rotate" && u.hex) return a.by("rotate").find((c) => same(c.hex, u.hex) && c.rotation === u.rot) ?? null;
  return null;
}

/** Whether a pending tile waits for its rotation (the wheel, keys and buttons turn it). */
function turning() {
  const view = conn()?.view;
  if (!view || !ui()) return false;
  return !!pendingOf(view, analyse(view));
}
function rotateBy(d) {
  if (!turning()) return false;
  ui().rot = (ui().rot + d + 6) % 6;
  shell.render();
  return true;
}
function confirm() {
  const view = conn().view;
  const a = analyse(view);
  const c = confirmCommand(view, a);
  if (c) { send(c); return true; }
  if (pendingOf(view, a)) shell.toast("That is not allowed (the same facing as now changes nothing).");
  return false;
}

/** What a click on hex `k` does now. */
function clickHex(k) {
  // A click during a battle's playback ends it (the board shows the game as it is now again).
  if (playback.frame) { stopPlayback(); shell.render(); return; }
  const view = conn().view;
  if (!view || conn().spectator) { showInfoAt(view, k); shell.render(); return; }
  const a = analyse(view);
  const u = ui();
  const here = (c, f) => hexKey(c[f]) === k;
  if (a.stage === "hq") {
    if (a.by("place_hq").some((c) => here(c, "hex"))) {
      if (u.hex === k) return void confirm();
      u.hex = k; shell.render();
    }
    return;
  }
  if (a.stage === "push_choice") {
    const c = a.by("push_to").find((x) => here(x, "hex"));
    if (c) send(c);
    return;
  }
  const sel = u.sel;
  const k0 = sel?.kind === "tile" ? kindOf(sel.tile) : null;
  if (sel?.kind === "tile" && k0) {
    if (k0.class !== "instant") {
      if (a.by("place").some((c) => sameTile(c.tile, sel.tile) && here(c, "hex"))) {
        if (u.hex === k) return void confirm();
        u.hex = k; shell.render(); return;
      }
    } else if (k0.effect === "push") {
      const mine = a.by("push").filter((c) => sameTile(c.tile, sel.tile));
      if (u.from) {
        const c = mine.find((x) => hexKey(x.pusher) === u.from && here(x, "target"));
        if (c) return void send(c);
      }
      if (mine.some((x) => here(x, "pusher"))) { u.from = k; shell.render(); return; }
    } else if (k0.effect === "move") {
      const mine = a.by("move").filter((c) => sameTile(c.tile, sel.tile));
      if (u.from && mine.some((x) => hexKey(x.from) === u.from && here(x, "to"))) {
        if (u.hex === k) return void confirm();
        if (!u.hex) u.rot = boardTiles(view).find((t) => hexKey(t.hex) === u.from)?.rot ?? 0;
        u.hex = k; shell.render(); return;
      }
      if (mine.some((x) => here(x, "from"))) { u.from = k; u.hex = null; shell.render(); return; }
    } else if (k0.effect === "air_strike") {
      const c = a.by("air_strike").find((x) => sameTile(x.tile, sel.tile) && here(x, "centre"));
      if (c) return void send(c);
    }
  }
  if (sel?.kind === "rotate" || (!sel && a.by("rotate").some((c) => here(c, "hex")))) {
    if (a.by("rotate").some((c) => here(c, "hex"))) {
      if (u.hex === k && sel) return void confirm();
      u.sel = { kind: "rotate" };
      u.hex = k;
      u.rot = boardTiles(view).find((t) => hexKey(t.hex) === k)?.rot ?? 0;
      shell.render();
      return;
    }
  }
  showInfoAt(view, k);
  shell.render();
}

/** Tap on a tile (or hover): its description in the info box. */
function showInfoAt(view, k) {
  const t = view ? boardTiles(view).find((x) => hexKey(x.hex) === k) : null;
  if (t) showInfo(t.tile, t.damage);
}
function showInfo(tile, damage = 0) {
  const box = $("nsh-info");
  if (!box) return;
  const lines = describeTile(tile, damage).split("\n");
  box.dataset.tile = tileKey(tile);
  box.replaceChildren(h("div", { class: "nsh-info-head" }, tileSvg(tile, { size: 72 }), h("b", { text: lines[0] })),
    h("ul", {}, ...lines.slice(1).map((l) => h("li", { text: l }))));
}

// ---------------------------------------------------------------- drawing

function render() {
  const c = conn();
  const view = c.view;
  if (!view || !c.staticData) return { status: "" };
  exposeRecord();
  const a = analyse(view);
  const u = ui();
  const seat = c.seat;
  // A half-made choice that the legal list no longer allows is dropped.
  if (u.sel?.kind === "tile" && !(view.state.players[seat ?? 0]?.hand ?? []).some((t) => sameTile(t, u.sel.tile))) clearChoice();
  if (a.stage !== "action" && a.stage !== "hq" && a.stage !== "discard") { if (u.sel || u.hex) clearChoice(); }
  if (!a.legal.length && (u.sel || u.hex)) clearChoice();

  const targets = new Map();
  let vertices = [];
  const sel = u.sel;
  const k0 = sel?.kind === "tile" ? kindOf(sel.tile) : null;
  if (a.stage === "hq") for (const cmd of a.by("place_hq")) targets.set(hexKey(cmd.hex), "place");
  else if (a.stage === "push_choice") for (const cmd of a.by("push_to")) targets.set(hexKey(cmd.hex), "push");
  else if (sel?.kind === "tile" && k0) {
    const mine = (t) => a.by(t).filter((x) => sameTile(x.tile, sel.tile));
    if (k0.class !== "instant") for (const cmd of mine("place")) targets.set(hexKey(cmd.hex), "place");
    else if (k0.effect === "push") {
      for (const cmd of mine("push")) {
        if (!u.from) targets.set(hexKey(cmd.pusher), "from");
        else if (hexKey(cmd.pusher) === u.from) targets.set(hexKey(cmd.target), "push");
      }
      if (u.from) targets.set(u.from, "from");
    } else if (k0.effect === "move") {
      for (const cmd of mine("move")) {
        if (!u.from) targets.set(hexKey(cmd.from), "from");
        else if (hexKey(cmd.from) === u.from) targets.set(hexKey(cmd.to), "place");
      }
    } else if (k0.effect === "air_strike") for (const cmd of mine("air_strike")) targets.set(hexKey(cmd.centre), "bomb");
    else if (k0.effect === "small_bomb") vertices = mine("small_bomb");
  } else if (sel?.kind === "rotate" && !u.hex) for (const cmd of a.by("rotate")) targets.set(hexKey(cmd.hex), "from");

  const pending = pendingOf(view, a);
  board.handlers = {
    hex: clickHex,
    vertex: (i) => { const cmd = vertices[i]; if (cmd) send(cmd); },
    hover: (t) => showInfo(t.tile, t.damage),
  };
  board.wheel = (d) => rotateBy(d);
  const frame = playback.frame;
  const model = frame ? { tiles: frame.tiles, netted: frame.netted, effects: new Map() } : boardModel(view);
  // A tile moved by Move is drawn only where it is going.
  if (!frame && pending && sel?.kind === "tile" && k0?.effect === "move") model.tiles = model.tiles.filter((t) => hexKey(t.hex) !== u.from);
  board.render(model, {
    targets: frame ? new Map() : targets, pending: frame ? null : pending, vertices: frame ? [] : vertices,
    selectedHex: u.from ?? null, overlay: frame, mine: seat, lastHex: frame ? null : lastMove.hex,
  });
  board.svg.dataset.stage = a.stage;
  board.svg.dataset.playing = frame ? String(frame.phase) : "";

  $("spectating").hidden = !c.spectator;
  const status = renderTurn(view, a);
  renderHand(view, a);
  renderActions(view, a, pending, k0);
  renderPlayers(view);
  const last = /** @type {HTMLButtonElement} */ ($("nsh-last-battle"));
  last.hidden = !playback.last.length || !!frame;
  $("nsh-skip").hidden = !frame;
  return { status };
}

/** Whose turn, and what the game waits for, in the shell's `#turn-info` and the prompt. */
function renderTurn(view, a) {
  const st = view.state;
  const seat = conn().seat;
  const toAct = view.to_act ?? [];
  const mine = seat !== null && toAct.includes(seat);
  let status, prompt = "";
  if (a.stage === "over" && st.result) {
    status = resultSentence(st.result, shell.seatName);
    const won = seat !== null && st.result.winner === seat;
    prompt = seat === null ? status : st.result.winner === null ? `Draw. ${status}` : won ? `You won! ${status}` : `You lost. ${status}`;
  } else {
    const who = toAct.map((s) => shell.seatName(s)).join(" and ") || "nobody";
    status = `Turn ${st.turn}${st.finale ? " · ending" : ""} · ${mine ? "your move" : `waiting for ${who}`}`;
    if (mine) {
      const u = ui();
      const k0 = u.sel?.kind === "tile" ? kindOf(u.sel.tile) : null;
      switch (a.stage) {
        case "hq": prompt = u.hex ? "Turn your HQ (wheel, ← →, or the buttons) and confirm." : "Place your HQ: click a highlighted hex."; break;
        case "discard": prompt = "You hold three tiles: discard one."; break;
        case "push_choice": prompt = "Your tile is pushed back: click the hex it goes to."; break;
        case "battle": prompt = (st.battle?.hits?.length ?? 0) ? "Your Medics can save a tile: choose which hit they cancel." : "Your Clown acts: fight, or blow it up?"; break;
        case "bomb": prompt = "The bomb hits: choose which hit your Medics cancel."; break;
        case "action":
          if (!u.sel) prompt = "Your turn: click a tile in your hand, then a hex (or end the turn).";
          else if (u.sel.kind === "rotate") prompt = u.hex ? "Turn the tile (wheel, ← →, or the buttons) and confirm." : "Click one of your tiles to turn it (the HQ's ability).";
          else if (k0?.class !== "instant") prompt = u.hex ? `Turn ${k0?.name} (wheel, ← →, or the buttons), then confirm — or click another hex.` : `Click a highlighted hex for ${k0?.name}.`;
          else if (k0.effect === "battle") prompt = "Start the battle? Your turn ends when it is over.";
          else if (k0.effect === "push") prompt = u.from ? "Click the enemy tile to push." : "Click your tile that pushes.";
          else if (k0.effect === "move") prompt = !u.from ? "Click your tile to move." : u.hex ? "Turn it and confirm." : "Click where it goes (its own hex to only turn it).";
          else if (k0.effect === "small_bomb") prompt = "Click a corner: the three hexes around it are bombed.";
          else if (k0.effect === "air_strike") prompt = "Click the hex at the centre of the strike.";
          break;
      }
    } else if (conn().spectator) prompt = `Watching. ${status}.`;
    else prompt = `Waiting for ${who}.`;
  }
  $("turn-info").textContent = status;
  const p = $("nsh-prompt");
  p.textContent = prompt;
  p.dataset.stage = a.stage;
  p.dataset.mine = String(mine);
  if (st.result) p.dataset.winner = String(st.result.winner ?? "draw");
  else delete p.dataset.winner;
  return status;
}

/** The player's hand: one button per tile (its icon and name). */
function renderHand(view, a) {
  const seat = conn().seat;
  const box = $("nsh-hand");
  if (seat === null) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const hand = view.state.players[seat]?.hand ?? [];
  const u = ui();
  const usable = (t) => a.legal.some((c) => c.tile && sameTile(c.tile, t) && c.type !== "discard");
  box.replaceChildren(h("span", { class: "muted small", text: hand.length ? "Your tiles:" : "Your hand is empty." }), ...hand.map((t) => {
    const k = kindOf(t);
    const selected = u.sel?.kind === "tile" && sameTile(u.sel.tile, t);
    const b = h("button", {
      type: "button", class: "nsh-hand-tile", "data-tile": tileKey(t), "data-kind": k?.id ?? "", "aria-pressed": String(selected),
      title: describeTile(t), disabled: !(usable(t) || a.legal.some((c) => c.type === "discard" && sameTile(c.tile, t))),
      onclick: () => {
        stopPlayback();
        showInfo(t);
        // Holding three, a tile is only pointed at: the prompt's buttons discard.
        if (selected) clearChoice();
        else { clearChoice(); u.sel = { kind: "tile", tile: t }; }
        shell.render();
      },
    }, tileSvg(t, { size: 56 }), h("span", { text: k?.name ?? "?" }));
    b.addEventListener("pointerenter", () => showInfo(t));
    return b;
  }));
}

/** The buttons: turn, confirm, cancel, discard, end turn, the HQ's turn; and the questions (discard, Clown, Medics). */
function renderActions(view, a, pending, k0) {
  const u = ui();
  const acts = [];
  const choices = [];
  if (pending) {
    acts.push(h("button", { type: "button", id: "nsh-rot-left", title: "Turn left (←, Q or the wheel)", "aria-label": "Turn left", text: "⟲", onclick: () => rotateBy(-1) }));
    acts.push(h("button", { type: "button", id: "nsh-rot-right", title: "Turn right (→, E or the wheel)", "aria-label": "Turn right", text: "⟳", onclick: () => rotateBy(1) }));
    acts.push(h("span", { class: "muted small", id: "nsh-facing", text: `top faces ${DIR_WORD[u.rot]}` }));
  }
  const confirmable = confirmCommand(view, a);
  if (pending || (k0?.effect === "battle")) {
    const label = k0?.effect === "battle" ? "Start the battle" : a.stage === "hq" ? "Place the HQ here" : u.sel?.kind === "rotate" ? "Turn it" : k0?.effect === "move" ? "Move it" : `Place ${k0?.name ?? "it"} on ${hexName(pending.hex)}`;
    acts.push(h("button", { type: "button", id: "nsh-confirm", class: "primary", text: `${label} ✓`, disabled: !confirmable, onclick: () => confirm() }));
  }
  if (u.sel || u.hex) acts.push(h("button", { type: "button", id: "nsh-cancel", text: "Cancel", onclick: () => { clearChoice(); shell.render(); } }));
  if (a.stage === "action") {
    const selDiscard = u.sel?.kind === "tile" ? a.by("discard").find((c) => sameTile(c.tile, u.sel.tile)) : null;
    if (selDiscard) acts.push(h("button", { type: "button", id: "nsh-discard", text: `Discard ${kindName(u.sel.tile)}`, onclick: () => send(selDiscard) }));
    if (!u.sel && a.by("rotate").length) acts.push(h("button", { type: "button", id: "nsh-rotate-mode", text: "HQ: turn one of your tiles", onclick: () => { stopPlayback(); clearChoice(); u.sel = { kind: "rotate" }; shell.render(); } }));
    const end = a.by("end_turn")[0];
    if (end) acts.push(h("button", { type: "button", id: "nsh-end-turn", text: "End the turn", onclick: () => send(end) }));
  }
  if (a.stage === "discard") {
    for (const c of a.by("discard")) {
      const pointed = u.sel?.kind === "tile" && sameTile(u.sel.tile, c.tile);
      choices.push(h("button", { type: "button", "data-discard": tileKey(c.tile), class: pointed ? "primary" : null, text: `Discard ${kindName(c.tile)}`, onclick: () => send(c) }));
    }
  }
  if (a.stage === "battle" || a.stage === "bomb") {
    const hits = (a.stage === "battle" ? view.state.battle?.hits : view.state.bomb?.hits) ?? [];
    for (const c of a.by("clown")) choices.push(h("button", { type: "button", "data-clown": String(c.explode), text: c.explode ? "Blow up the Clown" : "The Clown fights", onclick: () => send(c) }));
    a.by("medics").forEach((c, i) => choices.push(h("button", { type: "button", "data-medic-plan": i, text: medicPlanWords(c.steps, hits), onclick: () => send(c) })));
  }
  $("nsh-actions").replaceChildren(...acts);
  $("nsh-choices").replaceChildren(...choices);
  $("nsh-choices").hidden = !choices.length;
}

/** Both sides: army, HQ, tiles left to draw (and which), the hand (face up) and the discards. */
function renderPlayers(view) {
  const st = view.state;
  const rows = [0, 1].map((seat) => {
    const p = st.players[seat];
    const hp = view.hq_hp?.[seat] ?? 20;
    const counts = new Map();
    for (const t of p.draw) counts.set(kindName(t), (counts.get(kindName(t)) ?? 0) + 1);
    return h("tr", { "data-seat": seat, class: [seat === conn().seat ? "me" : "", (view.to_act ?? []).includes(seat) ? "to-act" : ""].filter(Boolean).join(" ") },
      h("td", {},
        h("div", { class: "nsh-side" }, h("span", { class: `nsh-chip nsh-chip-${seat}` }), h("b", { text: shell.seatName(seat) }), h("span", { class: "muted", text: ` ${sideName(seat)}${st.first === seat ? " · first" : ""}` })),
        h("div", { class: "nsh-hq", "data-hq": hp }, h("span", { text: `HQ ${hp}/20` }), h("meter", { min: 0, max: 20, value: hp, low: 6, high: 12, optimum: 20 })),
        h("div", { class: "small" },
          h("span", { class: "nsh-draw", "data-draw": p.draw.length, text: `${p.draw.length} to draw` }),
          h("span", { class: "muted", text: ` · ${p.hand.length} in hand · ${p.discard.length} discarded` })),
        p.draw.length ? h("details", { class: "small" }, h("summary", { text: "Still in the pile" }), h("p", { class: "muted", text: [...counts].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n)).join(", ") })) : null,
        p.hand.length && seat !== conn().seat ? h("div", { class: "nsh-their-hand", "aria-label": "Their hand (face up)" }, ...p.hand.map((t) => {
          const el = tileSvg(t, { size: 34 });
          el.setAttribute("data-tile", tileKey(t));
          el.addEventListener("click", () => showInfo(t));
          el.append(document.createElementNS("http://www.w3.org/2000/svg", "title"));
          /** @type {any} */ (el.lastChild).textContent = describeTile(t);
          return el;
        })) : null));
  });
  $("nsh-players").replaceChildren(...rows);
  const bits = [`Turn ${st.turn}`];
  if (st.finale) bits.push(`ending: ${shell.seatName(st.finale.x)} drew the last tile`);
  if (st.rotation_used) bits.push("HQ turn used");
  if (st.options?.infinity_combo === "unbounded") bits.push("redirect loops unbounded");
  $("nsh-turn").textContent = bits.join(" · ");
}

// ---------------------------------------------------------------- events

function onEvent(c, view, event, { seq = 0, quiet = false, shown = true, names = shell.seatName } = {}) {
  const line = describeEvent(event, names);
  if (line) shell.logLine(line, `nsh-${event.event}`, c.logEl);
  if (event.event === "phase") {
    for (const tr of event.traces ?? []) {
      if (tr.kind === "gauss" || tr.steps.some((s) => s.step === "redirect" || s.step === "loop_cut")) shell.logLine(`  ${traceWords(tr)}`, "nsh-trace", c.logEl);
    }
  }
  // The board marks: only for the shown connection, and not for a catch-up (a reload's history).
  if (!shown || quiet || !getData()) return;
  if (track.seq !== seq - 1) trackFrom(c.view, seq - 1);
  trackEvent(event);
  track.seq = seq;
  // The last tile placed, moved or turned stays marked until the next one.
  if (event.event === "placed" || event.event === "hq_placed") lastMove.hex = hexKey(event.hex);
  else if (event.event === "moved") lastMove.hex = hexKey(event.to);
  else if (event.event === "rotated") { const o = track.where.get(tileKey(event.tile)); lastMove.hex = o ? hexKey(o.hex) : null; }
  if (event.event === "battle_started") { playback.current = []; record.battles++; }
  if (event.event === "phase" || event.event === "bombed") {
    const f = makeFrame(event, event.event === "phase" ? event.phase : "bomb");
    trackDamage(event.hits, event.removed);
    if (event.event === "phase") playback.current.push(f);
    record.frames.push({ phase: f.phase, hits: f.hits.length, paths: f.paths.length, segments: f.paths.reduce((n, p) => n + p.segments.length, 0),
      redirects: f.paths.reduce((n, p) => n + p.redirects.length, 0), removed: f.removed.length, acting: f.acting.length });
    if (!reducedMotion.matches) queueFrame(f);
  }
  if (event.event === "battle_ended" && playback.current.length) playback.last = playback.current;
  if (event.event === "game_over") shell.toast(line ?? "The game is over.", "info");
}

// ---------------------------------------------------------------- lobby

function lobbySummary(l, watching) {
  const o = /** @type {any} */ (l.options);
  const bots = { normal: "search", hard: "longer search" }[o.bots] ?? "heuristic";
  return `Neuroshima Hex · first player: ${o.first_player === "random" ? "drawn" : "seat 1"} · redirect loops: ${o.infinity_combo === "unbounded" ? "unbounded" : "capped"} · bots: ${bots} · turn limit: ${
    o.turn_seconds ? `${o.turn_seconds} s` : "none"} · ${watching} watching`;
}
/** A seat's army (its lobby choice, a string), or the one it gets by default. */
const armyOf = (s) => (typeof s?.choice === "string" ? s.choice : null);
function seatSide(s) {
  const chosen = armyOf(s);
  const id = chosen ?? DEFAULT_ARMY[s.seat] ?? null;
  return [h("span", { class: `nsh-chip nsh-chip-${s.seat}` }), h("span", { "data-army": id ?? "", text: chosen ? armyName(chosen) : `${armyName(id)} (default)` })];
}
function renderSeatChoice(l, { who, hotseat }) {
  const mine = l.seats[conn().seat ?? -1];
  const chosen = armyOf(mine) ?? DEFAULT_ARMY[conn().seat ?? 0];
  $("nsh-army-title").textContent = hotseat ? `${who}'s army` : "Your army";
  $("nsh-armies").replaceChildren(...ARMIES.map((a) => h("button", {
    type: "button", "data-army": a.id, "aria-pressed": String(chosen === a.id), title: a.blurb, text: a.name,
    onclick: () => shell.send({ type: "choose", choice: a.id }),
  })));
  $("nsh-army-note").textContent = ARMIES.find((a) => a.id === chosen)?.blurb ?? "";
}

// ---------------------------------------------------------------- the rest of the interface

function logStart(view, logEl) {
  shell.logLine(`Neuroshima Hex: ${armyName(view.state.armies[0])} against ${armyName(view.state.armies[1])}.`, "sys", logEl);
}
function toAct(view) {
  const t = view?.to_act ?? [];
  if (!t.length) return null;
  const me = view.viewer?.seat;
  return t.includes(me) ? me : t[0];
}
/**
 * `static_data` comes with every snapshot (and a hotseat switch): the view
 * was replaced as a whole, so where the tiles stand is read again from it
 * at the next event.
 */
function setStaticData(d) {
  track.seq = -1;
  if (!d) return;
  setData(d);
  if (board.hexes !== d.board) board.setHexes(d.board);
}
function reset() {
  stopPlayback();
  playback.last = []; playback.current = [];
  track.seq = -1; track.where = new Map();
  lastMove.hex = null;
}
function clearBoard() {
  stopPlayback();
  board.handlers = { hex: () => {}, vertex: () => {}, hover: () => {} };
  board.svg.replaceChildren();
}
/** A replay step: its board, and the battle it fought played back phase by phase. */
function replayStep(st, before, setup) {
  stopPlayback();
  if (st.static_data) setStaticData(st.static_data);
  const view = st.view;
  board.handlers = { hex: () => { if (playback.replay) nextFrame(); }, vertex: () => {}, hover: (t) => showInfo(t.tile, t.damage) };
  board.wheel = () => false;
  trackFrom(before, 0);
  const frames = [];
  for (const { event } of st.events) {
    trackEvent(event);
    if (event.event === "phase" || event.event === "bombed") {
      frames.push(makeFrame(event, event.event === "phase" ? event.phase : "bomb"));
      trackDamage(event.hits, event.removed);
    }
  }
  track.seq = -1;
  if (frames.length && !reducedMotion.matches) {
    playback.replay = view;
    for (const f of frames) queueFrame(f);
  } else board.render(boardModel(view), {});
  // A replay knows the seats by their armies (its setup), not by their players' names.
  const names = (seat) => (seat === null || seat === undefined ? "nobody"
    : setup?.armies?.[seat] ? `${armyName(setup.armies[seat])} (seat ${seat + 1})` : `seat ${seat + 1}`);
  const lines = st.events.map(({ seq, event }) => ({ seq, type: event.event, text: describeEvent(event, names) })).filter((x) => x.text);
  return {
    round: `Turn ${view.state.turn}${view.state.result ? " · game over" : ""}`,
    command: st.command ? `${names(st.seat).replace(/^./, (ch) => ch.toUpperCase())} ${describeCommand(st.command)}.` : "The game is set up.",
    lines,
  };
}
function onKey(k) {
  if (k === "arrowleft" || k === "q" || k === "[") return rotateBy(-1);
  if (k === "arrowright" || k === "e" || k === "]") return rotateBy(1);
  if (k === "enter") return turning() ? confirm() : false;
  if (k === "escape") { clearChoice(); stopPlayback(); shell.render(); return true; }
  return false;
}
function renderRules() {
  $("rules-body").replaceChildren(
    h("p", { text: "Neuroshima Hex: two armies fight over a board of 19 hexes. Each turn you draw up to three tiles (one on the first turn, two on the second) and, holding three, discard one; then place tiles on empty hexes, turned as you like, play instant tiles, and end the turn." }),
    h("p", { text: "A battle starts when a Battle tile is played or the board is full. Tiles act in initiative order, highest first; everything in one phase happens at once. Melee hits the next hex; ranged shots fly to the first enemy in line; Gauss shots hit every enemy in line. Armour takes 1 off ranged and Gauss hits through that edge. Nets stop the enemy tiles they face from acting." }),
    h("p", { text: "The Doomsday Machine's redirectors turn your own shots that come in through an entry edge out through their exits (the Tripler makes three). The game ends when an HQ is destroyed, or after the last battle once a pile runs out: the higher HQ wins." }),
    legendList());
}
function legendList() {
  const items = [
    ["nsh-l-melee", "▲ orange wedge: melee attack (number: strength), hits the next hex"],
    ["nsh-l-ranged", "→ white arrow: ranged attack (number: strength), flies to the first enemy"],
    ["nsh-l-gauss", "⚡ cyan zigzag with G: Gauss shot, hits every enemy in line"],
    ["nsh-l-armour", "▬ grey plate: armour on that edge"],
    ["nsh-l-net", "# green mesh: net, the enemy tile it faces cannot act"],
    ["nsh-l-redirect", "▽/△ violet: redirect entry (pointing in) and exit (pointing out)"],
    ["nsh-l-link", "● teal dots: module link (two dots: reaches two hexes); the middle shows the bonus (+R ranged, +M melee, +I initiative, +1× extra attack, ✚ Medic)"],
    ["nsh-l-trap", "▰ yellow band: the Trap's side"],
    ["nsh-l-mid", "Middle: initiative (3, or 2·1 for two attacks), pips: hit points left"],
  ];
  return h("ul", { class: "nsh-legend" }, ...items.map(([cls, t]) => h("li", { class: cls, text: t })));
}

function init(services) {
  shell = services;
  board = new HexBoard(/** @type {any} */ ($("board")));
  for (const el of document.querySelectorAll(".game-secrets")) el.textContent = "choices";
  $("seat-side-head").textContent = "Army";
  $("nsh-legend-list").replaceWith(legendList());
  $("nsh-skip").onclick = () => { stopPlayback(); shell.render(); };
  $("nsh-last-battle").onclick = () => {
    stopPlayback();
    for (const f of playback.last) queueFrame(f);
  };
  exposeRecord();
}

function outcomeFor(summary, seat) {
  const w = summary?.result?.winner;
  return w === null || w === undefined ? "drew" : w === seat ? "won" : "lost";
}
function resultWords(summary) {
  const r = summary?.result;
  if (!r) return "unfinished";
  const armies = summary.armies ?? [];
  return r.winner === null || r.winner === undefined ? `draw, HQs ${r.hq_hp[0]}–${r.hq_hp[1]}` : `${armyName(armies[r.winner])} won, HQs ${r.hq_hp[0]}–${r.hq_hp[1]}`;
}

/** The game-module interface (docs/ARCHITECTURE.md). */
export default {
  id: "neuroshima",
  name: "Neuroshima Hex",
  slots: SLOTS,
  screens: [],
  init,
  get board() { return board; },
  newConnState: () => ({ sel: /** @type {any} */ (null), hex: /** @type {string|null} */ (null), from: /** @type {string|null} */ (null), rot: 0 }),
  reset,
  clearBoard,
  onHide(c) { c.game.sel = null; c.game.hex = null; c.game.from = null; },
  toAct,
  outcomeFor,
  resultWords,
  sideOf: (view, seat) => (view ? armyName(view.state.armies[seat]) : ""),
  seatFallbackName: () => null,
  /** Nothing is secret in Neuroshima Hex but the piles' order, which no client ever gets (NSH-HID-2). */
  secretsOf: () => ({}),
  logStart,
  announceStart: () => {},
  onEvent,
  beforeEvents: () => {},
  afterEvents: () => {},
  setStaticData,
  render,
  clearSide() { $("nsh-hand").replaceChildren(); $("nsh-actions").replaceChildren(); $("nsh-choices").replaceChildren(); $("nsh-prompt").textContent = ""; $("turn-info").textContent = ""; },
  lobbySummary,
  seatSide,
  seatTags: () => [],
  renderSeatChoice,
  replayStep,
  renderRules,
  onKey,
  /** Another screen: a replay step's battle stops playing on the board. */
  onShow(screen) { if (screen !== "replay" && playback.replay) stopPlayback(); },
  unmount() { reset(); },
};
