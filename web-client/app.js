// The Citadel browser client. Thin: it shows what the server sends and
// offers exactly the server's `legal` commands; it holds no rules.
// Plain ES modules, no build step; types come from protocol.ts (the
// WebSocket messages) and http.ts (the HTTP bodies), both generated (JSDoc).
// @ts-check
import { Board, key } from "./board.js";
import { tokenLegend } from "./board.js";
import { CloseCode, PROTOCOL_VERSION } from "./protocol.js";
import { applyPatch } from "./patch.js";
import {
  CORPS, CORP_COLOR, CREATURE_LETTER, DL_COLOR, content, creatureName, describeCommand, describeEvent, eventName, secondaryName, secondaryText, figLabel, figName,
  dtCardName, forceCard, goalText, itemName, missionDef, plural, prettyName, setPlaces, sq, words,
} from "./text.js";
import { withArticle } from "./text.js";
import { DIRECTIONS, DIRECTION_ARROW, DIRECTION_WORD } from "./text.js";
import { dtCardText, eventText, itemInfo } from "./text.js";
import { editionOf, setContent, useEdition } from "./text.js";
import { twoUseCard, twoUseName, twoUseTarget, twoUseUseName } from "./text.js";
import { cardEffectText, tileName } from "./text.js";

/** @typedef {import("./protocol").GameView} GameView */
/** @typedef {import("./protocol").Command} Command */
/** @typedef {import("./protocol").ServerMsg} ServerMsg */
/** @typedef {import("./protocol").LobbyView} LobbyView */
/** @typedef {import("./protocol").MapData} MapData */
/** @typedef {import("./http").ErrorBody} ErrorBody */
/** @typedef {import("./http").Me} Me */
/** @typedef {import("./http").MyGame} MyGame */
/** @typedef {import("./http").MyCampaign} MyCampaign */
/** @typedef {import("./http").LoggedIn} LoggedIn */
/** @typedef {import("./http").GameCreated} GameCreated */
/** @typedef {import("./http").Replay} Replay */
/** @typedef {import("./http").CampaignCreated} CampaignCreated */
/** @typedef {import("./http").CampaignJoined} CampaignJoined */
/** @typedef {import("./http").CampaignNextGame} CampaignNextGame */
/** @typedef {import("./http").CampaignCreditBought} CampaignCreditBought */
/** @typedef {import("./http").CampaignStandings} CampaignStandings */
/** @typedef {import("./http").ContentDoc} ContentDoc */

const PROTOCOL = PROTOCOL_VERSION;
const FATAL = {
  [CloseCode.PROTOCOL_MISMATCH]: "This page is out of date: reload it to play.",
  [CloseCode.HELLO_REQUIRED]: "The server did not accept our hello.",
  [CloseCode.UNKNOWN_GAME]: "No game with that code (or it has ended).",
  [CloseCode.BAD_TOKEN]: "That seat's token is no longer valid.",
  [CloseCode.GAME_FULL]: "That game is full or has already started.",
  [CloseCode.BAD_SESSION]: "Your login session has expired: please log in again.",
  [CloseCode.REPLACED]: "You connected to this game from another tab or device.",
  [CloseCode.OUTDATED]: "This game was made by an older version and cannot continue. Its replay is still available.",
};
const DECISIONS = new Set(["choose_entrance", "choose_option", "place", "place_start", "place_debris", "choose_tile",
  "choose_figure", "choose_corporation", "discard", "react", "pick_equipment", "pass_equipment", "keep_secondary",
  "call_reinforcements", "alter_sectors", "pass_card", "choose_square"]);
const FIGURE_ACTIONS = new Set(["move", "attack", "special", "use_item", "overrun"]);
// The weapon attacks (ce.md WPN-4..7) and the token missions' figure commands.
for (const t of ["swing", "spray", "volley", "attack_square", "attack_token", "hack", "pick_up", "hand_over"]) FIGURE_ACTIONS.add(t);
/** Decisions answered by clicking a square; `kind` groups them (a creature, or the command type). */
/** Decisions answered by a square: highlighted on the board, clicked there
 *  (a placement, a teleport's square, a 1993 card's square). */
const PLACEMENTS = new Set(["place", "place_start", "place_debris", "choose_square"]);
const placeKind = (c) => c.kind ?? (c.type === "place_start" ? `place_start:${c.figure}` : c.type);
/** Figure commands aimed at a square: the field holding it. They are
 *  offered as one button per kind, then "click a highlighted square". */
const SQUARE_FIELD = { use_item: "square", attack_square: "square", swing: "start", overrun: "square", attack_token: "token", hack: "token" };
/** A command's target square and its label without it, or null. */
function squareChoice(view, c) {
  if (c.type === "play_card" && c.play.as === "text" && c.play.square) {
    return { at: c.play.square, label: describeCommand(view, { ...c, play: { ...c.play, square: null } }) };
  }
  const field = SQUARE_FIELD[c.type];
  const at = field ? c[field] : null;
  return at ? { at, label: describeCommand(view, { ...c, [field]: null }) } : null;
}

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const h = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") e.textContent = v;
    else if (k === "onclick") e.onclick = v;
    else if (k === "hidden" || k === "disabled") e[k] = !!v;
    // Through the CSSOM: the Content-Security-Policy allows no inline
    // style attributes.
    else if (k === "style") e.style.cssText = String(v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
};

/**
 * One connection to a game: a player's seat, or a spectator. The page
 * shows exactly one, `state`; with hotseat (several seats of one game in
 * this browser) the others wait in `hot` with their own socket, view and
 * log, each redacted by the server for its own seat (see "hotseat" below).
 * @param {HTMLElement} [logEl] the connection's log (only the shown one is in the page)
 */
function newConn(logEl) {
  return {
    /** @type {WebSocket|null} */ ws: null,
    code: null, token: null, /** @type {number|null} */ seat: null, name: "", spectator: false,
    lastSeq: 0, /** @type {GameView|null} */ view: null, /** @type {MapData|null} */ map: null,
    /** @type {Command[]} */ legal: [], /** @type {LobbyView|null} */ lobby: null,
    /** @type {number|null} */ selected: null, /** @type {{label:string, cmds:Map<string, Command>}|null} */ mode: null,
    placeKind: null, ended: null, scoreboardClosed: false, attempt: 0, timer: 0, closing: false, ref: 0, ready: false,
    // A `resync` was sent: `events` are ignored until the snapshot, as their
    // view patches are made against a view this connection does not hold.
    resyncing: false,
    /** @type {string|null} */ campaign: null,
    /** The log's roll context (describeEvent). */ rollCtx: { roll: null },
    /** This connection's log, attached as `#log` while it is shown. */ logEl: logEl ?? h("ol", { id: "log" }),
    /** A hotseat player added on this device (not the page's first seat). */ local: false,
    /** The hand box's two-use card use whose targets are listed ("card:use"), or null. */
    /** @type {string|null} */ cardChoice: null,
    /** The first sector picked for a card played on two sectors. @type {number|null} */ cardFrom: null,
  };
}
let state = newConn(/** @type {HTMLElement} */ (document.getElementById("log")));
/**
 * Hotseat: the seats of the current game this page holds (`conns`, the
 * page's first seat first; empty for an ordinary one-seat page), the
 * spectator connection shown while none of them may look (`neutral`), the
 * seat whose player said "it is me" on the hand-over screen (`revealed`),
 * and the seat that screen waits for (`handover`).
 */
const hot = {
  /** @type {ReturnType<typeof newConn>[]} */ conns: [],
  /** @type {ReturnType<typeof newConn>|null} */ neutral: null,
  /** @type {ReturnType<typeof newConn>|null} */ revealed: null,
  /** @type {ReturnType<typeof newConn>|null} */ handover: null,
};

// Debugging and tests: window.citadel mirrors the live state.
Object.defineProperty(window, "citadel", {
  value: {
    get view() { return state.view; }, get legal() { return state.legal; }, get lastSeq() { return state.lastSeq; },
    get seat() { return state.seat; }, get ws() { return state.ws; }, get lobby() { return state.lobby; },
    get map() { return state.map; },
    /** Hotseat: each seat this page holds (with what only it may see), which is shown, and whom the hand-over screen waits for. */
    get hotseat() {
      const mine = (c) => c.view?.teams.find((t) => t.seat === c.seat) ?? null;
      return {
        seats: hot.conns.map((c) => ({ seat: c.seat, name: c.name, shown: c === state, lastSeq: c.lastSeq,
          hand: mine(c)?.hand ?? null, cards: mine(c)?.cards ?? null,
          secondary: mine(c)?.secondary ?? null, secondary_offer: mine(c)?.secondary_offer ?? null })),
        neutral: !!hot.neutral && state === hot.neutral, handover: hot.handover?.seat ?? null,
      };
    },
    /** Every message the page tried to send, newest last (tests read it). */
    sent: [],
    /** How many "your turn" chimes were played. */
    chimes: 0,
    /** Each batch of moves and whether it glided (tests read it). */
    glides: [],
    /** Feed a server message as if it came from the socket (tests show edited states with it). */
    receive(msg) { handle(msg); },
  },
});

const board = new Board(/** @type {any} */ ($("board")));

// ---------------------------------------------------------------- storage

function myGames() {
  try { return JSON.parse(localStorage.getItem("citadel:games") ?? "[]"); } catch { return []; }
}
function saveGame(code, token, seat, name, campaign = null) {
  const old = myGames().find((g) => g.code === code);
  const games = myGames().filter((g) => g.code !== code);
  games.unshift({ code, token, seat, name, at: Date.now(), campaign: campaign ?? old?.campaign ?? null, finished: old?.finished ?? false,
    ...(old?.locals?.length ? { locals: old.locals } : {}) });
  localStorage.setItem("citadel:games", JSON.stringify(games.slice(0, 20)));
}
/** Hotseat: the other seats this browser holds in game `code`, [{token, seat, name}], kept with its first seat. */
function saveLocal(code, token, seat, name) {
  const games = myGames();
  const g = games.find((x) => x.code === code);
  if (!g) return;
  g.locals = [...(g.locals ?? []).filter((l) => l.seat !== seat && l.token !== token), { token, seat, name }];
  localStorage.setItem("citadel:games", JSON.stringify(games));
}
function forgetLocal(code, token) {
  const games = myGames();
  const g = games.find((x) => x.code === code);
  if (!g?.locals) return;
  g.locals = g.locals.filter((l) => l.token !== token);
  localStorage.setItem("citadel:games", JSON.stringify(games));
}
function forgetGame(code) {
  localStorage.setItem("citadel:games", JSON.stringify(myGames().filter((g) => g.code !== code)));
}
function markFinished(code, outcome = null) {
  const games = myGames();
  const g = games.find((x) => x.code === code);
  if (!g || (g.finished && (g.outcome || !outcome))) return;
  g.finished = true;
  if (outcome) g.outcome = outcome;
  localStorage.setItem("citadel:games", JSON.stringify(games));
}
/** The logged-in account's session: {token, name}, or null. */
function session() {
  try { return JSON.parse(localStorage.getItem("citadel:session") ?? "null"); } catch { return null; }
}
function setSession(s) {
  if (s) localStorage.setItem("citadel:session", JSON.stringify(s));
  else localStorage.removeItem("citadel:session");
}
/** Campaigns this browser joined: [{code, token, player, name}]. */
function myCampaigns() {
  try { return JSON.parse(localStorage.getItem("citadel:campaigns") ?? "[]"); } catch { return []; }
}
function saveCampaign(entry) {
  const list = myCampaigns().filter((c) => c.code !== entry.code);
  list.unshift({ ...entry, at: Date.now() });
  localStorage.setItem("citadel:campaigns", JSON.stringify(list.slice(0, 50)));
}
function forgetCampaign(code) {
  localStorage.setItem("citadel:campaigns", JSON.stringify(myCampaigns().filter((c) => c.code !== code)));
}

/**
 * JSON over HTTP; throws an Error with the server's message on failure.
 * The answer is `any`: each caller casts it to the body its endpoint
 * returns (http.ts).
 */
async function api(method, path, body, bearer) {
  const headers = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const err = new Error(/** @type {ErrorBody|null} */ (data)?.message ?? `error ${res.status}`);
    /** @type {any} */ (err).status = res.status;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------- connection

function setStatus(s, text) {
  const el = $("status");
  el.dataset.state = s;
  el.textContent = text ?? s;
}

function toast(text, kind = "error") {
  const t = $("toast");
  t.textContent = text;
  t.dataset.kind = kind;
  t.hidden = false;
  clearTimeout(Number(t.dataset.timer));
  t.dataset.timer = String(setTimeout(() => { t.hidden = true; }, 5000));
}

function send(msg) {
  const sent = /** @type {any} */ (window).citadel.sent;
  sent.push(msg);
  if (sent.length > 50) sent.shift();
  if (state.ws && state.ws.readyState === WebSocket.OPEN) { state.ws.send(JSON.stringify(msg)); return true; }
  toast("Not connected — the message was not sent.");
  return false;
}

function sendCommand(command) {
  state.mode = null;
  state.cardChoice = null;
  state.cardFrom = null;
  send({ type: "command", client_ref: ++state.ref, command });
  renderGame();
}

/**
 * Open (or reopen) `conn`'s socket to game `code`; `conn` is the shown
 * connection unless a hotseat seat (or the neutral view) is meant.
 * @param {string} code @param {any} join
 */
function connect(code, join, conn = state) {
  clearTimeout(conn.timer);
  conn.code = code.toUpperCase();
  conn.closing = false;
  if (conn.ws) { conn.closing = true; conn.ws.close(); conn.closing = false; }
  if (conn === state) setStatus(conn.attempt ? "reconnecting" : "connecting", conn.attempt ? `reconnecting (try ${conn.attempt})…` : "connecting…");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  conn.ws = ws;
  ws.onopen = () => {
    conn.resyncing = false; // a new socket catches up with a whole view
    // Without a view yet (a fresh page, a reopened tab) ask for every event
    // from the start: the server's history rebuilds the log; a `resync`
    // then brings the map (see the `events` case).
    const hello = { type: "hello", protocol: PROTOCOL, game: conn.code, join, last_seq: conn.view ? conn.lastSeq : 0 };
    const account = session();
    // A hotseat player added on this device is a guest: the account is
    // the person who opened the game, not whoever sits next to them.
    if (account && join.as === "player" && !conn.local) hello.account = account.token;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (conn === state) handle(msg);
    else handleAside(conn, msg);
  };
  ws.onclose = (e) => {
    if (conn.ws !== ws || conn.closing) return;
    conn.ws = null;
    if (FATAL[e.code]) {
      if (conn !== state) return dropAside(conn, e.code);
      setStatus("offline", "not connected");
      if (e.code === CloseCode.UNKNOWN_GAME || e.code === CloseCode.BAD_TOKEN) forgetGame(conn.code);
      if (e.code === CloseCode.BAD_SESSION) setSession(null);
      toast(FATAL[e.code]); // the close reason says the same for the server's logs
      if (!conn.view && !conn.lobby || e.code !== CloseCode.REPLACED) goHome();
      return;
    }
    conn.attempt++;
    const delay = Math.min(10000, 500 * 2 ** Math.min(conn.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
    if (conn === state) setStatus("reconnecting", `connection lost — retrying in ${Math.round(delay / 1000)}s`);
    conn.timer = setTimeout(() => connect(conn.code, resumeJoin(conn), conn), delay);
  };
}

function resumeJoin(conn = state) {
  if (conn.token) return { as: "resume", token: conn.token };
  return { as: "spectator", name: conn.name || "Spectator" };
}

setInterval(() => {
  for (const c of new Set([state, ...hot.conns, hot.neutral])) {
    if (c?.ws?.readyState === WebSocket.OPEN) c.ws.send(JSON.stringify({ type: "ping" }));
  }
}, 25000);

// ---------------------------------------------------------------- messages

/** Ask for a snapshot, and ignore `events` until it comes. */
function resync() {
  state.resyncing = true;
  send({ type: "resync" });
}

/** @param {ServerMsg} msg */
function handle(msg) {
  switch (msg.type) {
    case "welcome":
      state.attempt = 0;
      state.seat = msg.seat;
      state.spectator = msg.seat === null;
      if (msg.token) state.token = msg.token;
      if (msg.seat !== null && state.token && !state.local) saveGame(state.code, state.token, msg.seat, state.name, state.campaign);
      if (msg.seat !== null && !state.local && !hot.conns.length) restoreLocals();
      setStatus("connected", state.spectator ? "connected (spectating)" : "connected");
      if (state.code && location.hash !== `#${state.code}`) history.replaceState(null, "", `#${state.code}`);
      $("where").textContent = state.code ? `Game ${state.code}` : "";
      $("chat").hidden = false;
      break;
    case "lobby":
      state.lobby = msg.lobby;
      if (!msg.lobby.started) show("lobby");
      renderLobby();
      if (state.view) renderGame();
      break;
    case "snapshot":
      if (!$("log").children.length) {
        const m = missionDef(msg.view.mission);
        if (m) logLine(`Mission: ${m.name}. ${briefingText(m)}`, "sys");
      }
      if (!state.view && msg.view.round <= 1 && state.lobby?.options.dark_legion.mode === "drawn") announceDraw(msg.view);
      state.view = msg.view; state.map = msg.map; state.legal = msg.legal; state.lastSeq = msg.seq;
      state.resyncing = false;
      hotseatCheck(); // may show another connection (the neutral view) instead
      board.setMap(msg.map);
      setPlaces(msg.map);
      show("game");
      renderGame();
      break;
    case "events": {
      if (state.resyncing) return;
      const evs = msg.events.filter((e) => e.seq > state.lastSeq);
      if (evs.length && evs[0].seq !== state.lastSeq + 1) { resync(); return; }
      // The whole view on a catch-up, else a patch against the view held
      // (docs/PROTOCOL.md, "Views as patches").
      let view;
      try { view = msg.view ?? applyPatch(state.view, msg.view_patch ?? []); } catch { resync(); return; }
      const quiet = !state.map; // the history after a reload: the log only, no toasts
      glides.clear();
      for (const { seq, event } of evs) {
        state.lastSeq = seq;
        onEvent(view, event, quiet, seq);
      }
      state.view = view; state.legal = msg.legal;
      if (!state.map) { resync(); break; }
      if (msg.map) { state.map = msg.map; board.setMap(msg.map); setPlaces(msg.map); } // 1993 event 11 changed the board
      hotseatCheck(); // may show another connection (the neutral view) instead
      if (!$("game").hidden || state.map) show("game");
      renderGame();
      if (!quiet) glide();
      break;
    }
    case "ack": break;
    case "rejected": toast(msg.message); break;
    case "error": toast(msg.message); break;
    case "chat": {
      // The server says who sent it (role and seat): a spectator may pick
      // a player's name, never their seat.
      const spectator = msg.role === "spectator";
      const li = h("li", { class: spectator ? "chat-spectator" : "chat-player" },
        h("b", { text: msg.from }),
        h("small", { class: "chat-role", text: spectator ? " (spectator)" : ` (seat ${msg.seat + 1})` }),
        document.createTextNode(`: ${msg.text}`));
      $("chat-lines").append(li);
      li.scrollIntoView({ block: "nearest" });
      break;
    }
    case "pong": break;
    case "timed_out":
      if (msg.seq === state.lastSeq) logLine(`Time ran out for ${seatName(msg.seat)}: the game chose for ${msg.seat === state.seat ? "you" : "them"}.`, "timed_out");
      break;
  }
  hotseatCheck();
  trackWait();
}

// The turn limit: the server's clock starts when the game starts waiting
// for another seat; the page counts down from the moment it saw that.
const wait = { seat: /** @type {number|null} */ (null), since: 0 };
function trackWait() {
  const seat = state.view && state.view.phase.phase !== "finished" ? state.view.to_act : null;
  if (seat !== wait.seat) { wait.seat = seat; wait.since = Date.now(); }
  renderClock();
}
function renderClock() {
  const el = $("clock");
  const limit = state.lobby?.options.turn_seconds;
  if (!limit || wait.seat === null || $("game").hidden) { el.hidden = true; return; }
  const left = Math.max(0, Math.ceil(limit - (Date.now() - wait.since) / 1000));
  el.hidden = false;
  el.textContent = `Time: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left${wait.seat === state.seat ? " for you" : ` for ${seatName(wait.seat)}`}`;
  el.classList.toggle("urgent", left <= 10);
}
setInterval(renderClock, 1000);

/** "Drawn at random": say who the draw made the Dark Legion, loudly if it is you. */
function announceDraw(view) {
  const dl = view.dark_legion.seat;
  if (dl === null) return;
  const text = dl === state.seat ? "The draw made you the Dark Legion: you play the creatures against the corporations."
    : `The draw made ${seatName(dl)} the Dark Legion.`;
  logLine(text, "sys");
  toast(text, "info");
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "the AI";
  if (state.view && state.view.dark_legion.seat === null && seat === state.view.dark_legion.ai_seat) return "the Dark Legion AI";
  const s = state.lobby?.seats[seat];
  const n = s?.name ?? (s?.controller === "bot" ? "the computer" : null);
  if (n) return `${n}${seat === state.seat ? " (you)" : ""}`;
  const corp = state.view?.teams.find((t) => t.seat === seat)?.corporation;
  return corp ? `the ${words(corp)} player` : "another player";
}

/** `event`'s line in a log (`logEl`: the shown `#log`, or a hotseat seat's own). */
function logEvent(logEl, view, event, ctx, names = seatName) {
  const line = describeEvent(view, event, names, ctx);
  const last = /** @type {HTMLElement|null} */ (logEl.lastElementChild);
  if (event.type === "stepped" && last?.classList.contains("stepped") && last.dataset.figure === String(event.figure)) {
    // One line per move, not per square: "moves 3 squares to the Cross Corridor, C4".
    const n = Number(last.dataset.steps ?? 1) + 1;
    last.dataset.steps = String(n);
    last.textContent = `${figName(view, event.figure)} moves ${plural(n, "square")} to ${sq(event.to, view)}.`;
  } else if (line) {
    logLine(line, event.type, logEl);
    if (event.type === "stepped") /** @type {HTMLElement} */ (logEl.lastElementChild).dataset.figure = String(event.figure);
  }
  return line;
}

const trail = { figure: /** @type {number|null} */ (null), squares: /** @type {{x:number,y:number}[]} */ ([]) };
/**
 * The highest event `seq` marked on the board (the last action, the trail,
 * glides). With hotseat every connection of the page gets each event, in
 * its own copy; the board marks it once, from whichever comes first.
 */
let markedSeq = 0;
function onEvent(view, event, quiet = false, seq = 0) {
  const line = logEvent($("log"), view, event, state.rollCtx);
  if (event.type === "mission_ended") state.ended = event;
  markEvent(event, seq, true);
  if (quiet) return;
  if (event.type === "attack_rolled") {
    const box = $("dice");
    box.replaceChildren(h("span", { text: `${figName(view, event.attacker)} → ${figName(view, event.target)}: ` }),
      ...event.dice.map(dieEl), h("b", { text: ` ${event.hits} hit${event.hits === 1 ? "" : "s"}` }));
  } else if (event.type === "defense_rolled") {
    $("dice").append(h("span", { text: ` · ${figName(view, event.figure)} defends: ` }), dieEl(event.die));
  } else if (event.type === "force_card_revealed") {
    toast(line ?? "A force card is revealed", "info");
  } else if (event.type === "mission_ended") {
    state.ended = event;
  }
}

/** The board's marks of `event` (seq `seq`; 0: always): the last action, the trail, and (`glides`) the moves to glide. */
function markEvent(event, seq, withGlide) {
  if (seq && seq <= markedSeq) return;
  if (seq) markedSeq = seq;
  noteLastAction(event);
  if (withGlide && event.type === "stepped" && event.to) {
    const path = glides.get(event.figure) ?? (event.from ? [event.from] : []);
    path.push(event.to);
    glides.set(event.figure, path);
  } else if (withGlide && (event.type === "relocated" || event.type === "moved_back" || event.type === "eliminated" || event.type === "exited")) {
    glides.delete(event.figure); // not a walk: no glide
  }
  // The last move's path stays marked on the board until the next one.
  if (event.type === "stepped") {
    // A figure entering from its entrance has no `from` square.
    if (trail.figure !== event.figure || !event.from) { trail.figure = event.figure; trail.squares = event.from ? [event.from] : []; }
    if (event.to) trail.squares.push(event.to);
  } else if (event.type === "activated" && event.figure !== trail.figure) { trail.figure = null; trail.squares = []; }
}

/**
 * The last action, highlighted on the board until the next one: who acted
 * (a dotted halo), whom it struck (a burst), the squares an area attack
 * covered. Public events only, like the log.
 */
const last = { actor: /** @type {number|null} */ (null), targets: new Set(), squares: /** @type {{x:number,y:number}[]} */ ([]) };
function noteLastAction(e) {
  const set = (actor, targets = [], squares = []) => { last.actor = actor; last.targets = new Set(targets); last.squares = squares; };
  switch (e.type) {
    case "activated": set(e.figure); break;
    case "stepped": if (last.actor !== e.figure || last.targets.size || last.squares.length) set(e.figure); break;
    case "attack_rolled": set(e.attacker, [e.target]); break;
    case "area_attack_rolled": set(e.attacker, [], e.squares); break;
    case "struck": last.targets.add(e.figure); break;
    case "token_attack_rolled": set(e.attacker, [], [e.token]); break;
    case "item_used": case "special_done": set(e.figure); break;
    case "placed": case "reinforcement": set(e.figure); break;
    case "round_started": set(null); break;
  }
}

// Moves glide square to square (board.animate) unless the player asked
// for less motion, or events come in a burst (a reconnect's catch-up, the
// AI's quick turns): then the board just shows where everyone is.
const glides = /** @type {Map<number, {x:number,y:number}[]>} */ (new Map());
const GLIDE = { lastAt: 0, maxSquares: 12, minGap: 250 };
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
function glide() {
  const now = performance.now();
  const squares = [...glides.values()].reduce((n, p) => n + p.length - 1, 0);
  const burst = glides.size > 2 || squares > GLIDE.maxSquares || now - GLIDE.lastAt < GLIDE.minGap;
  if (glides.size) GLIDE.lastAt = now;
  const n = reducedMotion.matches || burst || $("game").hidden ? 0 : board.animate(glides);
  /** @type {any} */ (window).citadel.glides.push({ figures: [...glides.keys()], animated: n, burst, reduced: reducedMotion.matches });
  glides.clear();
}

function dieEl(d) {
  return h("span", { class: `die ${d.color}${d.reroll ? " reroll" : ""}`, title: `${d.color} die: face ${d.face}, ${d.hits} hit(s)`, text: `${d.face}` },
    h("sub", { text: d.hits ? "✶".repeat(d.hits) : "" }));
}

function logLine(text, kind, log = $("log")) {
  const li = h("li", { class: kind, text });
  log.append(li);
  while (log.children.length > 5000) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- hotseat

// Several seats of one game in one browser, passed from hand to hand.
// Each seat is an ordinary player connection (its own socket, token and
// resume), so the server redacts every view and event for that seat alone;
// the page holds one more connection, a spectator's, for the neutral view.
// Only one connection is shown (`state`): the seat the game waits for,
// once its player pressed the hand-over screen's button, else the neutral
// view. The hidden seats' views, legal lists and logs stay in memory, never
// in the page: nobody at the table sees another seat's Doomtrooper cards,
// secondary mission or private log lines. Editions do not matter here:
// hotseat only follows `to_act` and shows what each seat's view holds.

/** Close a connection for good. */
function closeConn(c) {
  clearTimeout(c.timer);
  if (c.ws) { c.closing = true; c.ws.close(); c.ws = null; }
}

/** Hotseat is on: this page holds two or more seats of its game. */
const hotseatOn = () => hot.conns.length >= 2;

/** The page's first seat joins the hotseat list, and the neutral view opens. */
function hotseatBegin() {
  if (!hot.conns.length) hot.conns.push(state);
  if (!hot.neutral) {
    const n = newConn();
    n.name = "Hotseat";
    hot.neutral = n;
    connect(/** @type {string} */ (state.code), { as: "spectator", name: n.name }, n);
  }
}

/** "Add a player on this device": take the next open seat for `name`. */
function addLocal(name) {
  if (!state.code) return;
  hotseatBegin();
  const c = newConn();
  c.local = true; c.name = name; c.campaign = state.campaign;
  hot.conns.push(c);
  connect(state.code, { as: "player", name }, c);
}

/** After the first seat's `welcome`: reopen the other seats saved for this game. */
function restoreLocals() {
  const locals = myGames().find((g) => g.code === state.code)?.locals ?? [];
  if (!locals.length || !state.code) return;
  hotseatBegin();
  for (const l of locals) {
    const c = newConn();
    Object.assign(c, { local: true, name: l.name ?? "", token: l.token, seat: l.seat, campaign: state.campaign });
    hot.conns.push(c);
    connect(state.code, { as: "resume", token: l.token }, c);
  }
}

/** A hidden connection closed for good (its seat taken over elsewhere, its token unknown, …). */
function dropAside(conn, code) {
  if (conn.local && conn.token && (code === CloseCode.BAD_TOKEN || code === CloseCode.UNKNOWN_GAME)) forgetLocal(conn.code, conn.token);
  if (conn === hot.neutral) return; // the game is gone for the shown seat too; it says so
  hot.conns = hot.conns.filter((c) => c !== conn);
  if (conn.seat !== null) toast(`${conn.name || `Seat ${conn.seat + 1}`} on this device was disconnected: ${FATAL[code]}`);
  hotseatCheck();
  if (state.lobby) renderLobby();
}

/**
 * A message for a connection that is not shown: keep its view, legal list
 * and log up to date (the log in its own detached list), show nothing.
 * @param {ReturnType<typeof newConn>} conn @param {ServerMsg} msg
 */
function handleAside(conn, msg) {
  const sendAside = (m) => conn.ws?.readyState === WebSocket.OPEN && conn.ws.send(JSON.stringify(m));
  switch (msg.type) {
    case "welcome":
      conn.attempt = 0;
      conn.seat = msg.seat;
      conn.spectator = msg.seat === null;
      if (msg.token) conn.token = msg.token;
      if (conn.local && msg.seat !== null && conn.token && conn.code) saveLocal(conn.code, conn.token, msg.seat, conn.name);
      break;
    case "lobby":
      conn.lobby = msg.lobby;
      // The lobby is public: the shown seat renders it.
      if (state.lobby && !msg.lobby.started) renderLobby();
      break;
    case "snapshot": {
      if (!conn.logEl.children.length) {
        const m = missionDef(msg.view.mission);
        if (m) logLine(`Mission: ${m.name}. ${briefingText(m)}`, "sys", conn.logEl);
      }
      conn.view = msg.view; conn.map = msg.map; conn.legal = msg.legal; conn.lastSeq = msg.seq;
      conn.resyncing = false;
      break;
    }
    case "events": {
      if (conn.resyncing) return;
      const resyncAside = () => { conn.resyncing = true; sendAside({ type: "resync" }); };
      const evs = msg.events.filter((e) => e.seq > conn.lastSeq);
      if (evs.length && evs[0].seq !== conn.lastSeq + 1) { resyncAside(); return; }
      // As in handle(): a whole view on a catch-up, else a patch against this connection's view.
      let view;
      try { view = msg.view ?? applyPatch(conn.view, msg.view_patch ?? []); } catch { resyncAside(); return; }
      for (const { seq, event } of evs) {
        conn.lastSeq = seq;
        logEvent(conn.logEl, view, event, conn.rollCtx, (seat) => asideSeatName(conn, seat));
        if (event.type === "mission_ended") conn.ended = event;
        if (conn.map) markEvent(event, seq, false);
      }
      conn.view = view; conn.legal = msg.legal;
      if (msg.map && conn.map) conn.map = msg.map;
      if (!conn.map) resyncAside();
      break;
    }
    case "rejected": case "error": toast(msg.message); break;
  }
  hotseatCheck();
}

/** seatName as `conn` would say it ("(you)" for its own seat). */
function asideSeatName(conn, seat) {
  const shown = state;
  state = conn;
  try { return seatName(seat); } finally { state = shown; }
}

/** The newest view any connection of the page has (event numbers are shared by all viewers). */
function newestConn() {
  let best = null;
  for (const c of [...hot.conns, hot.neutral]) if (c?.view && (!best || c.lastSeq > best.lastSeq)) best = c;
  return best;
}

/**
 * Show the right connection: the seat the game waits for if its player
 * has taken the device, else the neutral view, with the hand-over screen
 * when the game waits for another seat of this device.
 */
function hotseatCheck() {
  if (!hotseatOn()) { if (hot.handover) setHandover(null); return; }
  const newest = newestConn();
  if (!newest) return; // the lobby: nothing secret, any seat may be shown
  const view = /** @type {GameView} */ (newest.view);
  const acting = view.phase.phase === "finished" ? null : view.to_act;
  const seat = acting === null ? null : hot.conns.find((c) => c.seat === acting) ?? null;
  if (seat && hot.revealed === seat) {
    setHandover(null);
    switchTo(seat);
    return;
  }
  hot.revealed = null;
  if (hot.neutral) switchTo(hot.neutral);
  setHandover(seat);
}

/** The hand-over screen, for `conn`'s player (null: none). */
function setHandover(conn) {
  if (hot.handover === conn) return;
  hot.handover = conn;
  const box = $("handover");
  box.hidden = !conn;
  document.body.classList.toggle("handing-over", !!conn);
  if (!conn) return;
  $("handover-name").textContent = conn.name || `seat ${(conn.seat ?? 0) + 1}`;
  const corp = conn.view?.teams.find((t) => t.seat === conn.seat)?.corporation;
  const dl = conn.view && conn.view.dark_legion.seat === conn.seat;
  $("handover-side").textContent = dl ? "the Dark Legion" : corp ? words(corp) : "";
  $("handover-go").textContent = `I am ${conn.name || "that player"}: show my side`;
  /** @type {HTMLButtonElement} */ ($("handover-go")).focus();
}

$("handover-go").onclick = () => {
  const c = hot.handover;
  if (!c) return;
  hot.revealed = c;
  hotseatCheck();
};

/**
 * Show `conn` instead of the current connection: its log replaces the
 * page's, and the game (or lobby) is drawn again from its state alone.
 * @param {ReturnType<typeof newConn>} conn
 */
function switchTo(conn) {
  if (state === conn) return;
  state.mode = null;
  $("log").replaceWith(conn.logEl);
  state = conn;
  $("dice").replaceChildren();
  glides.clear();
  const open = conn.ws?.readyState === WebSocket.OPEN;
  setStatus(open ? "connected" : "reconnecting", open ? (conn.spectator ? "connected (hotseat: nobody's side shown)" : `connected as ${conn.name}`) : "reconnecting…");
  if (conn.view && conn.map) {
    // The board may never have been drawn: the first snapshot of the page
    // can reach a connection that is not shown (or the map changed there).
    board.setMap(conn.map);
    setPlaces(conn.map);
    show("game");
    renderGame();
  } else {
    // Nothing to draw yet: at least take the previous seat's side away.
    $("hand").replaceChildren(); $("hand-box").hidden = true; $("sides").replaceChildren();
    $("card-effects").replaceChildren(); $("effects-box").hidden = true;
    $("decision").replaceChildren(); $("decision").hidden = true; $("actions").replaceChildren(); $("turn-info").textContent = "";
  }
  if (conn.lobby && !conn.lobby.started) { show("lobby"); renderLobby(); }
  trackWait();
}

// ---------------------------------------------------------------- screens

const SCREENS = ["home", "lobby", "game", "campaign", "replay"];
function show(screen) {
  for (const id of SCREENS) $(id).hidden = id !== screen;
  document.body.dataset.screen = screen;
  // One board element: the game's, or the replay's.
  const wrap = screen === "replay" ? $("replay-board-wrap") : $("board-wrap");
  if (board.svg.parentElement !== wrap) wrap.append(board.svg);
  if (screen !== "campaign") stopCampaignPolling();
  if (screen !== "replay") stopReplay();
  (screen === "game" ? $("panel") : document.querySelector("main"))?.append($("chat"));
  if (screen !== "game" && screen !== "lobby") { $("scoreboard").hidden = true; $("chat").hidden = true; }
}

/** Leave the game in progress (if any): close the socket, forget its state. */
function leaveGame() {
  // Hotseat: close every seat and the neutral view; the page's first seat
  // (whose log is the page's own) becomes the shown one again.
  const first = hot.conns[0] ?? state;
  for (const c of new Set([...hot.conns, hot.neutral])) if (c && c !== first) closeConn(c);
  Object.assign(hot, { conns: [], neutral: null, revealed: null });
  setHandover(null);
  if (state !== first) { $("log").replaceWith(first.logEl); state = first; }
  clearTimeout(state.timer);
  if (state.ws) { state.closing = true; state.ws.close(); }
  Object.assign(state, { ws: null, code: null, token: null, seat: null, view: null, map: null, legal: [], lobby: null,
    lastSeq: 0, selected: null, mode: null, ended: null, scoreboardClosed: false, attempt: 0, campaign: null, resyncing: false });
  $("where").textContent = "";
  trail.figure = null; trail.squares = []; state.rollCtx.roll = null; markedSeq = 0;
  last.actor = null; last.targets = new Set(); last.squares = [];
  $("log").replaceChildren(); $("chat-lines").replaceChildren(); $("dice").replaceChildren();
  $("scoreboard").hidden = true;
  if ($("toast").dataset.kind === "info") $("toast").hidden = true; // the game's news, not for the next screen
  if ($("status").dataset.state !== "offline") setStatus("offline", "not connected");
}

function goHome() {
  leaveGame();
  history.replaceState(null, "", "/");
  show("home");
  renderHome();
}

/** Open a game as a player, resuming with a seat (or campaign) token. */
function resumeGame(code, token, name, campaign = null) {
  leaveGame();
  state.token = token; state.name = name ?? ""; state.campaign = campaign;
  connect(code, { as: "resume", token });
}

const missionName = (m) => String(m ?? "").replace(/^ce-/, "").replace(/^classic-/, "1993 ").toUpperCase();
const when = (ms) => (ms ? new Date(ms).toLocaleString() : "");
let homeRefresh = 0;

function renderHome() {
  const account = session();
  $("logged-in").hidden = !account;
  $("login").hidden = !!account;
  $("account-name").textContent = account?.name ?? "";
  renderMyGames(null);
  renderMyCampaigns(null);
  const name = localStorage.getItem("citadel:name") ?? account?.name ?? "";
  for (const f of ["create", "join", "join-campaign"]) {
    const input = /** @type {HTMLInputElement} */ ($(f).querySelector("input[name=name]"));
    if (!input.value) input.value = name;
  }
  if (account) {
    const ticket = ++homeRefresh;
    api("GET", "/api/me", undefined, account.token).then((/** @type {Me} */ me) => {
      if (ticket !== homeRefresh || $("home").hidden) return;
      renderMyGames(me.games ?? []);
      renderMyCampaigns(me.campaigns ?? []);
    }, (err) => {
      if (err.status === 401) { setSession(null); toast("Your login session has expired: please log in again."); renderHome(); }
      else toast(`Could not load your account: ${err.message}`);
    });
  }
}

/**
 * "My games": the account's games (when logged in) and this browser's seats.
 * @param {MyGame[]|null} accountGames
 */
function renderMyGames(accountGames) {
  const local = myGames();
  const byCode = new Map();
  for (const g of accountGames ?? []) {
    byCode.set(g.code, { code: g.code, at: g.finished_at ?? g.started_at ?? g.created_at, finished: g.finished_at !== null && g.finished_at !== undefined,
      started: !!g.started_at, result: g.result?.result ?? null, summary: g.result ?? null, mission: g.options?.mission ?? null, campaign: g.campaign ?? null });
  }
  for (const g of local) {
    const a = byCode.get(g.code);
    byCode.set(g.code, { ...g, ...(a ?? {}), token: g.token, seat: g.seat, name: g.name, finished: a ? a.finished : !!g.finished, at: a?.at ?? g.at,
      outcome: g.outcome ?? null });
  }
  // Won or lost from the player's side: the Dark Legion's player wins when the corporations lose.
  const outcomeOf = (g) => {
    if (g.outcome) return g.outcome;
    const r = g.summary;
    if (!r || g.seat === undefined || g.seat === null) return null;
    return (r.dark_legion_seat === g.seat ? r.dark_legion_won : r.corporations_won) ? "won" : "lost";
  };
  const games = [...byCode.values()].sort((x, y) => (y.at ?? 0) - (x.at ?? 0));
  const list = $("my-games");
  list.replaceChildren(...games.map((g) => {
    const outcome = outcomeOf(g);
    const bits = [g.name ? `as ${g.name}` : null,
      g.finished ? (outcome ? `finished: you ${outcome}` : g.result ? `finished: mission ${g.result === "success" ? "accomplished" : "failed"}` : "finished")
        : g.started === false ? "not started" : null,
      g.at ? when(g.at) : null].filter(Boolean);
    return h("li", { "data-code": g.code, "data-finished": String(!!g.finished) },
      h("span", { class: "code-sm", text: g.code }),
      h("span", { class: "muted", text: ` ${bits.join(" · ")} ` }),
      g.finished
        ? h("button", { type: "button", "data-replay": g.code, text: "Replay", onclick: () => openReplay(g.code) })
        : g.token
          ? h("button", { type: "button", "data-resume": g.code, text: "Resume", onclick: () => resumeGame(g.code, g.token, g.name, g.campaign ?? null) })
          : h("button", { type: "button", "data-watch": g.code, text: "Watch", onclick: () => { leaveGame(); state.name = session()?.name ?? "Spectator"; connect(g.code, { as: "spectator", name: state.name }); } }),
      g.token ? h("button", { type: "button", class: "link", text: "Forget", onclick: () => { forgetGame(g.code); renderHome(); } }) : null);
  }));
  if (!games.length) list.append(h("li", { class: "muted", text: "No games yet." }));
}

/**
 * "My campaigns": the account's (when logged in) and those joined in this browser.
 * @param {MyCampaign[]|null} accountCampaigns
 */
function renderMyCampaigns(accountCampaigns) {
  const byCode = new Map();
  for (const c of accountCampaigns ?? []) byCode.set(c.code, { code: c.code, name: c.name, finished: !!c.finished_at, at: c.created_at });
  for (const c of myCampaigns()) byCode.set(c.code, { ...(byCode.get(c.code) ?? {}), ...c, campaignName: c.campaignName });
  const list = $("my-campaigns");
  list.replaceChildren(...[...byCode.values()].map((c) => h("li", { "data-campaign": c.code },
    h("span", { class: "code-sm", text: c.code }),
    h("span", { text: ` ${c.campaignName ?? (c.token ? "" : c.name ?? "")}` }),
    h("span", { class: "muted", text: ` ${[c.token ? `as ${c.name}` : null, c.finished ? "finished" : null].filter(Boolean).join(" · ")} ` }),
    h("button", { type: "button", "data-open-campaign": c.code, text: "Standings", onclick: () => openCampaign(c.code) }),
    c.token ? h("button", { type: "button", class: "link", text: "Forget", onclick: () => { forgetCampaign(c.code); renderHome(); } }) : null)));
  if (!byCode.size) list.append(h("li", { class: "muted", text: "No campaigns yet." }));
}

// ---------------------------------------------------------------- campaigns

const campaign = { code: null, poll: 0, data: null, busy: false };

function stopCampaignPolling() {
  clearInterval(campaign.poll);
  campaign.poll = 0;
}

function openCampaign(code) {
  leaveGame();
  code = code.toUpperCase();
  campaign.code = code;
  campaign.data = null;
  history.replaceState(null, "", `#campaign/${code}`);
  $("where").textContent = `Campaign ${code}`;
  $("campaign-name").textContent = "Loading…";
  show("campaign");
  refreshCampaign();
  campaign.poll = setInterval(refreshCampaign, 3000);
}

async function refreshCampaign() {
  const code = campaign.code;
  try {
    const data = /** @type {CampaignStandings} */ (await api("GET", `/api/campaigns/${encodeURIComponent(code)}`));
    if (code !== campaign.code || $("campaign").hidden) return;
    campaign.data = data;
    renderCampaign(data);
  } catch (err) {
    if (code !== campaign.code) return;
    toast(`Could not load campaign ${code}: ${err.message}`);
    if (err.status === 404) { forgetCampaign(code); goHome(); }
  }
}

/** @param {CampaignStandings} c */
function renderCampaign(c) {
  const me = myCampaigns().find((x) => x.code === c.code);
  if (me && me.campaignName !== c.name) saveCampaign({ ...me, campaignName: c.name });
  const playerName = (i) => {
    if (i === null || i === undefined) return "AI";
    const p = c.players.find((x) => x.player === i);
    return p ? `${p.name}${me?.player === i ? " (you)" : ""}` : `Player ${i + 1}`;
  };
  $("campaign-name").textContent = c.name;
  $("campaign-code").textContent = c.code;
  const which = { c1: "Campaign 1", c2: "Campaign 2", both: "Campaigns 1 and 2", classic: "1993 edition" }[c.campaign] ?? "";
  const classic = c.edition === "classic";
  const length = c.end === "first_to" ? `${c.history.length} missions played · first to ${c.target_pp} PP` : `${c.history.length}/${c.missions} missions`;
  $("campaign-info").textContent = ` · ${which} · ${c.players.length}/${c.players_planned} players · ${length} · starting rank ${c.starting_rank} · Dark Legion: ${c.dark_legion === "ai" ? "the AI" : "players in turn"}${classic && c.next_band ? ` · Dark Legion band ${c.next_band}–${c.next_band + 1}` : ""}`;
  $("campaign-gear").textContent = classic
    ? "Carried from mission to mission: PP and rank, credits, and each mission's outcome. Credits are a limit on the equipment a team takes in each mission's draft, not spent; gear itself returns after each mission."
    : "Carried from mission to mission: PP and rank, and each mission's outcome. Gear is not carried: every Doomtrooper's equipment returns after each mission (EQP-6) and is chosen again at the next one.";
  $("campaign-info").dataset.campaign = c.campaign ?? "";
  const winners = new Set(c.winners ?? []);
  const rows = c.players.map((p) => h("tr", { "data-player": p.player, class: [winners.has(p.player) ? "winner" : "", me?.player === p.player ? "me" : ""].join(" ").trim() },
    h("td", { text: String(p.player + 1) }),
    h("td", { text: `${p.name}${me?.player === p.player ? " (you)" : ""}${winners.has(p.player) ? " ★" : ""}` }),
    h("td", {}, h("span", { class: "chip", style: `background:${CORP_COLOR[p.corporation] ?? "#888"}` }), h("span", { text: words(p.corporation) })),
    h("td", { text: String(p.pp) }), h("td", { text: String(p.rank) }),
    h("td", { text: p.credits === null ? "—" : `${p.credits}${p.credit_bought ? " (1 bought)" : ""}` }),
    h("td", { text: `${p.times_dl}×` })));
  if (c.ai) {
    rows.push(h("tr", { "data-ai": "true", class: c.ai_wins ? "winner" : "" },
      h("td", { text: "" }), h("td", { text: `AI${c.ai_wins ? " ★" : ""}` }),
      h("td", {}, h("span", { class: "chip", style: `background:${DL_COLOR}` }), h("span", { text: "Dark Legion" })),
      h("td", { text: String(c.ai.pp ?? "") }), h("td", { text: String(c.ai.rank ?? "") }), h("td", { text: "—" }), h("td", { text: "always" })));
  }
  for (let i = c.players.length; i < c.players_planned; i++) {
    rows.push(h("tr", { class: "muted" }, h("td", { text: String(i + 1) }), h("td", { text: "waiting for a player…" }), h("td"), h("td"), h("td"), h("td"), h("td")));
  }
  $("standings").querySelector("tbody")?.replaceChildren(...rows);

  const history = c.history.map((m) => h("tr", { "data-mission": m.index, "data-game": m.game },
    h("td", { text: String(m.index + 1) }),
    h("td", { text: `${missionName(m.mission)} ${missionDef(m.mission)?.name ?? ""}`.trim() }),
    h("td", { text: playerName(m.dark_legion) }),
    h("td", { text: m.result ? words(m.result) : "—" }),
    h("td", { text: m.pp.map((pp, i) => `${playerName(i)} ${pp.before} → ${pp.after}`
      + (m.credits?.[i] ? ` (credits ${m.credits[i].before} → ${m.credits[i].after})` : "")).join(" · ")
      + (m.ai_pp ? ` · AI ${m.ai_pp.before} → ${m.ai_pp.after}` : "") }),
    h("td", {}, h("button", { type: "button", class: "link", "data-replay": m.game, text: "Replay", onclick: () => openReplay(m.game) }))));
  if (!history.length) history.push(h("tr", { class: "muted empty" }, h("td", { colspan: 6, text: "No mission played yet." })));
  $("history").querySelector("tbody")?.replaceChildren(...history);

  let line;
  const cur = c.current_game;
  if (c.finished) {
    const names = [...(c.winners ?? []).map((i) => playerName(i)), ...(c.ai_wins ? ["the AI Dark Legion"] : [])];
    line = `The campaign is over. Winner${names.length === 1 ? "" : "s"}: ${names.join(", ") || "none"}.`;
  } else if (cur) {
    line = `Mission ${c.history.length + 1} (${missionName(cur.mission)}) is being played in game ${cur.game} — Dark Legion: ${playerName(cur.dark_legion)}.`;
  } else if (c.players.length < c.players_planned) {
    line = `Waiting for ${c.players_planned - c.players.length} more player${c.players_planned - c.players.length === 1 ? "" : "s"} to join with the code ${c.code}.`;
  } else {
    const n = c.next_mission;
    line = `Next: mission ${c.history.length + 1} of ${c.missions}${n ? ` (${missionName(n.id)} ${n.name})` : ""}.`;
    if (n && n.playable === false) line += ` It is not playable yet: the campaign waits for it (missions run in order) — it needs ${(n.missing ?? []).join(", ")}.`;
  }
  const st = $("campaign-state");
  st.textContent = line;
  st.dataset.finished = String(!!c.finished);
  const play = /** @type {HTMLButtonElement} */ ($("play-campaign-game"));
  play.hidden = !(cur && me);
  play.textContent = cur ? `Play mission ${c.history.length + 1} (game ${cur.game})` : "Play";
  play.onclick = () => cur && me && resumeGame(cur.game, me.token, me.name, c.code);
  const watch = /** @type {HTMLButtonElement} */ ($("watch-campaign-game"));
  watch.hidden = !(cur && !me);
  watch.onclick = () => { if (!cur) return; leaveGame(); state.name = session()?.name ?? "Spectator"; state.campaign = c.code; connect(cur.game, { as: "spectator", name: state.name }); };
  const next = /** @type {HTMLButtonElement} */ ($("next-mission"));
  const nextPlayable = c.next_mission?.playable !== false;
  next.hidden = !(me && !c.finished && !cur && c.players.length >= c.players_planned);
  next.disabled = campaign.busy || !nextPlayable;
  next.textContent = nextPlayable ? `Start mission ${c.history.length + 1}` : `Mission ${c.history.length + 1} is not playable yet`;
  // Free choice (CMP-5): the server lists the missions `next` may name.
  const choices = c.choices ?? [];
  const pick = /** @type {HTMLSelectElement} */ ($("free-mission"));
  $("free-mission-label").hidden = next.hidden || !choices.length;
  if (choices.length && pick.options.length !== choices.length) {
    pick.replaceChildren(...choices.map((o) => h("option", { value: o.mission, text: `${o.name} (${missionName(o.mission)})${o.playable ? "" : " — not playable yet"}` })));
    if (c.next_mission) pick.value = c.next_mission.id;
  }
  if (choices.length) {
    next.disabled = campaign.busy;
    next.textContent = `Start mission ${c.history.length + 1}`;
  }
  // CEC-4: the server decides; the button only hides when it cannot help.
  const mine = c.players.find((p) => p.player === me?.player);
  const buy = /** @type {HTMLButtonElement} */ ($("buy-credit"));
  buy.hidden = !(classic && mine && !c.finished && !cur);
  buy.disabled = campaign.busy || !mine || mine.credit_bought || mine.pp < 5;
  buy.textContent = mine?.credit_bought ? "Credit bought for this mission" : "Buy a credit for 5 PP";

  // The mission order (CMP-5) and the next mission's briefing.
  const outcomes = c.outcomes ?? [];
  $("campaign-order").replaceChildren(...(c.order ?? []).map((o) => {
    const played = o.index < c.history.length;
    const inPlay = !played && cur && o.index === c.history.length;
    const isNext = !played && !cur && !c.finished && o.index === c.history.length;
    const status = played ? (outcomes[o.index]?.completed ? "accomplished" : "failed")
      : inPlay ? "in play" : isNext ? "next" : "";
    const note = [status, o.playable ? "" : "not playable yet"].filter(Boolean).join(", ");
    return h("li", { "data-order": o.index, "data-mission": o.mission,
      class: [played ? "done" : "", isNext || inPlay ? "next" : "", o.playable ? "" : "unplayable"].join(" ").trim(),
      text: `${o.name} (${missionName(o.mission)})${note ? ` — ${note}` : ""}` });
  }));
  const nm = !cur && !c.finished ? c.next_mission : null;
  $("campaign-next").hidden = !nm;
  $("campaign-next-name").textContent = nm ? `${nm.name} (${missionName(nm.id)}), mission ${nm.index + 1} of ${c.missions}` : "";
  $("campaign-next-brief").replaceChildren(...(nm ? [briefingNode(nm)] : []));
}

$("next-mission").onclick = async () => {
  const me = myCampaigns().find((x) => x.code === campaign.code);
  if (!me || campaign.busy) return;
  campaign.busy = true;
  /** @type {HTMLButtonElement} */ ($("next-mission")).disabled = true;
  try {
    const chosen = campaign.data?.choices?.length ? { mission: /** @type {HTMLSelectElement} */ ($("free-mission")).value } : {};
    const started = /** @type {CampaignNextGame} */ (await api("POST", `/api/campaigns/${encodeURIComponent(me.code)}/next`, chosen, me.token));
    resumeGame(started.game, me.token, me.name, me.code);
  } catch (err) {
    toast(`Could not start the next mission: ${err.message}`);
    refreshCampaign();
  } finally {
    campaign.busy = false;
  }
};

$("buy-credit").onclick = async () => {
  const me = myCampaigns().find((x) => x.code === campaign.code);
  if (!me || campaign.busy) return;
  campaign.busy = true;
  try {
    const bought = /** @type {CampaignCreditBought} */ (await api("POST", `/api/campaigns/${encodeURIComponent(me.code)}/credit`, {}, me.token));
    toast(`Credit bought: ${bought.credits} credits, ${bought.pp} PP (rank ${bought.rank}).`, "info");
  } catch (err) {
    toast(`Could not buy a credit: ${err.message}`);
  } finally {
    campaign.busy = false;
    refreshCampaign();
  }
};

// The 1993 campaign's own fields show only when it is chosen; its ranks
// are 1-6 (classic CRK-1), the Collectors Edition's 1-12.
function campaignEditionFields() {
  const form = /** @type {HTMLFormElement} */ ($("create-campaign"));
  const classic = /** @type {HTMLSelectElement} */ (form.querySelector("select[name=campaign]")).value === "classic";
  for (const l of form.querySelectorAll(".classic-only")) /** @type {HTMLElement} */ (l).hidden = !classic;
  const rank = /** @type {HTMLInputElement} */ (form.querySelector("input[name=starting_rank]"));
  rank.max = classic ? "6" : "12";
  if (Number(rank.value) > Number(rank.max)) rank.value = rank.max;
}
/** @type {HTMLSelectElement} */ ($("create-campaign").querySelector("select[name=campaign]")).addEventListener("change", campaignEditionFields);
campaignEditionFields();

$("create-campaign").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const body = { name: String(f.get("name")).trim(), players: Number(f.get("players")), campaign: String(f.get("campaign") || "c1"),
    starting_rank: Number(f.get("starting_rank") || 1), dark_legion: String(f.get("dark_legion")) };
  // Without a number the campaign is as long as its missions (5, or 10 for both and for 1993).
  const firstTo = body.campaign === "classic" && f.get("end") === "first_to";
  if (f.get("missions") && !firstTo) body.missions = Number(f.get("missions"));
  if (body.campaign === "classic" && f.get("free_choice")) body.free_choice = true;
  if (firstTo) {
    body.end = "first_to";
    if (f.get("target_pp")) body.target_pp = Number(f.get("target_pp"));
  }
  try {
    const made = /** @type {CampaignCreated} */ (await api("POST", "/api/campaigns", body));
    const code = /** @type {HTMLInputElement} */ ($("join-campaign").querySelector("input[name=code]"));
    code.value = made.code;
    toast(`Campaign ${made.code} created: join it below with your name and corporation, and share the code.`, "info");
    /** @type {HTMLElement} */ ($("join-campaign").querySelector("input[name=name]")).focus();
  } catch (err) {
    toast(`Could not create the campaign: ${err.message}`);
  }
};

$("join-campaign").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const code = String(f.get("code")).trim().toUpperCase();
  const name = String(f.get("name")).trim();
  try {
    // Logged in: the campaign is linked to the account (listed in "My campaigns" on any device).
    const joined = /** @type {CampaignJoined} */ (await api("POST", `/api/campaigns/${encodeURIComponent(code)}/join`, { name, corporation: String(f.get("corporation")) }, session()?.token));
    localStorage.setItem("citadel:name", name);
    saveCampaign({ code, token: joined.token, player: joined.player, name });
    openCampaign(code);
  } catch (err) {
    toast(`Could not join campaign ${code}: ${err.message}`);
  }
};

// ---------------------------------------------------------------- accounts

$("login").onsubmit = async (e) => {
  e.preventDefault();
  const form = /** @type {HTMLFormElement} */ (e.target);
  const f = new FormData(form);
  const creds = { name: String(f.get("name")).trim(), password: String(f.get("password")) };
  const action = /** @type {any} */ (e).submitter?.value ?? "login";
  try {
    if (action === "register") await api("POST", "/api/accounts", creds);
    const res = /** @type {LoggedIn} */ (await api("POST", "/api/login", creds));
    setSession({ token: res.token, name: res.account.name });
    localStorage.setItem("citadel:name", res.account.name);
    form.reset();
    if (action === "register") toast(`Welcome, ${res.account.name}: your account is ready.`, "info");
    renderHome();
  } catch (err) {
    toast(`${action === "register" ? "Could not register" : "Could not log in"}: ${err.message}`);
  }
};

$("logout").onclick = async () => {
  const account = session();
  setSession(null);
  renderHome();
  if (account) await api("POST", "/api/logout", undefined, account.token).catch(() => {});
};

// ---------------------------------------------------------------- replay

const PAGE = 50;
const replay = { code: null, total: 0, index: 0, steps: new Map(), map: null, setup: null, timer: 0, loading: new Map(), ticket: 0 };

function stopReplay() {
  clearInterval(replay.timer);
  replay.timer = 0;
  $("replay-play").textContent = "▶ Play";
}

/** The page holding step `i` (cached; one request per page at a time). */
function loadReplayPage(i) {
  const from = Math.floor(i / PAGE) * PAGE;
  if (replay.steps.has(from) && replay.steps.has(Math.min(replay.total - 1, from + PAGE - 1))) return Promise.resolve();
  if (!replay.loading.has(from)) {
    const code = replay.code;
    const p = api("GET", `/api/games/${encodeURIComponent(code)}/replay?from=${from}&count=${PAGE}`).then((/** @type {Replay} */ r) => {
      if (code !== replay.code) return;
      replay.total = r.total_steps; replay.setup = r.setup;
      if (from === 0) replay.map = r.map;
      // Each step keeps the board it shows: the page's map at its first
      // step, then each change a step made (1993 event 11).
      let map = r.map;
      for (const st of r.steps) { map = st.map ?? map; replay.steps.set(st.index, { ...st, board: map }); }
    }).finally(() => replay.loading.delete(from));
    replay.loading.set(from, p);
  }
  return replay.loading.get(from);
}

async function openReplay(code) {
  leaveGame();
  code = code.toUpperCase();
  Object.assign(replay, { code, total: 0, index: 0, steps: new Map(), map: null, setup: null, loading: new Map() });
  history.replaceState(null, "", `#replay/${code}`);
  $("where").textContent = `Replay ${code}`;
  $("replay-title").textContent = `Replay of game ${code}`;
  $("replay-step").textContent = "loading…";
  $("replay-events").replaceChildren();
  $("replay-command").textContent = "";
  board.handlers = { square: () => {}, figure: () => {}, entrance: () => {}, tile: () => {} };
  board.map = null; // redrawn from the replay's map (and again by the next game)
  board.svg.replaceChildren();
  show("replay");
  try {
    await loadReplayPage(0);
    if (code !== replay.code) return;
    board.setMap(replay.map);
    setPlaces(replay.map);
    const slider = /** @type {HTMLInputElement} */ ($("replay-slider"));
    slider.max = String(Math.max(0, replay.total - 1));
    await replayGo(0);
  } catch (err) {
    toast(`Could not load the replay of ${code}: ${err.message}`);
    $("replay-step").textContent = "—";
  }
}

function replaySeatName(seat) {
  const dl = replay.steps.get(replay.index)?.view?.dark_legion;
  if (seat === null || seat === undefined || (dl && dl.seat === null && seat === dl.ai_seat)) return "the Dark Legion AI";
  const s = replay.setup?.seats?.[seat];
  return s?.corporation ? `Seat ${seat + 1} (${words(s.corporation)})` : `Seat ${seat + 1}`;
}

async function replayGo(i) {
  if (!replay.total) return;
  i = Math.max(0, Math.min(replay.total - 1, i));
  const ticket = ++replay.ticket;
  replay.index = i;
  /** @type {HTMLInputElement} */ ($("replay-slider")).value = String(i);
  $("replay-step").textContent = `${i + 1} / ${replay.total}`;
  if (!replay.steps.has(i)) {
    try { await loadReplayPage(i); } catch (err) { toast(`Could not load step ${i}: ${err.message}`); stopReplay(); return; }
  }
  if (ticket !== replay.ticket) return;
  renderReplayStep(i);
  // Fetch the next page ahead of time while playing.
  if (replay.timer && i + 10 < replay.total && !replay.steps.has(i + 10)) loadReplayPage(i + 10).catch(() => {});
}

function renderReplayStep(i) {
  const st = replay.steps.get(i);
  if (!st) return;
  const view = st.view;
  const before = replay.steps.get(i - 1)?.view ?? view;
  if (st.board && board.map !== st.board) { board.setMap(st.board); setPlaces(st.board); }
  board.render(view, {
    mine: new Set(), selected: null, moveTargets: new Map(), squareTargets: new Map(), squareClass: "place-target",
    attackTargets: new Set(), figureChoices: new Set(), entranceChoices: new Set(), tileChoices: new Set(),
  });
  $("replay-step").textContent = `${i + 1} / ${replay.total}`;
  $("replay-step").dataset.index = String(i);
  $("replay-round").textContent = `Round ${view.round}${view.final_round ? " · final round" : ""} · ${view.phase.phase === "finished" ? "mission over" : words(view.phase.phase)}`;
  $("replay-command").textContent = st.command
    ? `${replaySeatName(st.seat).replace(/^./, (ch) => ch.toUpperCase())}: ${describeCommand(before, st.command)}`
    : "The mission is set up.";
  const ctx = { roll: null };
  const lines = st.events.map(({ seq, event }) => ({ seq, event, text: describeEvent(view, event, replaySeatName, ctx) })).filter((x) => x.text);
  $("replay-events").replaceChildren(...lines.map((x) => h("li", { class: x.event.type, "data-seq": x.seq, text: x.text })));
  if (!lines.length) $("replay-events").append(h("li", { class: "muted", text: "(nothing visible happens)" }));
  /** @type {HTMLButtonElement} */ ($("replay-prev")).disabled = i <= 0;
  /** @type {HTMLButtonElement} */ ($("replay-next")).disabled = i >= replay.total - 1;
}

$("replay-prev").onclick = () => { stopReplay(); replayGo(replay.index - 1); };
$("replay-next").onclick = () => { stopReplay(); replayGo(replay.index + 1); };
$("replay-slider").oninput = (e) => { stopReplay(); replayGo(Number(/** @type {HTMLInputElement} */ (e.target).value)); };
$("replay-play").onclick = () => {
  if (replay.timer) return stopReplay();
  if (replay.index >= replay.total - 1) replayGo(0);
  $("replay-play").textContent = "❚❚ Pause";
  replay.timer = setInterval(() => {
    if (replay.index >= replay.total - 1) return stopReplay();
    replayGo(replay.index + 1);
  }, 600);
};

// ---------------------------------------------------------------- lobby

function renderLobby() {
  const l = state.lobby;
  if (!l) return;
  $("code").textContent = l.code;
  const dl = l.options.dark_legion;
  const m = missionDef(l.options.mission);
  $("lobby-options").textContent = `${m ? `${m.name} · ` : ""}${l.options.seats} seat${l.options.seats === 1 ? "" : "s"} · Dark Legion: ${
    dl.mode === "ai" ? "the AI" : dl.mode === "seat" ? (l.seats[dl.seat]?.name ?? "the host") : "drawn at random among the players"} · turn limit: ${
    l.options.turn_seconds ? l.options.turn_seconds + " s" : "none"} · starting rank ${l.options.starting_rank ?? 1} · ${Math.max(0, l.spectators - (hot.neutral ? 1 : 0))} watching`;
  const locals = localSeats();
  const host = locals.has(l.host);
  const link = `${location.origin}/#${l.code}`;
  $("copy-invite").dataset.link = link;
  $("invite-link").textContent = link;
  $("seats").querySelector("tbody")?.replaceChildren(...l.seats.map((s) => {
    const who = s.controller === "open" ? "open" : s.controller === "bot" ? "Bot" : (s.name ?? "?");
    const tags = [s.seat === l.host ? "host" : null, s.seat === state.seat ? "you" : locals.has(s.seat) ? "on this device" : null,
      dl.mode === "seat" && dl.seat === s.seat ? "Dark Legion" : null,
      s.bot_playing ? "bot playing" : null, s.controller === "human" && !s.connected ? "away" : null].filter(Boolean);
    const corp = s.corporation ? h("span", { class: "chip", style: `background:${CORP_COLOR[s.corporation]}` }) : null;
    const botBtn = host && s.controller !== "human"
      ? h("button", { type: "button", "data-bot-seat": s.seat, text: s.controller === "bot" ? "Remove bot" : "Add bot",
        onclick: () => sendAs(hostConn(), { type: "set_bot", seat: s.seat, bot: s.controller !== "bot" }) }) : null;
    return h("tr", { "data-seat": s.seat, class: s.seat === state.seat ? "me" : "" },
      h("td", { text: String(s.seat + 1) }),
      h("td", {}, h("span", { text: who }), tags.length ? h("span", { class: "muted", text: ` (${tags.join(", ")})` }) : null),
      h("td", {}, corp, h("span", { text: s.corporation ? words(s.corporation) : "—" })),
      h("td", { text: s.ready ? "✓ ready" : "" }),
      h("td", {}, botBtn));
  }));
  const mine = l.seats[state.seat ?? -1];
  $("lobby-me").hidden = state.spectator;
  // The Dark Legion's player has no corporation (and must not block one for others).
  const iAmDl = dl.mode === "seat" && dl.seat === state.seat;
  $("corps").hidden = iAmDl;
  $("team-label").hidden = iAmDl;
  const who = hotseatOn() ? `${state.name || "This player"}` : "You";
  $("lobby-me").querySelector("h3").textContent = iAmDl ? `${who} play${who === "You" ? "" : "s"} the Dark Legion` : hotseatOn() ? `${who}'s corporation` : "Your corporation";
  $("corps").replaceChildren(...CORPS.map((c) => {
    const takenBy = l.seats.find((s) => s.corporation === c);
    return h("button", {
      type: "button", "data-corp": c, "aria-pressed": String(mine?.corporation === c),
      disabled: takenBy && takenBy.seat !== state.seat, style: `--corp:${CORP_COLOR[c]}`,
      text: words(c), onclick: () => send({ type: "take_seat", corporation: c }),
    });
  }));
  state.ready = !!mine?.ready;
  const ready = $("ready");
  ready.textContent = state.ready ? "Ready ✓ (click to cancel)" : "Ready";
  ready.setAttribute("aria-pressed", String(state.ready));
  $("start").hidden = !host;
  // Hotseat: set up each player of this device in turn (the lobby holds no secrets).
  const here = hot.conns.filter((c) => c.seat !== null);
  $("local-seats").hidden = here.length < 2;
  $("local-seats").replaceChildren(h("span", { text: "On this device:" }), ...here.map((c) =>
    h("button", { type: "button", "data-local-seat": c.seat, "aria-pressed": String(c === state), text: `${c.name || `Seat ${(c.seat ?? 0) + 1}`}`,
      onclick: () => switchTo(c) })));
  $("add-local").hidden = state.spectator || l.started || !l.seats.some((s) => s.controller === "open");
}

/** The seats this page holds (hotseat), or its one seat. */
function localSeats() {
  return new Set([state, ...hot.conns].map((c) => c.seat).filter((x) => x !== null));
}
/** The page's connection holding the host's seat (the shown one if none). */
function hostConn() {
  return [state, ...hot.conns].find((c) => c.seat !== null && c.seat === state.lobby?.host) ?? state;
}
/** Send on one of the page's connections (the host's, for host-only messages). */
function sendAs(conn, msg) {
  if (conn === state) return send(msg);
  if (conn.ws?.readyState === WebSocket.OPEN) { conn.ws.send(JSON.stringify(msg)); return true; }
  toast("Not connected — the message was not sent.");
  return false;
}

$("ready").onclick = () => send({ type: "ready", ready: !state.ready });
$("start").onclick = () => sendAs(hostConn(), { type: "start" });
$("add-local").onsubmit = (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("name"));
  const name = input.value.trim();
  if (!name) return;
  input.value = "";
  addLocal(name);
};
$("team-choice").onchange = (e) => {
  const v = /** @type {HTMLSelectElement} */ (e.target).value.split(",");
  send({ type: "choose_team", doomtroopers: v });
};

// ---------------------------------------------------------------- game

function myTeam() {
  return state.view?.teams.find((t) => t.seat === state.seat) ?? null;
}

/** What the legal list offers, grouped for the screen. */
function analyse() {
  const legal = state.legal;
  const byFig = new Map();
  const decisions = [];
  const general = [];
  for (const c of legal) {
    if (DECISIONS.has(c.type)) decisions.push(c);
    else if (FIGURE_ACTIONS.has(c.type)) {
      const id = /** @type {any} */ (c).figure;
      if (!byFig.has(id)) byFig.set(id, { moves: new Map(), attacks: [], other: [] });
      const g = byFig.get(id);
      if (c.type === "move") {
        const k = key(c.path[c.path.length - 1]);
        const old = g.moves.get(k);
        if (!old || old.path.length > c.path.length) g.moves.set(k, c);
      } else if (c.type === "attack") g.attacks.push(c);
      else g.other.push(c);
    } else general.push(c);
  }
  return { byFig, decisions, general };
}

function renderGame() {
  const view = state.view;
  if (!view || !state.map) return;
  // A 1993 game shows the 1993 tables (AF, ranks 1–6, its items).
  useEdition(editionOf(view.mission));
  const a = analyse();
  if (state.selected !== null && !a.byFig.has(state.selected)) state.selected = null;
  if (state.selected === null && view.active !== null && a.byFig.has(view.active)) state.selected = view.active;
  if (state.selected === null && a.byFig.size === 1) state.selected = [...a.byFig.keys()][0];

  const mine = new Set(myTeam()?.figures ?? []);
  if (state.seat !== null && view.dark_legion.seat === state.seat) {
    for (const f of view.figures) if (f.kind.kind === "creature") mine.add(f.id);
  }
  const sel = state.selected !== null ? a.byFig.get(state.selected) : null;
  const place = a.decisions.filter((c) => PLACEMENTS.has(c.type));
  const kinds = [...new Set(place.map((c) => placeKind(c)))];
  if (!kinds.includes(state.placeKind)) state.placeKind = kinds[0] ?? null;
  let squareTargets = new Map(), squareClass = "place-target";
  if (state.mode) { squareTargets = state.mode.cmds; squareClass = "item-target"; }
  else for (const c of place) if (placeKind(c) === state.placeKind) squareTargets.set(key(/** @type {any} */ (c).square), c);

  board.handlers = {
    square: (k) => {
      const c = (state.mode ? null : sel?.moves.get(k)) ?? squareTargets.get(k);
      if (c) sendCommand(c);
      else if (state.selected !== null && !state.mode) { state.selected = null; renderGame(); }
    },
    figure: (id) => {
      // Aiming at a square (a grenade, a sweep's first square): a figure
      // standing on a highlighted square stands for its square.
      const on = view.figures.find((f) => f.id === id)?.place;
      const aimed = state.mode && on?.at === "board" ? state.mode.cmds.get(key(on.square)) : null;
      if (aimed) return sendCommand(aimed);
      const atk = sel?.attacks.filter((c) => c.target === id) ?? [];
      if (atk.length === 1) return sendCommand(atk[0]);
      if (atk.length > 1) return toast("Choose the kind of attack with the buttons below the board.");
      const choose = a.decisions.find((c) => c.type === "choose_figure" && c.figure === id);
      if (choose) return sendCommand(choose);
      if (a.byFig.has(id)) { state.selected = state.selected === id ? null : id; state.mode = null; renderGame(); }
    },
    entrance: (id) => {
      const c = a.decisions.find((c) => c.type === "choose_entrance" && c.entrance === id);
      if (c) sendCommand(c);
    },
    tile: (i) => {
      const c = a.decisions.find((c) => c.type === "choose_tile" && c.tile === i);
      if (c) sendCommand(c);
    },
  };
  board.render(view, {
    mine, selected: state.selected,
    moveTargets: state.mode ? new Map() : sel?.moves ?? new Map(),
    squareTargets, squareClass,
    attackTargets: new Set(state.mode ? [] : sel?.attacks.map((c) => c.target) ?? []),
    figureChoices: new Set(a.decisions.filter((c) => c.type === "choose_figure").map((c) => /** @type {any} */ (c).figure)),
    entranceChoices: new Set(a.decisions.filter((c) => c.type === "choose_entrance").map((c) => /** @type {any} */ (c).entrance)),
    tileChoices: new Set(a.decisions.filter((c) => c.type === "choose_tile").map((c) => /** @type {any} */ (c).tile)),
    trail: trail.squares,
    last,
  });
  for (const g of board.svg.querySelectorAll("[data-figure]")) {
    if (a.byFig.has(Number(g.getAttribute("data-figure")))) g.classList.add("can-act");
  }

  $("spectating").hidden = !state.spectator;
  $("actions").hidden = state.spectator;
  renderTurnInfo(view);
  renderDecision(view, a, kinds);
  renderActions(view, a, sel);
  renderPanel(view);
  renderBriefing(view);
  renderLegend(view);
  renderTokenLegend(view);
  renderScoreboard(view);
  scheduleAutoPass();
}

// Reaction windows open on public facts only, so that opponents learn
// nothing about a hand; the page answers "pass" by itself when no card in
// hand can be played (or always, with the auto-pass setting), after the
// same short delay either way so the timing tells nothing either.
const AUTO_PASS_MS = 1200;
const autoPass = { key: /** @type {string|null} */ (null), timer: 0 };
const autoPassOn = () => localStorage.getItem("citadel:auto-pass") === "1";

function scheduleAutoPass() {
  const reacts = state.legal.filter((c) => c.type === "react");
  const pass = reacts.find((c) => /** @type {any} */ (c).card === null);
  const auto = !!pass && reacts.length === state.legal.length && (reacts.length === 1 || autoPassOn());
  const key = auto ? `${state.code}:${state.lastSeq}` : null;
  if (key === autoPass.key) return;
  clearTimeout(autoPass.timer);
  autoPass.key = key;
  if (!auto || !pass) return;
  autoPass.timer = setTimeout(() => {
    if (autoPass.key !== key) return;
    autoPass.key = null;
    sendCommand(pass);
  }, AUTO_PASS_MS);
}

/** The mission: its name, goal and length, from the content. */
function briefingText(m) {
  const within = m.rounds ? `within ${plural(m.rounds, "round")}` : "with no time limit";
  return `Goal: ${goalText(m)}, ${within}${m.ends_early ? "; the mission ends as soon as the goal is met" : ""}.`;
}
/**
 * A mission's whole briefing (from `/api/content` or a campaign's
 * `next_mission`): goal and rounds, special actions and rules, rewards,
 * secondary missions, and what an unplayable mission still needs.
 */
function briefingNode(m) {
  const kids = [h("p", { class: "goal", text: briefingText(m) })];
  const actions = m.special_actions ?? [];
  if (actions.length) {
    kids.push(h("p", { class: "actions", text: `Special action${actions.length === 1 ? "" : "s"}: ${
      actions.map((a) => `${a.name}, next to ${withArticle(words(a.adjacent_to).toLowerCase())}${a.once_per_feature ? " (each counts once)" : ""}`).join("; ")}.` }));
  }
  const rules = m.special_rules ?? [];
  if (rules.length) kids.push(h("ul", { class: "rules" }, ...rules.map((r) => h("li", { "data-rule": r.key, text: r.text }))));
  const r = m.rewards;
  if (r?.credits) {
    kids.push(h("p", { class: "rewards", text: r.credits.dt || r.credits.dl
      ? `Rewards: success ${plural(r.credits.dt, "credit")} to each team on the mission; failure ${plural(r.credits.dl, "credit")} to the Dark Legion.`
      : "Rewards: none (a training mission: no credits are won or lost)." }));
  } else if (r) {
    kids.push(h("p", { class: "rewards", text: `Rewards: success +${r.success} PP to each corporation player with a Doomtrooper left; failure +${r.failure} PP to the Dark Legion, and the commander ${r.commander} PP.` }));
  }
  const secondary = !m.secondary ? "No secondary missions."
    : m.edition === "classic" ? "Secondary missions (with 3 or more teams): two teams, drawn at random, pursue the goal; every other team draws one secret secondary mission."
    : "Secondary missions: each corporation player draws two and keeps one, secretly.";
  kids.push(h("p", { class: "secondary", text: secondary }));
  if (m.playable === false) {
    kids.push(h("p", { class: "missing", text: `Not playable yet — the server still needs: ${(m.missing ?? []).join(", ")}.` }));
  }
  return h("div", { "data-mission": m.id, "data-playable": String(m.playable !== false) }, ...kids);
}
function renderBriefing(view) {
  const m = missionDef(view.mission);
  $("briefing").hidden = !m;
  if (!m) return;
  $("briefing-name").textContent = m.name;
  $("briefing-goal").textContent = briefingText(m);
}

/** The "?" panel: every creature's stats at the current band, from the content. */
function renderRules() {
  const band = state.view?.dark_legion.band ?? 1;
  const dice = (xs) => (xs.length ? xs.map(words).join(" ") : "—");
  const classic = content.edition === "classic";
  const rows = (content.data?.creatures ?? []).map((c) => {
    const st = c.bands[band - 1];
    return h("tr", {}, h("td", {}, h("span", { class: "icon", text: CREATURE_LETTER[c.kind] ?? "?" }), document.createTextNode(c.name)),
      h("td", { text: dice(st.cc) }), h("td", { text: dice(st.fa) }), h("td", { text: String(st.dv) }),
      ...(classic ? [] : [h("td", { text: st.defense_die ? words(st.defense_die) : "—" })]), h("td", { text: String(c.actions) }), h("td", { text: String(st.pp) }));
  });
  const m = state.view ? missionDef(state.view.mission) : null;
  $("rules-body").replaceChildren(
    ...(m ? [h("p", {}, h("b", { text: `${m.name}. ` }), document.createTextNode(briefingText(m)))] : []),
    h("h3", { text: `Dark Legion creatures (band ${band})` }),
    h("table", {}, h("thead", {}, h("tr", {}, ...(classic ? ["Creature", "Close combat dice", "Firearm dice", "Armour factor (AF)", "Actions", "PP for eliminating"]
      : ["Creature", "Close combat dice", "Firearm dice", "Defence value", "Defence die", "Actions", "PP for eliminating"]).map((t) => h("th", { text: t })))),
      h("tbody", {}, ...rows)),
    h("p", { class: "muted", text: classic
      ? "A hit wounds unless the target's armour absorbs it: hits beyond the AF wound; a Doomtrooper (AF 1) also rolls its rank's absorb die."
      : "Damage = hits − the target's defence value; a creature left with exactly 1 damage rolls its defence die to save it." }),
    ...cardTables(m));
}

/** The rules reference's card tables, from the content: Doomtrooper
 *  cards, the mission's events, door cards. */
function cardTables(m) {
  const d = content.data;
  if (!d) return [];
  const table = (id, head, rows) => h("table", { id }, h("thead", {}, h("tr", {}, ...head.map((t) => h("th", { text: t })))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((t) => h("td", { text: t }))))));
  const events = (d.events ?? []).filter((e) => !m || (m.events ?? []).includes(e.number));
  return [
    h("h3", { text: "Doomtrooper cards" }),
    table("rules-dt-cards", ["Card", "Effect"], (d.dt_cards ?? []).map((c) => [`${c.name}${c.reaction ? " ⚡" : ""}`, c.text ?? ""])),
    h("h3", { text: m ? "Events in this mission" : "Events" }),
    table("rules-events", ["Event", "Effect"], events.map((e) => [e.name, e.text ?? ""])),
    h("h3", { text: "Door cards" }),
    table("rules-door-cards", ["Card", "Effect"], (d.door_cards ?? []).map((c) => [c.name, c.text ?? ""])),
  ];
}

/** The creatures on the board: icon, name and this band's stats. */
function renderLegend(view) {
  const kinds = [...new Set(view.figures.filter((f) => f.kind.kind === "creature" && (f.place.at === "board" || f.place.at === "waiting"))
    .map((f) => /** @type {any} */ (f.kind).creature))];
  const band = view.dark_legion.band;
  $("legend").replaceChildren(...kinds.map((k) => {
    const def = content.data?.creatures?.find((c) => c.kind === k);
    const st = def?.bands?.[band - 1];
    const guard = content.edition === "classic" ? `AF ${st?.dv}` : `defence ${st?.dv}`;
    const stats = st ? ` — close combat ${st.cc.length} dice, firearms ${st.fa.length} dice, ${guard}, ${`${st.pp} PP`}` : "";
    return h("li", { "data-creature": k }, h("span", { class: "icon", text: CREATURE_LETTER[k] ?? "?" }),
      h("span", { text: `${creatureName(k)}${stats}` }));
  }));
  $("legend-box").hidden = kinds.length === 0;
}

/** The tokens on the board (mission tokens by kind and state, traps, bombs). */
function renderTokenLegend(view) {
  const rows = tokenLegend(view);
  $("token-legend").replaceChildren(...rows.map((r) =>
    h("li", { "data-token-legend": r.kind }, h("span", { class: "icon", text: r.mark }), h("span", { text: r.text }))));
  $("token-legend-box").hidden = rows.length === 0;
}

/** Is it my side's own turn (not a decision asked of me in another's turn)? */
function myOwnTurn(view) {
  const team = myTeam();
  if (view.phase.phase === "dark_legion") return state.seat !== null && view.dark_legion.seat === state.seat;
  if (view.phase.phase === "corporation" || view.phase.phase === "equipment") return !!team && /** @type {any} */ (view.phase).team === team.team;
  return false;
}

function renderTurnInfo(view) {
  const me = state.seat !== null && view.to_act === state.seat;
  let t;
  if (view.phase.phase === "finished") t = "The mission is over.";
  else if (me && (view.pending?.decision === "reaction" || !myOwnTurn(view))) t = "Your decision";
  else if (me) t = state.selected !== null ? `Your turn — ${figName(view, state.selected)} selected` : "Your turn";
  else if (view.to_act === null) t = "Waiting…";
  else if (view.dark_legion.seat === null && view.to_act === view.dark_legion.ai_seat) t = "The Dark Legion AI is playing…";
  else t = `Waiting for ${seatName(view.to_act)}…`;
  const el = $("turn-info");
  el.textContent = t;
  const f = view.figures.find((x) => x.id === state.selected);
  if (f) {
    el.append(h("span", { id: "sel-info", text: ` — health ${f.health}, actions ${f.actions_used}/${f.actions_allowed}${
      f.weapon ? ", " + words(f.weapon) : ""}${f.items.length ? ", carries " + f.items.map(words).join(", ") : ""}` }));
  }
  el.classList.toggle("mine", me);
  // The tab's title tells a player in another tab that the game waits for them.
  const waitsForMe = me && view.phase.phase !== "finished";
  document.title = waitsForMe ? `● ${t.split(" — ")[0]} — Citadel` : "Citadel";
  if (waitsForMe && !alerted) chime();
  alerted = waitsForMe;
}

let alerted = false;
/** A short chime when the game starts waiting for you (the "Sound" setting). */
function chime() {
  if (localStorage.getItem("citadel:sound") !== "1") return;
  /** @type {any} */ (window).citadel.chimes++;
  try {
    const ac = new AudioContext();
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ac.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ac.currentTime + 0.4);
    osc.connect(gain).connect(ac.destination);
    osc.start();
    osc.stop(ac.currentTime + 0.4);
  } catch { /* no audio: the title still says it */ }
}

function decisionTitle(view, p) {
  if (!p) return view.phase.phase === "equipment" ? `Equipment draft — ${plural(myTeam()?.credits ?? 0, "credit")} left` : "Choose";
  switch (p.decision) {
    case "white_entrance": return "Choose your entrance (click a white marker or a button)";
    case "red_entrance": return `Choose a red entrance for the ${creatureName(p.kind)}`;
    case "force_option": return `${forceCard(p.card)?.name ?? "Force card"}: choose which creatures arrive`;
    case "place_figures": return `Place the Dark Legion on ${view.tiles[p.tile]?.name ?? "the tile"}: ${p.kinds.map(creatureName).join(", ")}`;
    case "reveal_tile": return "Choose a tile to reveal";
    case "event_figure": return `${eventName(p.card)}: choose a figure`;
    case "event_tile": return `${eventName(p.card)}: choose a tile`;
    case "event_square": return `${eventName(p.card)}: choose a square`;
    case "event_corporation": return `${eventName(p.card)}: choose a corporation`;
    case "discard_item": return `${figName(view, p.figure)} must discard an item`;
    case "keep_secondary": return "Secondary mission: keep one of these two cards (only you will see it)";
    case "reaction": return `React to the roll${p.dice.length ? ` [${p.dice.map((d) => d.face).join(", ")}]` : ""} for ${figName(view, p.figure)}?`;
    case "start_square": return `Place ${figName(view, p.figure)} on the start tile`;
    case "mission_placement": return `Place the ${creatureName(p.kind)} next to the portal`;
    case "debris_square": return `Place debris on tile 1 (${p.left} left)`;
    case "call_reinforcements": return `Call the next event's reinforcements? (${plural(p.calls_left, "call")} left this mission)`;
    case "alter_sectors": return `${eventName(p.card)}: turn one sector a quarter turn with everything on it, swap two sectors, or leave the board as it is`;
    case "card_window": return "A turn starts: play one of your Doomtrooper cards, or pass";
    case "card_square": return `${twoUseUseName(p.card_use)}: choose the square for ${figName(view, p.figure)}`;
    case "card_move": return `${twoUseUseName(p.card_use)}: move (${p.left} left), or pass`;
    case "card_control": return `Commanding Voice: act with ${figName(view, p.figure)} (${p.left} left), or pass`;
    default: return words(p.decision);
  }
}

/** What another player is deciding, in words everyone may read. */
function publicDecision(p) {
  if (!p) return "to decide";
  switch (p.decision) {
    case "white_entrance": return "to choose an entrance";
    case "red_entrance": return "to choose where the creature enters";
    case "force_option": return "to choose a force card's creatures";
    case "place_figures": return "to place the Dark Legion";
    case "reveal_tile": return "to choose a tile to reveal";
    case "discard_item": return "to discard an item";
    case "keep_secondary": return "to keep a secondary mission";
    case "reaction": return "to react";
    case "start_square": return "to place their Doomtroopers";
    case "mission_placement": return "to place a creature next to the portal";
    case "debris_square": return "to place debris";
    case "call_reinforcements": return "to call reinforcements or not";
    case "alter_sectors": return "to change the board (Nepharite Altered Reality)";
    case "card_window": return "to play a Doomtrooper card or pass";
    case "card_square": case "card_move": case "card_control": return "to resolve a Doomtrooper card";
    default: return "to decide on an event";
  }
}

function renderDecision(view, a, kinds) {
  const box = $("decision");
  const mineToAnswer = a.decisions.length > 0;
  if (!mineToAnswer && !view.pending) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const kids = [h("h3", { text: mineToAnswer ? decisionTitle(view, view.pending) : `Waiting for ${seatName(view.to_act)} ${publicDecision(view.pending)}…` })];
  if (mineToAnswer) {
    if (kinds.length > 1) {
      kids.push(h("div", { class: "row" }, h("span", { text: "Placing: " }), ...kinds.map((k) =>
        h("button", { type: "button", "aria-pressed": String(k === state.placeKind), text: words(k),
          onclick: () => { state.placeKind = k; renderGame(); } }))));
    }
    const shown = a.decisions.filter((c) => !PLACEMENTS.has(c.type) || (placeKind(c) === state.placeKind && a.decisions.length <= 40));
    if (a.decisions.some((c) => PLACEMENTS.has(c.type))) {
      const placing = a.decisions.some((c) => PLACEMENTS.has(c.type) && c.type !== "choose_square");
      kids.push(h("p", { class: "muted", text: placing ? "Click a highlighted square to place." : "Click a highlighted square to choose it." }));
    }
    const reacts = a.decisions.filter((c) => c.type === "react");
    if (reacts.length && reacts.length === state.legal.length && (reacts.length === 1 || autoPassOn())) {
      kids.push(h("p", { class: "muted", text: reacts.length === 1 ? "No card in your hand can answer this: passing in a moment." : "Auto-pass is on: passing in a moment." }));
    }
    // Secondary missions: what each card asks, from the content, before choosing.
    const keep = shown.filter((c) => c.type === "keep_secondary");
    if (keep.length) kids.push(h("ul", { class: "secondary-cards" }, ...keep.map((c) =>
      h("li", { "data-secondary": c.card }, h("strong", { text: secondaryName(c.card) }), h("span", { text: ` — ${secondaryText(c.card)}` })))));
    const draft = shown.some((c) => c.type === "pick_equipment");
    kids.push(draft ? draftNode(view, shown) : h("div", { class: "row options" }, ...shown.map((c, i) =>
      h("button", { type: "button", "data-option": i, text: `${i < 9 ? i + 1 + ". " : ""}${describeCommand(view, c)}`,
        title: reactTitle(view, c), onclick: () => sendCommand(c) }))));
    box.classList.toggle("draft", draft);
    if (view.pending?.decision === "card_window") {
      const plays = cardWindowPlays(view);
      if (plays) kids.push(plays);
    }
  } else box.classList.remove("draft");
  box.replaceChildren(...kids);
}

/**
 * The start-of-turn card window (1993): the card uses playable now, so the
 * decision asks for what it offers and not only "Pass". One button per
 * use: the play itself when it has one target; else it opens that use's
 * targets in the hand box ("Your cards"), the one place they are chosen.
 * @param {GameView} view
 */
function cardWindowPlays(view) {
  const plays = state.legal.filter((c) => c.type === "play_two_use");
  if (!plays.length) return null;
  const uses = new Map();
  for (const c of plays) {
    const k = `${c.card}:${c.card_use}`;
    if (!uses.has(k)) uses.set(k, []);
    uses.get(k).push(c);
  }
  return h("div", { class: "row card-window-plays" },
    h("span", { class: "muted", text: "Play a card now:" }),
    ...[...uses].map(([k, cmds]) => {
      const name = twoUseUseName(cmds[0].card_use);
      return cmds.length === 1
        ? h("button", { type: "button", "data-card-play": k, title: describeCommand(view, cmds[0]), text: `${name}${twoUseTarget(view, cmds[0])}`,
          onclick: () => sendCommand(cmds[0]) })
        : h("button", { type: "button", "data-card-play": k, "aria-label": `${name}: choose the target in Your cards`, text: `${name}…`,
          onclick: () => { state.cardChoice = k; renderGame(); $("hand-box").scrollIntoView({ block: "nearest" }); } });
    }));
}

/** A reaction button's tooltip: the card's effect, from the content. */
function reactTitle(view, c) {
  if (c.type !== "react" || c.card === null) return null;
  const kind = view.teams.find((t) => t.hand)?.hand?.[c.card];
  return kind ? dtCardText(kind) || null : null;
}

/**
 * The equipment draft (EQP-2..5): one card per item on offer, with its
 * rank, cost, kind and effect from the content, and a button per
 * Doomtrooper it may go to. Every button keeps its `data-option` index
 * (keys 1–9) and its full label for screen readers; "Done" passes.
 */
function draftNode(view, cmds) {
  const items = new Map();
  const other = [];
  cmds.forEach((c, i) => {
    if (c.type !== "pick_equipment") { other.push([c, i]); return; }
    if (!items.has(c.item)) items.set(c.item, []);
    items.get(c.item).push([c, i]);
  });
  const cards = [...items].map(([id, picks]) => {
    const info = itemInfo(id) ?? { name: words(id), rank: "?", cost: "?", kind: "", text: "", profile: "" };
    return h("li", { class: "draft-item", "data-item": id },
      h("b", { class: "draft-name", text: info.name }),
      h("div", { class: "draft-kind" }, h("span", { class: "draft-meta", text: `rank ${info.rank} · ${plural(Number(info.cost), "credit")}` }),
        // An equipment card's text says what kind it is; a weapon's dice are its numbers.
        info.profile ? document.createTextNode(` · ${info.kind}: ${info.profile}`) : null),
      info.text ? h("div", { class: "draft-text", text: info.text }) : null,
      h("div", { class: "draft-to" }, ...picks.map(([c, i]) =>
        h("button", { type: "button", "data-option": i, "data-figure": c.figure, onclick: () => sendCommand(c) },
          h("span", { class: "sr-only", text: `${info.name} (${plural(Number(info.cost), "credit")}) ` }),
          h("span", { text: `for ${figName(view, c.figure)}` })))));
  });
  return h("div", { class: "draft-box" },
    h("div", { class: "row" }, ...other.map(([c, i]) =>
      h("button", { type: "button", "data-option": i, text: describeCommand(view, c), onclick: () => sendCommand(c) })),
      h("span", { class: "muted", text: "Each card goes to one Doomtrooper: one weapon and up to 3 other cards each." })),
    h("ul", { class: "draft-list" }, ...cards));
}

function renderActions(view, a, sel) {
  const box = $("actions");
  const has = (t) => a.general.find((c) => c.type === t);
  const kids = [];
  if (state.mode) {
    kids.push(h("span", { class: "hint", text: `${state.mode.label}: click a highlighted square.` }),
      h("button", { type: "button", text: "Cancel (Esc)", onclick: () => { state.mode = null; renderGame(); } }));
  }
  const endAct = has("end_activation"), endTurn = has("end_turn");
  kids.push(h("button", { type: "button", id: "end-activation", disabled: !endAct, title: "A", text: "End activation (A)", onclick: () => endAct && sendCommand(endAct) }));
  kids.push(h("button", { type: "button", id: "end-turn", disabled: !endTurn, title: "E", text: "End turn (E)", onclick: () => endTurn && sendCommand(endTurn) }));
  // The selected figure's other actions, then cards and the rest.
  const figureCmds = sel ? [...sel.attacks, ...sel.other] : [];
  const cards = a.general.filter((c) => c.type === "play_card" && (state.selected === null || c.figure === state.selected));
  // The start-of-turn card window lists its plays in the decision box.
  const inCardWindow = view.pending?.decision === "card_window" && a.decisions.length > 0;
  const rest = a.general.filter((c) => !["end_activation", "end_turn", "play_card"].includes(c.type)
    && !(inCardWindow && c.type === "play_two_use"));
  const groups = new Map();
  const sprays = [];
  for (const c of [...figureCmds, ...cards, ...rest]) {
    const choice = squareChoice(view, c);
    if (choice) {
      if (!groups.has(choice.label)) groups.set(choice.label, { type: c.type, cmds: new Map() });
      groups.get(choice.label).cmds.set(key(choice.at), c);
    } else if (c.type === "spray") {
      sprays.push(c);
    } else {
      kids.push(h("button", { type: "button", class: `act ${c.type}`, text: describeCommand(view, c), onclick: () => sendCommand(c) }));
    }
  }
  for (const [label, g] of groups) {
    kids.push(h("button", { type: "button", class: `act square ${g.type}`, text: `${label}…`,
      onclick: () => { state.mode = { label, cmds: g.cmds }; renderGame(); } }));
  }
  // A Gehenna Puker's line: a compass of the offered directions (WPN-5).
  if (sprays.length) {
    const at = (d) => sprays.find((c) => c.direction === d);
    kids.push(h("div", { class: "compass", role: "group", "aria-label": `${figName(view, sprays[0].figure)}: spray a line` },
      ...DIRECTIONS.flatMap((d, i) => {
        const c = at(d);
        const b = h("button", { type: "button", class: "act spray", "data-direction": d, disabled: !c,
          "aria-label": c ? describeCommand(view, c) : `${DIRECTION_WORD[d]} (not offered)`, title: c ? describeCommand(view, c) : "",
          text: `${DIRECTION_ARROW[d]} ${d.toUpperCase()}`, onclick: () => c && sendCommand(c) });
        // The centre of the 3×3 compass is the figure itself.
        return i === 4 ? [h("span", { class: "compass-centre", text: "◎" }), b] : [b];
      })));
  }
  box.replaceChildren(...kids);
}

function renderPanel(view) {
  const rounds = content.data?.missions?.find((m) => m.id === view.mission)?.rounds;
  $("round").textContent = `${view.round === 0 ? "Before round 1" : `Round ${view.round}${rounds ? ` of ${rounds}` : ""}`}${view.final_round ? " · FINAL ROUND" : ""} · ${
    view.phase.phase === "equipment" ? "equipment draft" : view.phase.phase === "corporation" ? `${words(view.teams.find((t) => t.team === /** @type {any} */ (view.phase).team)?.corporation ?? "")} turn`
      : view.phase.phase === "dark_legion" ? "Dark Legion turn" : "finished"}`;
  $("round").classList.toggle("final", view.final_round);
  const rows = view.teams.map((t) => {
    const acting = view.phase.phase === "corporation" && view.phase.team === t.team;
    const figs = t.figures.map((id) => view.figures.find((f) => f.id === id)).filter(Boolean);
    return h("tr", { class: acting ? "acting" : "", "data-team": t.team },
      h("td", {}, h("span", { class: "chip", style: `background:${CORP_COLOR[t.corporation]}` }),
        h("b", { text: words(t.corporation) }), h("br"), presence(t.seat), h("span", { class: "muted", text: seatName(t.seat) })),
      h("td", { text: `${t.pp} PP`, title: "promotion points" }),
      h("td", {}, document.createTextNode(`rank ${t.rank}`),
        ...(t.extra_actions !== undefined && t.extra_actions !== null
          ? [h("br"), h("span", { class: "extra-actions", "data-extra-actions": String(t.extra_actions),
            title: "the team's pool of actions beyond a Doomtrooper's own two", text: `Extra actions: ${t.extra_actions}` })]
          : [])),
      h("td", { title: "actions left", text: figs.map((f) => `${figLabel(view, f)} ${
        f.place.at === "eliminated" ? "out" : f.place.at === "exited" ? "exited" : Math.max(0, f.actions_allowed - f.actions_used)}`).join(" · ") }),
      h("td", { title: t.secondary ? `reckless tokens · cards in hand · secondary mission ${secondaryName(t.secondary)}: ${secondaryText(t.secondary)}` : "reckless tokens · cards in hand",
        text: `${t.reckless ? "⚠" + t.reckless + " " : ""}🂠${t.hand_size + (t.cards_size ?? 0)}${t.secondary ? " ◎" + secondaryName(t.secondary) : ""}` }));
  });
  const dl = view.dark_legion;
  rows.push(h("tr", { class: view.phase.phase === "dark_legion" ? "acting" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${DL_COLOR}` }), h("b", { text: "Dark Legion" }), h("br"),
      h("span", { class: "muted", text: dl.seat === null ? "AI" : seatName(dl.seat) })),
    h("td", { text: `${dl.pp} PP` }), h("td", { text: `band ${dl.band}` }),
    h("td", { title: "force cards left to draw", text: `${plural(view.force_pile, "force card")} left` }), h("td", { text: "" })));
  $("sides").replaceChildren(h("tbody", {}, ...rows));
  const hand = myTeam()?.hand ?? null;
  // A 1993 game: the team's two-use cards (sent to their owner only).
  const classic = editionOf(view.mission) === "classic";
  const twoUse = classic && myTeam() ? myTeam()?.cards ?? [] : null;
  $("hand-box").hidden = state.spectator || (!hand && !twoUse);
  $("hand").replaceChildren(...(state.spectator ? [] : [...(hand ?? []).map((c, i) => h("li", { "data-card": i, "data-kind": c },
    h("b", { text: dtCardName(c) }),
    h("span", { class: "muted", text: content.data?.dt_cards?.find((d) => d.kind === c)?.reaction ? " ⚡ reaction" : "" }),
    dtCardText(c) ? h("div", { class: "card-text", text: dtCardText(c) }) : null)),
  ...(twoUse ?? []).map((n, i) => twoUseItem(view, n, i))]));
  const held = (hand?.length ?? 0) + (twoUse?.length ?? 0);
  $("hand-box").querySelector("h3").textContent = held ? "Your cards" : "Your cards: none";
  // 1993 cards whose effect lasts (the round or the mission): public.
  const lasting = view.effects.cards ?? [];
  $("effects-box").hidden = lasting.length === 0;
  $("card-effects").replaceChildren(...lasting.map((e) => h("li", { "data-card-use": e.card_use }, cardEffectText(view, e))));
}

/**
 * One 1993 two-use card of the hand box: its name, then each use with what
 * it does. A use the legal list offers now is marked and has a button: the
 * command itself when there is one, else a choice of its targets (the same
 * commands the action buttons send). In a 1993 reaction window the card's
 * fitting use answers it (`react` with the card's index in the hand).
 * @param {GameView} view @param {number} n the card's number @param {number} i its index in `cards`
 */
function twoUseItem(view, n, i) {
  const def = twoUseCard(n);
  const win = view.pending?.decision === "reaction" ? view.pending.window : null;
  const uses = def?.uses ?? [];
  return h("li", { class: "two-use", "data-card": i, "data-two-use": n },
    h("b", { class: "two-use-name", text: twoUseName(n) }), h("span", { class: "muted", text: ` · card ${n}` }),
    ...uses.map((u) => {
      const cmds = state.legal.filter((c) => c.type === "play_two_use" && c.card === n && c.card_use === u.card_use);
      const react = win !== null && u.answers === win ? state.legal.find((c) => c.type === "react" && c.card === i) : null;
      if (react) cmds.push(react);
      const open = state.cardChoice === `${n}:${u.card_use}` && cmds.length > 1;
      const label = `Play ${u.name}`;
      return h("div", { class: `use ${u.role}${cmds.length ? " legal" : ""}`, "data-use": u.card_use, "data-legal": String(cmds.length > 0) },
        h("div", { class: "use-head" },
          h("span", { class: "use-role", text: u.role === "boon" ? "Boon" : "Sabotage" }),
          h("b", { text: u.name }),
          u.answers ? h("span", { class: "muted", title: "played in answer to a roll, when the game asks", text: " ⚡ answers a roll" }) : null,
          cmds.length === 1
            ? h("button", { type: "button", class: "play-use", "data-play-use": u.card_use, "aria-label": `${label}: ${describeCommand(view, cmds[0])}`,
              title: describeCommand(view, cmds[0]), text: "Play", onclick: () => sendCommand(cmds[0]) })
            : cmds.length > 1
              ? h("button", { type: "button", class: "play-use", "data-play-use": u.card_use, "aria-expanded": String(open), "aria-label": `${label}: choose the target`,
                text: open ? "Play… (close)" : "Play…", onclick: () => { state.cardChoice = open ? null : `${n}:${u.card_use}`; state.cardFrom = null; renderGame(); } })
              : null),
        h("div", { class: "card-text", text: u.text }),
        open ? useTargets(view, u, cmds) : null);
    }));
}

/**
 * The targets of an open card use, one button each. A use played on a pair
 * of sectors (Command Interference: a sector, then a neighbour) asks in two
 * steps, the first sector and then where to, rather than one button per
 * pair.
 * @param {GameView} view @param {{name: string}} u @param {Command[]} cmds
 */
function useTargets(view, u, cmds) {
  const button = (c) => h("button", { type: "button", text: c.type === "play_two_use" ? `${u.name}${twoUseTarget(view, c)}` : describeCommand(view, c),
    onclick: () => sendCommand(c) });
  const pairs = cmds.every((c) => c.type === "play_two_use" && c.tile !== null && c.tile !== undefined && c.to_tile !== null && c.to_tile !== undefined);
  if (!pairs) return h("div", { class: "use-targets row" }, ...cmds.map(button));
  const from = [...new Set(cmds.map((c) => c.tile))];
  const chosen = from.includes(state.cardFrom) ? state.cardFrom : null;
  return h("div", { class: "use-targets" },
    h("div", { class: "row", role: "group", "aria-label": `${u.name}: from which sector` }, h("span", { class: "muted", text: "From:" }),
      ...from.map((t) => h("button", { type: "button", "data-from-tile": t, "aria-pressed": String(t === chosen), text: tileName(view, t),
        onclick: () => { state.cardFrom = t === chosen ? null : t; renderGame(); } }))),
    chosen === null ? null : h("div", { class: "row", role: "group", "aria-label": `${u.name}: to which sector` }, h("span", { class: "muted", text: "To:" }),
      ...cmds.filter((c) => c.tile === chosen).map((c) => h("button", { type: "button", "data-to-tile": c.to_tile, text: tileName(view, c.to_tile),
        title: `${u.name}${twoUseTarget(view, c)}`, onclick: () => sendCommand(c) }))));
}

/** A dot: the seat's player is online, away, or played by the computer. */
function presence(seat) {
  const s = state.lobby?.seats[seat];
  if (!s || s.controller !== "human") return null;
  const st = s.bot_playing ? "bot" : s.connected ? "online" : "away";
  const label = { online: "online", away: "away", bot: "away: the computer plays for now" }[st];
  return h("span", { class: `presence ${st}`, title: label, role: "img", "aria-label": label });
}

function renderScoreboard(view) {
  const box = $("scoreboard");
  if (view.phase.phase !== "finished" || state.scoreboardClosed) { box.hidden = true; return; }
  box.hidden = false;
  const e = state.ended;
  if (state.code) {
    const mine = state.seat === null || !e ? null : view.dark_legion.seat === state.seat ? e.dl_wins : e.winners.includes(state.seat);
    markFinished(state.code, mine === null ? null : mine ? "won" : "lost");
  }
  const result = e?.result ?? view.phase.result;
  const winners = new Set(e?.winners ?? []);
  const rows = view.teams.map((t) => h("tr", { class: winners.has(t.seat) ? "winner" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${CORP_COLOR[t.corporation]}` }), h("span", { text: words(t.corporation) })),
    h("td", { text: seatName(t.seat) }), h("td", { text: `${t.pp} PP` }), h("td", { text: `rank ${t.rank}` }),
    h("td", { text: winners.has(t.seat) ? "★ winner" : "" })));
  const dlWin = e ? e.dl_wins : false;
  rows.push(h("tr", { class: dlWin ? "winner" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${DL_COLOR}` }), h("span", { text: "Dark Legion" })),
    h("td", { text: view.dark_legion.seat === null ? "AI" : seatName(view.dark_legion.seat) }),
    h("td", { text: `${view.dark_legion.pp} PP` }), h("td", { text: `band ${view.dark_legion.band}` }),
    h("td", { text: dlWin ? "★ winner" : "" })));
  box.replaceChildren(h("div", { class: "card" },
    h("h2", { text: result === "success" ? "Mission accomplished" : result === "failure" ? "Mission failed" : "Mission over" }),
    h("p", { text: `After ${view.round} round${view.round === 1 ? "" : "s"}.` }),
    h("table", {}, h("thead", {}, h("tr", {}, ...["Side", "Player", "PP", "Rank", ""].map((t) => h("th", { text: t })))), h("tbody", {}, ...rows)),
    h("div", { class: "row" },
      h("button", { type: "button", text: "Show the board", onclick: () => { state.scoreboardClosed = true; renderGame(); } }),
      h("button", { type: "button", id: "watch-replay", "data-replay": state.code, text: "Replay",
        onclick: () => { const code = state.code; if (code) openReplay(code); } }),
      state.campaign ? h("button", { type: "button", id: "back-to-campaign", text: "Campaign standings",
        onclick: () => { const c = state.campaign; if (c) openCampaign(c); } }) : null,
      h("button", { type: "button", text: "Home", onclick: () => goHome() }))));
}

// ---------------------------------------------------------------- forms, keys

$("create").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const dl = f.get("dl");
  const name = String(f.get("name")).trim();
  const options = {
    mission: String(f.get("mission") || "ce-c1m1"), seats: Number(f.get("seats")), starting_rank: Number(f.get("starting_rank") || 1),
    dark_legion: dl === "ai" ? { mode: "ai" } : dl === "host" ? { mode: "seat", seat: 0 } : { mode: "drawn" },
    turn_seconds: f.get("turn") ? Number(f.get("turn")) : null,
  };
  try {
    const res = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(options) });
    const body = /** @type {GameCreated & Partial<ErrorBody>} */ (await res.json());
    if (!res.ok) return toast(body.message ?? `error ${res.status}`);
    localStorage.setItem("citadel:name", name);
    state.name = name; state.token = null;
    connect(body.code, { as: "player", name });
  } catch (err) {
    toast(`Could not create the game: ${err}`);
  }
};

$("join").onsubmit = (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const code = String(f.get("code")).trim().toUpperCase();
  const name = String(f.get("name")).trim();
  localStorage.setItem("citadel:name", name);
  const as = /** @type {any} */ (e).submitter?.value ?? "player";
  state.name = name;
  const saved = myGames().find((g) => g.code === code);
  if (as === "spectator") { state.token = null; connect(code, { as: "spectator", name }); }
  else if (saved) { state.token = saved.token; connect(code, { as: "resume", token: saved.token }); }
  else { state.token = null; connect(code, { as: "player", name }); }
};

$("chat-form").onsubmit = (e) => {
  e.preventDefault();
  const input = /** @type {HTMLInputElement} */ (/** @type {HTMLFormElement} */ (e.target).elements.namedItem("text"));
  if (input.value.trim()) send({ type: "chat", text: input.value });
  input.value = "";
};

const soundBox = /** @type {HTMLInputElement} */ ($("sound"));
soundBox.checked = localStorage.getItem("citadel:sound") === "1";
soundBox.onchange = () => {
  if (soundBox.checked) localStorage.setItem("citadel:sound", "1");
  else localStorage.removeItem("citadel:sound");
};

const autoPassBox = /** @type {HTMLInputElement} */ ($("auto-pass"));
autoPassBox.checked = autoPassOn();
autoPassBox.onchange = () => {
  if (autoPassBox.checked) localStorage.setItem("citadel:auto-pass", "1");
  else localStorage.removeItem("citadel:auto-pass");
  autoPass.key = null;
  renderGame();
};

$("home-link").onclick = (e) => { e.preventDefault(); goHome(); };

document.addEventListener("keydown", (e) => {
  const t = /** @type {HTMLElement} */ (e.target);
  if (t.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (!$("replay").hidden) {
    if (e.key === "ArrowLeft") $("replay-prev").click();
    else if (e.key === "ArrowRight") $("replay-next").click();
    else if (e.key === " " && t.tagName !== "BUTTON") { e.preventDefault(); $("replay-play").click(); }
    return;
  }
  if ($("game").hidden) return;
  const k = e.key.toLowerCase();
  if (k === "escape") { state.selected = null; state.mode = null; state.cardChoice = null; state.cardFrom = null; renderGame(); }
  else if (k === "e") /** @type {HTMLButtonElement} */ ($("end-turn"))?.click();
  else if (k === "a") /** @type {HTMLButtonElement} */ ($("end-activation"))?.click();
  else if (/^[1-9]$/.test(k)) /** @type {HTMLButtonElement|null} */ ($("decision").querySelector(`button[data-option="${Number(k) - 1}"]`))?.click();
});

// ---------------------------------------------------------------- start

// A link (or typed address) to #campaign/CODE or #replay/CODE opens that screen.
window.addEventListener("hashchange", () => {
  const [kind, arg] = location.hash.slice(1).split("/", 2);
  if (kind === "campaign" && arg && (arg.toUpperCase() !== campaign.code || $("campaign").hidden)) openCampaign(arg);
  else if (kind === "replay" && arg && (arg.toUpperCase() !== replay.code || $("replay").hidden)) openReplay(arg);
  else if (!arg && kind && kind.toUpperCase() !== state.code) openGameLink(kind.toUpperCase());
});

/** `#CODE`: resume the seat this browser has there, or join as a player. */
function openGameLink(code) {
  const saved = myGames().find((g) => g.code === code);
  if (saved) {
    leaveGame();
    state.token = saved.token; state.name = saved.name ?? ""; state.campaign = saved.campaign ?? null;
    connect(code, { as: "resume", token: saved.token });
    return;
  }
  if (!/^[23456789A-HJKMNP-Z]{6}$/.test(code)) return;
  // An invite link: join at once under the name this browser knows, or
  // open the join form with the code filled in.
  const name = localStorage.getItem("citadel:name") ?? session()?.name ?? "";
  if (name) { leaveGame(); state.name = name; connect(code, { as: "player", name }); return; }
  const form = /** @type {HTMLFormElement} */ ($("join"));
  /** @type {HTMLInputElement} */ (form.querySelector("input[name=code]")).value = code;
  /** @type {HTMLInputElement} */ (form.querySelector("input[name=name]")).focus();
  toast(`You are invited to game ${code}: enter your name and join.`, "info");
}

/**
 * The create form's mission picker: every mission from the content, by
 * campaign and in record order, with its briefing. A mission the server
 * cannot play yet can be read but not created: it is greyed, and its
 * briefing says what it still needs.
 */
function fillMissionPicker() {
  const form = /** @type {HTMLFormElement} */ ($("create"));
  const select = /** @type {HTMLSelectElement} */ (form.querySelector("select[name=mission]"));
  const submit = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
  const missions = content.data?.missions ?? [];
  if (!missions.length) return;
  const old = select.value;
  // By edition first (the Collectors Edition's campaigns, then the 1993
  // edition), then by campaign.
  const groups = new Map();
  for (const m of missions) {
    const label = m.edition === "classic" ? "1993 edition"
      : m.campaign ? `Collectors Edition: Campaign ${m.campaign}` : "Collectors Edition: other missions";
    groups.set(label, [...(groups.get(label) ?? []), m]);
  }
  const order = [...groups.keys()].sort((a, b) => Number(a === "1993 edition") - Number(b === "1993 edition"));
  select.replaceChildren(...order.map((label) => h("optgroup", { label, "data-edition": label === "1993 edition" ? "classic" : "ce" },
    ...groups.get(label).map((m) => h("option", {
      value: m.id, class: m.playable === false ? "unplayable" : "", "data-playable": String(m.playable !== false), "data-edition": m.edition ?? "ce",
      text: `${m.name} (${missionName(m.id)}, ${m.rounds ? plural(m.rounds, "round") : "no time limit"})${m.playable === false ? " — not playable yet" : ""}`,
    })))));
  const playable = missions.filter((m) => m.playable !== false);
  select.value = playable.some((m) => m.id === old) ? old : (playable[0] ?? missions[0]).id;
  const rank = /** @type {HTMLInputElement} */ (form.querySelector("input[name=starting_rank]"));
  const show = () => {
    const m = missionDef(select.value);
    // Ranks 1–6 in the 1993 edition (CRK-1), 1–12 in the CE.
    const top = m?.edition === "classic" ? 6 : 12;
    rank.max = String(top);
    if (Number(rank.value) > top) rank.value = String(top);
    const label = rank.closest("label")?.firstChild;
    if (label) label.textContent = `Starting rank (1–${top}; every player, the Dark Legion too) `;
    $("mission-brief").replaceChildren(...(m ? [briefingNode(m)] : []));
    submit.disabled = !m || m.playable === false;
    submit.textContent = m && m.playable === false ? "Not playable yet" : "Create game";
  };
  select.onchange = show;
  show();
}

// Zoom: buttons as well as the wheel, a drag and a pinch (board.js).
$("zoom-in").onclick = () => board.zoomBy(1.5);
$("zoom-out").onclick = () => board.zoomBy(1 / 1.5);
$("zoom-fit").onclick = () => board.fit();
board.onZoom = (z) => {
  /** @type {HTMLButtonElement} */ ($("zoom-out")).disabled = z <= 1.01;
  /** @type {HTMLButtonElement} */ ($("zoom-fit")).disabled = z <= 1.01;
  /** @type {HTMLButtonElement} */ ($("zoom-in")).disabled = z >= 5.99;
  $("zoom-level").textContent = z <= 1.01 ? "whole board" : `${z.toFixed(1)}×`;
};
board.onZoom(board.zoom);

$("rules-open").onclick = () => {
  renderRules();
  /** @type {HTMLDialogElement} */ ($("rules")).showModal();
};
$("rules-close").onclick = () => /** @type {HTMLDialogElement} */ ($("rules")).close();

$("copy-invite").onclick = async () => {
  const link = $("copy-invite").dataset.link ?? "";
  try {
    await navigator.clipboard.writeText(link);
    toast("Invite link copied: send it to the other players.", "info");
  } catch {
    // No clipboard (plain http, or refused): select the link so it can be copied by hand.
    const r = document.createRange();
    r.selectNodeContents($("invite-link"));
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(r);
    toast("Copy the selected link and send it to the other players.", "info");
  }
};

// The content tables (card, item and creature names) for every screen.
fetch("/api/content").then((r) => (r.ok ? r.json() : null)).then((/** @type {ContentDoc|null} */ data) => {
  if (!data) return;
  setContent(data);
  if (state.view) useEdition(editionOf(state.view.mission));
  fillMissionPicker();
  if (state.view) renderGame();
  if (state.lobby) renderLobby();
}, () => {});

(function boot() {
  const hash = location.hash.slice(1);
  const [kind, arg] = hash.includes("/") ? hash.split("/", 2) : ["game", hash];
  if (kind === "campaign" && arg) return openCampaign(arg);
  if (kind === "replay" && arg) return openReplay(arg);
  show("home");
  renderHome();
  if (arg) openGameLink(arg.toUpperCase());
})();
