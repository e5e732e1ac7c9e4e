// The Citadel browser client's shell. Thin: it shows what the server sends
// and offers exactly the server's `legal` commands; it holds no rules.
// It knows no game either: the connection (hello, resume, seq/ack, a
// resync on a gap), snapshots and events with their view patches, the
// lobby's seats, ready and start, chat, hotseat, replays, "my games",
// accounts and the create form's game picker are here; a game's board,
// words, panels, options and lobby choice are its module in games/<id>/,
// picked by the kind the server names (`welcome.kind`, `lobby.kind`, a
// replay's `kind`; games/index.js) and asked only through the interface in
// docs/ARCHITECTURE.md ("The browser client: shell and game modules").
// Everything a game owns (a view, a command, an event, its static data, a
// seat's lobby choice) is opaque JSON here.
// Plain ES modules, no build step; types come from protocol.ts (the
// WebSocket messages) and http.ts (the HTTP bodies), both generated (JSDoc).
// @ts-check
import { CloseCode, PROTOCOL_VERSION } from "./protocol.js";
import { applyPatch } from "./patch.js";
import { $, h } from "./dom.js";
import { DEFAULT_KIND, GAMES, LEGACY_KIND, gameFor, hasGame } from "./games/index.js";

/** @typedef {any} GameView a game's view (the game's JSON; its module reads it) */
/** @typedef {any} Command a game's command (the game's JSON) */
/** @typedef {any} StaticData what a game draws once (the game's JSON) */
/** @typedef {import("./protocol").ServerMsg} ServerMsg */
/** @typedef {import("./protocol").LobbyView} LobbyView */
/** @typedef {import("./http").ErrorBody} ErrorBody */
/** @typedef {import("./http").Me} Me */
/** @typedef {import("./http").MyGame} MyGame */
/** @typedef {import("./http").LoggedIn} LoggedIn */
/** @typedef {import("./http").GameCreated} GameCreated */
/** @typedef {import("./http").Replay} Replay */
/** @typedef {import("./http").CatalogueGame} CatalogueGame */
/** @typedef {import("./http").OptionSpec} OptionSpec */

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
/**
 * The mounted game module (games/index.js): its parts are in the page and
 * it draws the shown game. The default one until the server names a kind
 * (`welcome`, `lobby`, a replay) or the create form picks another game;
 * see `mountGame`.
 * @type {ReturnType<typeof gameFor>}
 */
let game = /** @type {any} */ (null);

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
    lastSeq: 0, /** @type {GameView|null} */ view: null, /** @type {StaticData|null} */ staticData: null,
    /** The game's kind, from `welcome`. @type {string|null} */ kind: null,
    /** @type {Command[]} */ legal: [], /** @type {LobbyView|null} */ lobby: null,
    attempt: 0, timer: 0, closing: false, ref: 0, ready: false,
    // A `resync` was sent: `events` are ignored until the snapshot, as their
    // view patches are made against a view this connection does not hold.
    resyncing: false,
    /** @type {string|null} */ campaign: null,
    /** This connection's log, attached as `#log` while it is shown. */ logEl: logEl ?? h("ol", { id: "log" }),
    /** A hotseat player added on this device (not the page's first seat). */ local: false,
    /** The game module's own state for this connection (its `newConnState()`). */ game: game?.newConnState() ?? null,
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
    /** What the shown game draws once (`static_data`), and its kind. */
    get staticData() { return state.staticData; }, get kind() { return state.kind ?? game.id; },
    /** Hotseat: each seat this page holds (with what only it may see), which is shown, and whom the hand-over screen waits for. */
    get hotseat() {
      return {
        seats: hot.conns.map((c) => ({ seat: c.seat, name: c.name, shown: c === state, lastSeq: c.lastSeq, ...game.secretsOf(c) })),
        neutral: !!hot.neutral && state === hot.neutral, handover: hot.handover?.seat ?? null,
      };
    },
    /** Every message the page tried to send, newest last (tests read it). */
    sent: [],
    /** How many "your turn" chimes were played. */
    chimes: 0,
    /** How many "your turn" notifications were shown. */
    notifications: 0,
    /** Each batch of moves and whether it glided (tests read it). */
    glides: [],
    /** Feed a server message as if it came from the socket (tests show edited states with it). */
    receive(msg) { handle(msg); },
  },
});


// ---------------------------------------------------------------- the game module

// Each `<template data-slot="name">` of index.html gives way to a marker
// (a comment, which no selector sees); the mounted module's markup for
// that name (`slots`) stands right after it, and leaves with the module.
const slotAnchors = [...document.querySelectorAll("template[data-slot]")].map((slot) => {
  const name = /** @type {HTMLElement} */ (slot).dataset.slot ?? "";
  const anchor = document.createComment(`slot ${name}`);
  slot.replaceWith(anchor);
  return { name, anchor, /** @type {ChildNode[]} */ nodes: [] };
});
/**
 * The board element as the page has it, before any module draws on it:
 * each module mounted gets a fresh copy (see `mountGame`), so that no
 * listener, class or viewBox of the module before stays on it.
 */
const boardTemplate = /** @type {SVGSVGElement} */ ($("board").cloneNode(false));
/** What the shell does for a game (the interface's services). */
const services = {
  /** The connection the page shows (hotseat switches it). */
  get conn() { return state; },
  send, command: sendCommand, render: renderGame, renderLobby, toast, seatName, logLine, api, session,
  markFinished, openReplay, goHome, resumeGame, leaveGame, connect, show,
};

/**
 * Make `kind`'s module the page's: the one mounted before leaves (its
 * `unmount`, its slots' markup), this one's markup goes in and its `init`
 * runs (each time it is mounted), and every connection gets its state.
 * Returns false, changing nothing, when the page has no module for `kind`.
 * @param {string|null|undefined} kind
 */
function mountGame(kind) {
  if (!hasGame(kind)) return false;
  const next = gameFor(kind);
  if (next === game) return true;
  if (game) {
    game.unmount?.();
    game.board.svg.replaceChildren();
    for (const s of slotAnchors) { for (const n of s.nodes) n.remove(); s.nodes = []; }
  }
  game = next;
  $("board").replaceWith(boardTemplate.cloneNode(false));
  for (const s of slotAnchors) {
    const t = document.createElement("template");
    t.innerHTML = game.slots?.[s.name] ?? "";
    s.nodes = [...t.content.childNodes];
    s.anchor.after(...s.nodes);
  }
  game.init(services);
  for (const c of new Set([state, ...hot.conns, hot.neutral])) if (c) c.game = game.newConnState();
  game.board.onZoom = onZoom;
  onZoom(game.board.zoom);
  document.body.dataset.game = game.id;
  return true;
}

/**
 * Show a game of `kind` (the server named it): mount its module, or, when
 * this page has none, say so and go home. False when the page went home.
 * @param {string} kind
 */
function useKind(kind) {
  if (mountGame(kind)) return true;
  toast(`This page cannot show ${gameName(kind)} games yet: it has no client for "${kind}".`);
  goHome();
  return false;
}

/** The module to read a record of game `kind` with (a kept record without a kind is the legacy game's), or null. */
function moduleOf(kind) {
  const k = kind ?? LEGACY_KIND;
  return hasGame(k) ? gameFor(k) : null;
}

// ---------------------------------------------------------------- storage

function myGames() {
  try { return JSON.parse(localStorage.getItem("citadel:games") ?? "[]"); } catch { return []; }
}
function saveGame(code, token, seat, name, campaign = null, kind = null) {
  const old = myGames().find((g) => g.code === code);
  const games = myGames().filter((g) => g.code !== code);
  games.unshift({ code, token, seat, name, at: Date.now(), campaign: campaign ?? old?.campaign ?? null, finished: old?.finished ?? false,
    kind: kind ?? old?.kind ?? null,
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

/** Send one of `legal` as the shown connection's next command, and draw again. */
function sendCommand(command) {
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
      // The game's kind says which module reads everything that follows.
      if (!useKind(msg.kind ?? state.kind ?? game.id)) return;
      state.kind = msg.kind ?? game.id;
      state.attempt = 0;
      state.seat = msg.seat;
      state.spectator = msg.seat === null;
      if (msg.token) state.token = msg.token;
      if (msg.seat !== null && state.token && !state.local) saveGame(state.code, state.token, msg.seat, state.name, state.campaign, state.kind);
      if (msg.seat !== null && !state.local && !hot.conns.length) restoreLocals();
      setStatus("connected", state.spectator ? "connected (spectating)" : "connected");
      {
        // A spectator's address says so: a reload watches again instead of
        // asking for a seat.
        const hash = state.spectator ? `#watch/${state.code}` : `#${state.code}`;
        if (state.code && location.hash !== hash) history.replaceState(null, "", hash);
      }
      $("where").textContent = state.code ? `Game ${state.code}` : "";
      $("chat").hidden = false;
      // The server sends the game's recent chat after every welcome.
      $("chat-lines").replaceChildren();
      break;
    case "lobby":
      if (msg.lobby.kind && !useKind(msg.lobby.kind)) return;
      state.lobby = msg.lobby;
      if (!msg.lobby.started) show("lobby");
      renderLobby();
      if (state.view) renderGame();
      break;
    case "snapshot":
      if (!$("log").children.length) game.logStart(msg.view, $("log"));
      if (!state.view) game.announceStart(msg.view);
      state.view = msg.view; state.staticData = msg.static_data; state.legal = /** @type {Command[]} */ (msg.legal); state.lastSeq = msg.seq;
      state.resyncing = false;
      renderAfterGame(msg.outcome ?? null);
      hotseatCheck(); // may show another connection (the neutral view) instead
      game.setStaticData(msg.static_data);
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
      const quiet = !state.staticData; // the history after a reload: the log only, no toasts
      game.beforeEvents();
      for (const { seq, event } of evs) {
        state.lastSeq = seq;
        game.onEvent(state, view, event, { seq, quiet, shown: true, names: seatName });
      }
      state.view = view; state.legal = /** @type {Command[]} */ (msg.legal);
      renderAfterGame(msg.outcome ?? null);
      if (!state.staticData) { resync(); break; }
      // An event changed what the game draws once (a board, say).
      if (msg.static_data) { state.staticData = msg.static_data; game.setStaticData(msg.static_data); }
      hotseatCheck(); // may show another connection (the neutral view) instead
      if (!$("game").hidden || state.staticData) show("game");
      renderGame();
      if (!quiet) game.afterEvents();
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
    case "rematch": {
      // An offer from a player of this finished game: join the new table.
      if (msg.seat === state.seat && !state.spectator) break;
      $("rematch-offer").hidden = false;
      $("rematch-offer").replaceChildren(
        h("span", { text: `${msg.from} offers a rematch. ` }),
        h("button", { type: "button", "data-join-rematch": msg.code, text: "Join the rematch", onclick: () => { leaveGame(); joinFromList(msg.code, "player"); } }));
      break;
    }
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
  const seat = state.view ? game.toAct(state.view) : null;
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

/** A seat's name for the shown connection's words: its player's (lobby), else the game's name for it. */
function seatName(seat) {
  if (seat === null || seat === undefined) return "the AI";
  const s = state.lobby?.seats[seat];
  const n = s?.name ?? (s?.controller === "bot" ? "the computer" : null);
  const known = game.seatFallbackName(state.view, seat, n);
  if (known?.first) return known.first;
  if (n) return `${n}${seat === state.seat ? " (you)" : ""}`;
  return known?.last ?? "another player";
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
// in the page: nobody at the table sees another seat's hidden cards or
// private log lines. The game does not matter here: hotseat only follows
// the seat the game waits for (the module's `toAct`) and shows what each
// seat's own view holds.

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
      conn.kind = msg.kind ?? state.kind;
      if (conn.local && msg.seat !== null && conn.token && conn.code) saveLocal(conn.code, conn.token, msg.seat, conn.name);
      break;
    case "lobby":
      conn.lobby = msg.lobby;
      // The lobby is public: the shown seat renders it.
      if (state.lobby && !msg.lobby.started) renderLobby();
      break;
    case "snapshot": {
      if (!conn.logEl.children.length) game.logStart(msg.view, conn.logEl);
      conn.view = msg.view; conn.staticData = msg.static_data; conn.legal = /** @type {Command[]} */ (msg.legal); conn.lastSeq = msg.seq;
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
        game.onEvent(conn, view, event, { seq, quiet: true, shown: false, names: (seat) => asideSeatName(conn, seat) });
      }
      conn.view = view; conn.legal = /** @type {Command[]} */ (msg.legal);
      if (msg.static_data && conn.staticData) conn.staticData = msg.static_data;
      if (!conn.staticData) resyncAside();
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
  const acting = game.toAct(view);
  const seat = acting === null ? null : hot.conns.find((c) => c.seat === acting) ?? null;
  if (seat && hot.revealed === seat) {
    setHandover(null);
    switchTo(seat);
    return;
  }
  hot.revealed = null;
  if (hot.neutral) switchTo(hot.neutral);
  setHandover(seat, view);
}

/**
 * The hand-over screen, for `conn`'s player (null: none). Its side is
 * read from `view`, the newest view of the page (a seat's side is public):
 * the seat's own connection may not have its first view yet, and the
 * side is written again as newer views come.
 * @param {any} conn @param {GameView|null} [view]
 */
function setHandover(conn, view = null) {
  if (conn) $("handover-side").textContent = game.sideOf(conn.view ?? view, conn.seat);
  if (hot.handover === conn) return;
  hot.handover = conn;
  const box = $("handover");
  box.hidden = !conn;
  document.body.classList.toggle("handing-over", !!conn);
  if (!conn) return;
  $("handover-name").textContent = conn.name || `seat ${(conn.seat ?? 0) + 1}`;
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
  game.onHide(state);
  $("log").replaceWith(conn.logEl);
  state = conn;
  game.beforeEvents();
  const open = conn.ws?.readyState === WebSocket.OPEN;
  setStatus(open ? "connected" : "reconnecting", open ? (conn.spectator ? "connected (hotseat: nobody's side shown)" : `connected as ${conn.name}`) : "reconnecting…");
  if (conn.view && conn.staticData) {
    // The board may never have been drawn: the first snapshot of the page
    // can reach a connection that is not shown (or what it draws changed there).
    game.setStaticData(conn.staticData);
    show("game");
    renderGame();
  } else {
    // Nothing to draw yet: at least take the previous seat's side away.
    game.clearSide();
  }
  if (conn.lobby && !conn.lobby.started) { show("lobby"); renderLobby(); }
  trackWait();
}

// ---------------------------------------------------------------- screens

/** The page's screens: the shell's, then those the mounted game module adds. */
const SCREENS = () => ["home", "lobby", "game", "replay", ...(game.screens ?? [])];
function show(screen) {
  for (const id of SCREENS()) $(id).hidden = id !== screen;
  document.body.dataset.screen = screen;
  // One board element: the game's, or the replay's.
  const wrap = screen === "replay" ? $("replay-board-wrap") : $("board-wrap");
  const svg = game.board.svg;
  if (svg.parentElement !== wrap) wrap.append(svg);
  game.onShow?.(screen);
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
  Object.assign(state, { ws: null, code: null, token: null, seat: null, view: null, staticData: null, kind: null, legal: [], lobby: null,
    lastSeq: 0, game: game.newConnState(), attempt: 0, campaign: null, resyncing: false });
  $("where").textContent = "";
  game.reset();
  $("log").replaceChildren(); $("chat-lines").replaceChildren();
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

/**
 * Take the account's own seat back in game `code` from this device (no
 * token here: the server knows the seat by the account, and hands this
 * device a token for it, kept in "My games" once welcomed).
 * @param {string} code @param {string|null} campaign
 */
function resumeByAccount(code, campaign) {
  const account = session();
  if (!account) return;
  leaveGame();
  state.name = account.name; state.token = null; state.campaign = campaign;
  connect(code, { as: "player", name: account.name });
}

const when = (ms) => (ms ? new Date(ms).toLocaleString() : "");
let homeRefresh = 0;

function renderHome() {
  const account = session();
  $("logged-in").hidden = !account;
  $("login").hidden = !!account;
  $("account-name").textContent = account?.name ?? "";
  pickCreateKind(/** @type {HTMLSelectElement} */ ($("create-kind")).value);
  renderMyGames(null);
  game.renderHome?.(null);
  refreshLobbyList();
  const name = localStorage.getItem("citadel:name") ?? account?.name ?? "";
  for (const f of ["create", "join", ...(game.homeNameForms ?? [])]) {
    const input = /** @type {HTMLInputElement} */ ($(f).querySelector("input[name=name]"));
    if (!input.value) input.value = name;
  }
  if (account) {
    const ticket = ++homeRefresh;
    api("GET", "/api/me", undefined, account.token).then((/** @type {Me} */ me) => {
      if (ticket !== homeRefresh || $("home").hidden) return;
      renderMyGames(me.games ?? []);
      game.renderHome?.(me);
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
      started: !!g.started_at, summary: g.result ?? null, campaign: g.campaign ?? null, kind: g.kind ?? null, mine: true,
      yourTurn: g.your_turn === true });
  }
  for (const g of local) {
    const a = byCode.get(g.code);
    byCode.set(g.code, { ...g, ...(a ?? {}), token: g.token, seat: g.seat, name: g.name, finished: a ? a.finished : !!g.finished, at: a?.at ?? g.at,
      outcome: g.outcome ?? null });
  }
  // Won or lost from the player's side, as the game's module reads its
  // result summary (the game's own JSON; a game without a module here: unread).
  const outcomeOf = (g) => {
    if (g.outcome) return g.outcome;
    const r = g.summary;
    if (!r || g.seat === undefined || g.seat === null) return null;
    return moduleOf(g.kind)?.outcomeFor(r, g.seat) ?? null;
  };
  const resultOf = (g) => (g.summary ? moduleOf(g.kind)?.resultWords(g.summary) ?? null : null);
  // With more than one game on this server, each entry says which.
  const kinds = new Set([...byCode.values()].map((g) => g.kind ?? LEGACY_KIND));
  const several = kinds.size > 1 || (catalogue?.length ?? 0) > 1;
  const games = [...byCode.values()].sort((x, y) => (y.at ?? 0) - (x.at ?? 0));
  const list = $("my-games");
  list.replaceChildren(...games.map((g) => {
    const outcome = outcomeOf(g);
    const result = resultOf(g);
    const bits = [several ? gameName(g.kind) : null, g.name ? `as ${g.name}` : null,
      g.finished ? (outcome ? `finished: you ${outcome}` : result ? `finished: ${result}` : "finished")
        : g.started === false ? "not started" : null,
      g.at ? when(g.at) : null].filter(Boolean);
    return h("li", { "data-code": g.code, "data-finished": String(!!g.finished), "data-kind": g.kind ?? LEGACY_KIND },
      h("span", { class: "code-sm", text: g.code }),
      g.yourTurn && !g.finished ? h("span", { class: "badge your-turn", text: " your turn " }) : null,
      h("span", { class: "muted", text: ` ${bits.join(" · ")} ` }),
      g.finished
        ? h("button", { type: "button", "data-replay": g.code, text: "Replay", onclick: () => openReplay(g.code) })
        : g.token
          ? h("button", { type: "button", "data-resume": g.code, text: "Resume", onclick: () => resumeGame(g.code, g.token, g.name, g.campaign ?? null) })
          // The account's seat, from a device that has no token for it:
          // the server gives the account its own seat back.
          : g.mine && session()
            ? h("button", { type: "button", "data-resume": g.code, text: "Resume", onclick: () => resumeByAccount(g.code, g.campaign ?? null) })
          : h("button", { type: "button", "data-watch": g.code, text: "Watch", onclick: () => { leaveGame(); state.name = session()?.name ?? "Spectator"; connect(g.code, { as: "spectator", name: state.name }); } }),
      g.token ? h("button", { type: "button", class: "link", text: "Forget", onclick: () => { forgetGame(g.code); renderHome(); } }) : null);
  }));
  if (!games.length) list.append(h("li", { class: "muted", text: "No games yet." }));
}

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
    // The games played here as a guest join the account (each seat by the
    // token this browser holds for it).
    const seats = myGames().filter((g) => g.token && !g.local).map((g) => ({ code: g.code, token: g.token }));
    if (seats.length) await api("POST", "/api/me/claim", { games: seats.slice(0, 200) }, res.token).catch(() => {});
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
const replay = { code: null, kind: null, total: 0, index: 0, steps: new Map(), staticData: null, setup: null, timer: 0, loading: new Map(), ticket: 0 };

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
      // Replays kept before protocol 3 name no kind and call the static data `map`.
      const old = /** @type {any} */ (r);
      replay.total = r.total_steps; replay.setup = r.setup; replay.kind = r.kind ?? LEGACY_KIND;
      let data = r.static_data ?? old.map ?? null;
      if (from === 0) replay.staticData = data;
      // Each step keeps what it draws (a board, say): the page's static
      // data at its first step, then each change a step made.
      for (const st of r.steps) {
        data = st.static_data ?? /** @type {any} */ (st).map ?? data;
        replay.steps.set(st.index, { ...st, static_data: data });
      }
    }).finally(() => replay.loading.delete(from));
    replay.loading.set(from, p);
  }
  return replay.loading.get(from);
}

async function openReplay(code) {
  leaveGame();
  code = code.toUpperCase();
  Object.assign(replay, { code, kind: null, total: 0, index: 0, steps: new Map(), staticData: null, setup: null, loading: new Map() });
  history.replaceState(null, "", `#replay/${code}`);
  $("where").textContent = `Replay ${code}`;
  $("replay-title").textContent = `Replay of game ${code}`;
  $("replay-step").textContent = "loading…";
  $("replay-events").replaceChildren();
  $("replay-command").textContent = "";
  game.clearBoard(); // redrawn from the replay's map (and again by the next game)
  show("replay");
  try {
    await loadReplayPage(0);
    if (code !== replay.code) return;
    // The replay's game picks the module that draws it.
    if (!mountGame(replay.kind)) throw new Error(`this page has no client for "${replay.kind}" games`);
    show("replay");
    game.setStaticData(replay.staticData);
    const slider = /** @type {HTMLInputElement} */ ($("replay-slider"));
    slider.max = String(Math.max(0, replay.total - 1));
    await replayGo(0);
  } catch (err) {
    toast(`Could not load the replay of ${code}: ${err.message}`);
    $("replay-step").textContent = "—";
  }
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
  const before = replay.steps.get(i - 1)?.view ?? st.view;
  const shown = game.replayStep(st, before, replay.setup);
  $("replay-step").textContent = `${i + 1} / ${replay.total}`;
  $("replay-step").dataset.index = String(i);
  $("replay-round").textContent = shown.round;
  $("replay-command").textContent = shown.command;
  $("replay-events").replaceChildren(...shown.lines.map((x) => h("li", { class: x.type, "data-seq": x.seq, text: x.text })));
  if (!shown.lines.length) $("replay-events").append(h("li", { class: "muted", text: "(nothing visible happens)" }));
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
  $("lobby-options").textContent = `${l.options.rated ? "Rated · " : ""}${game.lobbySummary(l, Math.max(0, l.spectators - (hot.neutral ? 1 : 0)))}`;
  const locals = localSeats();
  const host = locals.has(l.host);
  const link = `${location.origin}/#${l.code}`;
  $("copy-invite").dataset.link = link;
  $("invite-link").textContent = link;
  $("seats").querySelector("tbody")?.replaceChildren(...l.seats.map((s) => {
    const who = s.controller === "open" ? "open" : s.controller === "bot" ? "Bot" : (s.name ?? "?");
    const tags = [s.seat === l.host ? "host" : null, s.seat === state.seat ? "you" : locals.has(s.seat) ? "on this device" : null,
      ...game.seatTags(l, s),
      s.bot_playing ? "bot playing" : null, s.controller === "human" && !s.connected ? "away" : null].filter(Boolean);
    const botBtn = host && s.controller !== "human"
      ? h("button", { type: "button", "data-bot-seat": s.seat, text: s.controller === "bot" ? "Remove bot" : "Add bot",
        onclick: () => sendAs(hostConn(), { type: "set_bot", seat: s.seat, bot: s.controller !== "bot" }) }) : null;
    return h("tr", { "data-seat": s.seat, class: s.seat === state.seat ? "me" : "" },
      h("td", { text: String(s.seat + 1) }),
      h("td", {}, h("span", { text: who }), tags.length ? h("span", { class: "muted", text: ` (${tags.join(", ")})` }) : null),
      h("td", {}, ...game.seatSide(s)),
      h("td", { text: s.ready ? "✓ ready" : "" }),
      h("td", {}, botBtn));
  }));
  const mine = l.seats[state.seat ?? -1];
  $("lobby-me").hidden = state.spectator;
  const who = hotseatOn() ? `${state.name || "This player"}` : "You";
  game.renderSeatChoice(l, { who, hotseat: hotseatOn() });
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

// ---------------------------------------------------------------- game

/**
 * Draw the shown connection's game: the module draws its screen and says
 * its status in a few words; the tab's title tells a player in another
 * tab that the game waits for them, with a chime if they asked for one.
 */
function renderGame() {
  const view = state.view;
  if (!view || !state.staticData) return;
  const { status } = game.render();
  const waitsForMe = state.seat !== null && game.toAct(view) === state.seat;
  document.title = waitsForMe ? `● ${String(status ?? "").split(" — ")[0]} — Citadel` : "Citadel";
  if (waitsForMe && !alerted) { chime(); notifyTurn(String(status ?? "").split(" — ")[0]); }
  alerted = waitsForMe;
}

/**
 * A browser notification when the game starts waiting for you while the
 * page is not in view (the "Notify me" setting, with the browser's
 * permission). Clicking it brings the game's tab forward.
 * @param {string} what
 */
function notifyTurn(what) {
  if (localStorage.getItem("citadel:notify") !== "1" || !("Notification" in window)) return;
  if (Notification.permission !== "granted" || document.visibilityState === "visible") return;
  /** @type {any} */ (window).citadel.notifications++;
  try {
    const n = new Notification(`Your turn in game ${state.code}`, { body: what || "The game waits for you.", tag: `citadel-${state.code}` });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers allow notifications from a service worker only */ }
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

// ---------------------------------------------------------------- forms, keys

// The create form: the game first (the catalogue, `GET /api/catalogue`),
// then its options: the module's own fields (its `create-options` slot and
// `createOptions`) for a game this page has a module for, else fields made
// from the catalogue's option specs (`genericOptions`).

/** The catalogue: the games this server plays, in its order (null until it answers). @type {CatalogueGame[]|null} */
let catalogue = null;

/** A game's name: the catalogue's, else its module's, else its kind. @param {string|null|undefined} kind */
function gameName(kind) {
  const k = kind ?? LEGACY_KIND;
  return catalogue?.find((g) => g.id === k)?.name ?? (hasGame(k) ? gameFor(k).name : k);
}

/** Fill the game picker: the catalogue's games, or (before it answers) the games this page has modules for. */
function fillGamePicker() {
  const select = /** @type {HTMLSelectElement} */ ($("create-kind"));
  const games = catalogue ?? Object.values(GAMES).map((g) => ({ id: g.id, name: g.name }));
  const old = select.value || game?.id || DEFAULT_KIND;
  select.replaceChildren(...games.map((g) => h("option", { value: g.id, text: g.name })));
  select.value = games.some((g) => g.id === old) ? old : games[0]?.id ?? "";
  pickCreateKind(select.value);
}

/**
 * The create form shows `kind`'s options: its module's fields, or fields
 * made from its option specs. Picking a game with a module mounts that
 * module, but only on the home page: a game or replay being shown keeps
 * its own, and `renderHome` picks again.
 */
function pickCreateKind(kind) {
  let own = hasGame(kind) && !!gameFor(kind).createOptions;
  if (own && gameFor(kind) !== game && !$("home").hidden) mountGame(kind);
  own &&= gameFor(kind) === game;
  const mod = /** @type {HTMLFieldSetElement} */ ($("create-module"));
  const generic = /** @type {HTMLFieldSetElement} */ ($("create-generic"));
  mod.hidden = mod.disabled = !own;
  generic.hidden = generic.disabled = own;
  $("create").dataset.kind = kind;
  if (own) return;
  const specs = catalogue?.find((g) => g.id === kind)?.options ?? [];
  generic.replaceChildren(h("legend", { class: "sr-only", text: `${gameName(kind)}: options` }), ...specs.map(optionField));
  const submit = /** @type {HTMLButtonElement} */ ($("create").querySelector("button[type=submit]"));
  submit.disabled = false;
  submit.textContent = "Create game";
}

/**
 * One field for an option spec: a number input (integer) or a select
 * (choice; each value is JSON, so the select holds its index).
 * @param {OptionSpec} spec
 */
function optionField(spec) {
  const s = /** @type {any} */ (spec);
  const note = spec.note ? h("span", { class: "option-note", text: spec.note }) : null;
  if (s.kind === "integer") {
    return h("label", { "data-option": spec.name }, `${spec.label} (${s.min}–${s.max}) `,
      h("input", { name: `option:${spec.name}`, type: "number", min: s.min, max: s.max, step: 1,
        value: s.default ?? undefined, required: s.default === null || s.default === undefined ? "" : null }), note);
  }
  const choices = /** @type {{value: unknown, name: string}[]} */ (s.choices ?? []);
  const at = choices.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(s.default));
  const select = h("select", { name: `option:${spec.name}`, required: "" },
    ...choices.map((c, i) => h("option", { value: String(i), text: c.name })));
  /** @type {HTMLSelectElement} */ (select).value = String(Math.max(0, at));
  return h("label", { "data-option": spec.name }, `${spec.label} `, select, note);
}

/** The options the generic fields say, by the specs of game `kind`. @param {string} kind @param {FormData} f */
function genericOptions(kind, f) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const spec of catalogue?.find((g) => g.id === kind)?.options ?? []) {
    const s = /** @type {any} */ (spec);
    const raw = f.get(`option:${spec.name}`);
    if (raw === null || raw === "") continue; // left out: the game's default
    out[spec.name] = s.kind === "integer" ? Number(raw) : s.choices?.[Number(raw)]?.value;
  }
  return out;
}

$("create-kind").onchange = (e) => pickCreateKind(/** @type {HTMLSelectElement} */ (e.target).value);

// ---------------------------------------------------------------- after the game

/** Show "Rematch" and "New game like this" to a player once the game has ended. @param {unknown} outcome */
function renderAfterGame(outcome) {
  const over = outcome !== null && outcome !== undefined;
  $("after-game").hidden = !over || state.seat === null || state.seat === undefined || !!state.local;
  if (!over) $("rematch-offer").hidden = true;
}

/** A new table with this game's options; returns its code. */
async function tableLikeThis() {
  const options = state.lobby?.options;
  if (!options) throw new Error("no options to copy");
  const made = await api("POST", "/api/games", options);
  return /** @type {string} */ (made.code);
}

$("play-again").onclick = async () => {
  try {
    const code = await tableLikeThis();
    leaveGame();
    joinFromList(code, "player");
  } catch (err) { toast(`Could not make the table: ${/** @type {any} */ (err).message}`); }
};
$("rematch").onclick = async () => {
  try {
    const code = await tableLikeThis();
    // Everyone in this game is told (the server passes the offer on);
    // then this player sits down first at the new table.
    send({ type: "rematch", code });
    setTimeout(() => { leaveGame(); joinFromList(code, "player"); }, 150);
  } catch (err) { toast(`Could not offer a rematch: ${/** @type {any} */ (err).message}`); }
};

// ---------------------------------------------------------------- the lobby's lists

/** @typedef {import("./http").LobbyList} LobbyList */

/** How often the home page asks for the open tables and live games (ms). */
const LOBBY_POLL_MS = 5_000;
let lobbyTimer = 0;
/** @type {LobbyList|null} */
let lobbyList = null;

/** The name to join with: the join form's, else the saved or account name. */
function joinName() {
  const typed = /** @type {HTMLInputElement} */ ($("join").querySelector("input[name=name]")).value.trim();
  return typed || localStorage.getItem("citadel:name") || session()?.name || "Player";
}

/** Take a seat at table `code` (or watch it), as the join form does. @param {string} code @param {"player"|"spectator"} as */
function joinFromList(code, as) {
  const name = joinName();
  localStorage.setItem("citadel:name", name);
  state.name = name;
  state.token = null;
  connect(code, { as, name });
}

/** The open tables and live games, asked for now and every few seconds while the home page shows. */
function refreshLobbyList() {
  clearTimeout(lobbyTimer);
  if ($("home").hidden) return;
  api("GET", "/api/lobby").then((/** @type {LobbyList} */ list) => {
    lobbyList = list;
    renderLobbyList(list);
  }, () => {}).finally(() => {
    if (!$("home").hidden) lobbyTimer = window.setTimeout(refreshLobbyList, LOBBY_POLL_MS);
  });
}

/** @param {LobbyList} list */
function renderLobbyList(list) {
  const seatsText = (t) => `${t.players.length ? t.players.join(", ") : "nobody yet"} · ${t.free} of ${t.seats} seat${t.seats === 1 ? "" : "s"} free`;
  $("open-tables").replaceChildren(...(list.open.length ? list.open.map((t) => h("li", { "data-code": t.code, "data-kind": t.kind },
    h("span", { class: "code-sm", text: t.code }),
    h("span", { class: "muted", text: ` ${gameName(t.kind)}${t.options?.rated ? " · rated" : ""} · ${seatsText(t)} ` }),
    h("button", { type: "button", "data-join": t.code, text: "Join", onclick: () => joinFromList(t.code, "player") })))
    : [h("li", { class: "muted", text: "No open tables: make one, or press Quick play." })]));
  const watch = (g) => h("button", { type: "button", "data-watch": g.code, text: "Watch", onclick: () => joinFromList(g.code, "spectator") });
  const watching = (g) => (g.spectators === null || g.spectators === undefined ? "" : ` · ${g.spectators} watching`);
  $("live-games").replaceChildren(...(list.live.length ? list.live.map((g) => h("li", { "data-code": g.code, "data-kind": g.kind },
    h("span", { class: "code-sm", text: g.code }),
    h("span", { class: "muted", text: ` ${gameName(g.kind)}${g.options?.rated ? " · rated" : ""} · ${g.players.join(" vs ")}${watching(g)} ` }),
    watch(g)))
    : [h("li", { class: "muted", text: "No listed game is being played now." })]));
  const featured = list.live.find((g) => g.code === list.featured);
  $("featured").hidden = !featured;
  $("featured").replaceChildren(...(featured ? [
    h("p", {}, h("b", { text: "Featured: " }), h("span", { text: `${gameName(featured.kind)} · ${featured.players.join(" vs ")}${watching(featured)} ` }), watch(featured)),
  ] : []));
}

/** Quick play: the oldest open table of the picked game with a free seat, else a new listed table of it with its default options. */
$("quick-play").onclick = async () => {
  const kind = /** @type {HTMLSelectElement} */ ($("create-kind")).value || game.id;
  try {
    const list = /** @type {LobbyList} */ (await api("GET", "/api/lobby"));
    const oldest = list.open.filter((t) => t.kind === kind).sort((a, b) => a.created_at - b.created_at)[0];
    if (oldest) return joinFromList(oldest.code, "player");
    const made = await api("POST", "/api/games", { kind, listed: true });
    joinFromList(made.code, "player");
  } catch (err) {
    toast(`Quick play failed: ${/** @type {any} */ (err).message}`);
  }
};

// ---------------------------------------------------------------- ratings

/** @typedef {import("./http").Leaderboard} Leaderboard */
/** @typedef {import("./http").Profile} Profile */
/** @typedef {import("./http").RatingLine} RatingLine */

/** A rating as players read it: "1562?" while provisional. @param {RatingLine} r */
const ratingText = (r) => `${r.rating}${r.provisional ? "?" : ""}`;

/** The leaderboard's game picker: every game of the catalogue. */
function fillBoardPicker() {
  const select = /** @type {HTMLSelectElement} */ ($("board-kind"));
  const old = select.value;
  const games = catalogue ?? [];
  select.replaceChildren(...games.map((g) => h("option", { value: g.id, text: g.name })));
  if (games.some((g) => g.id === old)) select.value = old;
  loadLeaderboard(select.value);
}

/** Show game `kind`'s leaderboard (its first 100). @param {string} kind */
function loadLeaderboard(kind) {
  if (!kind) return;
  api("GET", `/api/leaderboards/${encodeURIComponent(kind)}`).then((/** @type {Leaderboard} */ board) => {
    const rows = board.players.map((p, i) => h("tr", { "data-player": p.name },
      h("td", { text: String(board.first_rank + i) }),
      h("td", {}, p.bot ? h("span", { text: `${p.name} (bot)` })
        : h("button", { type: "button", class: "link", text: p.name, onclick: () => openProfile(p.name) })),
      h("td", { text: ratingText(p) }),
      h("td", { text: String(p.games) }),
      h("td", { text: `${p.wins}–${p.draws}–${p.losses}` })));
    $("leaderboard").querySelector("tbody")?.replaceChildren(...rows);
    $("leaderboard-empty").hidden = rows.length > 0;
  }, (err) => toast(`Could not load the leaderboard: ${err.message}`));
}

/**
 * A rating history as a small line chart (SVG): ratings over the rated
 * games, oldest on the left. @param {{rating: number}[]} points
 */
function historyChart(points) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const [w, hgt, pad] = [320, 90, 6];
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const values = points.map((p) => p.rating);
  const lo = Math.min(...values), hi = Math.max(...values);
  svg.setAttribute("aria-label", `Rating over ${points.length} rated game${points.length === 1 ? "" : "s"}: from ${values[0]} to ${values[values.length - 1]}, lowest ${lo}, highest ${hi}`);
  const x = (i) => (points.length === 1 ? w / 2 : pad + (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => (hi === lo ? hgt / 2 : hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(line);
  values.forEach((v, i) => {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x(i).toFixed(1)); dot.setAttribute("cy", y(v).toFixed(1)); dot.setAttribute("r", "2.5");
    const title = document.createElementNS(ns, "title");
    title.textContent = String(v);
    dot.append(title);
    svg.append(dot);
  });
  return svg;
}

/** Open a player's profile: ratings per game with their history, recent games. @param {string} name */
function openProfile(name) {
  api("GET", `/api/players/${encodeURIComponent(name)}`).then((/** @type {Profile} */ p) => {
    $("profile-name").textContent = p.name;
    $("profile-since").textContent = `Playing since ${new Date(p.created_at).toLocaleDateString()}`;
    $("profile-ratings").replaceChildren(...(p.ratings.length ? p.ratings.map((r) => h("section", { class: "profile-rating", "data-kind": r.kind },
      h("h3", { text: `${gameName(r.kind)}: ${ratingText(r)}` }),
      h("p", { class: "muted small", text: `${r.provisional ? "Provisional (not sure enough yet) · " : ""}±${r.deviation} · ${r.games} rated game${r.games === 1 ? "" : "s"}: ${r.wins} won, ${r.draws} drawn, ${r.losses} lost` }),
      r.history.length ? historyChart(r.history) : null))
      : [h("p", { class: "muted", text: "No rated games yet." })]));
    $("profile-games").replaceChildren(...(p.recent_games.length ? p.recent_games.map((g) => h("li", { "data-code": g.code },
      h("span", { class: "code-sm", text: g.code }),
      h("span", { class: "muted", text: ` ${gameName(g.kind)} · ${g.options?.rated ? "rated" : "casual"} · ${when(g.finished_at ?? g.created_at)} ` }),
      h("button", { type: "button", "data-replay": g.code, text: "Replay", onclick: () => { closeProfile(); openReplay(g.code); } })))
      : [h("li", { class: "muted", text: "No finished games yet." })]));
    const dialog = /** @type {HTMLDialogElement} */ ($("profile"));
    if (!dialog.open) dialog.showModal();
  }, (err) => toast(err.status === 404 ? `No player called ${name}.` : `Could not load the profile: ${err.message}`));
}

function closeProfile() {
  const dialog = /** @type {HTMLDialogElement} */ ($("profile"));
  if (dialog.open) dialog.close();
}

$("board-kind").onchange = (e) => loadLeaderboard(/** @type {HTMLSelectElement} */ (e.target).value);
$("find-player").onsubmit = (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const name = String(f.get("player") ?? "").trim();
  if (name) openProfile(name);
};
$("profile-close").onclick = closeProfile;
$("my-profile").onclick = () => { const a = session(); if (a) openProfile(a.name); };

/** Ask the server which games it plays (once; the picker works from the page's modules until then). */
function loadCatalogue() {
  api("GET", "/api/catalogue").then((/** @type {CatalogueGame[]} */ games) => {
    if (!Array.isArray(games) || !games.length) return;
    catalogue = games;
    fillGamePicker();
    fillBoardPicker();
  }, () => {});
}

$("create").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const name = String(f.get("name")).trim();
  const kind = String(f.get("kind") || game.id);
  // The game, its own options (from its module's fields, or the generic
  // ones), and the turn limit every game has.
  const own = hasGame(kind) && gameFor(kind) === game && game.createOptions;
  const options = { kind, ...(own ? game.createOptions(f) : genericOptions(kind, f)), turn_seconds: f.get("turn") ? Number(f.get("turn")) : null,
    ...(f.get("rated") ? { rated: true } : {}), ...(f.get("listed") ? { listed: true } : {}) };
  try {
    const res = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(options) });
    const body = /** @type {GameCreated & Partial<ErrorBody>} */ (await res.json());
    if (!res.ok) return toast(body.message ?? `error ${res.status}`);
    localStorage.setItem("citadel:name", name);
    state.name = name; state.token = null; state.kind = kind;
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

const notifyBox = /** @type {HTMLInputElement} */ ($("notify"));
notifyBox.checked = localStorage.getItem("citadel:notify") === "1";
notifyBox.onchange = async () => {
  if (notifyBox.checked && "Notification" in window && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission().catch(() => "denied");
    if (answer !== "granted") {
      notifyBox.checked = false;
      toast("The browser does not allow notifications from this page.");
    }
  }
  if (notifyBox.checked) localStorage.setItem("citadel:notify", "1");
  else localStorage.removeItem("citadel:notify");
};
const soundBox = /** @type {HTMLInputElement} */ ($("sound"));
soundBox.checked = localStorage.getItem("citadel:sound") === "1";
soundBox.onchange = () => {
  if (soundBox.checked) localStorage.setItem("citadel:sound", "1");
  else localStorage.removeItem("citadel:sound");
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
  game.onKey(e.key.toLowerCase());
});

// ---------------------------------------------------------------- start

// A link (or typed address) to #replay/CODE opens that screen, and so does
// one to a screen of the game module's (its `route`, e.g. #campaign/CODE).
window.addEventListener("hashchange", () => {
  const [kind, arg] = location.hash.slice(1).split("/", 2);
  if (arg && game.route?.(kind, arg)) return;
  if (kind === "replay" && arg && (arg.toUpperCase() !== replay.code || $("replay").hidden)) openReplay(arg);
  else if (kind === "watch" && arg && arg.toUpperCase() !== state.code) watchLink(arg.toUpperCase());
  else if (!arg && kind && kind.toUpperCase() !== state.code) openGameLink(kind.toUpperCase());
});

/** `#watch/CODE`: watch the game (a spectator's reload). @param {string} code */
function watchLink(code) {
  if (!/^[23456789A-HJKMNP-Z]{6}$/.test(code)) return;
  leaveGame();
  state.name = localStorage.getItem("citadel:name") ?? session()?.name ?? "Spectator";
  state.token = null;
  connect(code, { as: "spectator", name: state.name });
}

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

// Zoom: buttons as well as the wheel, a drag and a pinch (board.js).
$("zoom-in").onclick = () => game.board.zoomBy(1.5);
$("zoom-out").onclick = () => game.board.zoomBy(1 / 1.5);
$("zoom-fit").onclick = () => game.board.fit();
/** The board's zoom changed (the mounted module's board calls it). @param {number} z */
function onZoom(z) {
  /** @type {HTMLButtonElement} */ ($("zoom-out")).disabled = z <= 1.01;
  /** @type {HTMLButtonElement} */ ($("zoom-fit")).disabled = z <= 1.01;
  /** @type {HTMLButtonElement} */ ($("zoom-in")).disabled = z >= 5.99;
  $("zoom-level").textContent = z <= 1.01 ? "whole board" : `${z.toFixed(1)}×`;
}

$("rules-open").onclick = () => {
  game.renderRules();
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

(function boot() {
  mountGame(DEFAULT_KIND);
  fillGamePicker();
  loadCatalogue();
  const hash = location.hash.slice(1);
  const [kind, arg] = hash.includes("/") ? hash.split("/", 2) : ["game", hash];
  if (kind === "replay" && arg) return openReplay(arg);
  if (arg && kind !== "game" && kind !== "watch" && game.route?.(kind, arg)) return;
  show("home");
  renderHome();
  if (kind === "watch" && arg) watchLink(arg.toUpperCase());
  else if (arg) openGameLink(arg.toUpperCase());
})();
