// The Citadel browser client. Thin: it shows what the server sends and
// offers exactly the server's `legal` commands; it holds no rules.
// Plain ES modules, no build step; types come from protocol.ts (JSDoc).
// @ts-check
import { Board, key } from "./board.js";
import {
  CORPS, CORP_COLOR, DL_COLOR, describeCommand, describeEvent, figLabel, figName, prettyName, words,
} from "./text.js";

/** @typedef {import("./protocol").GameView} GameView */
/** @typedef {import("./protocol").Command} Command */
/** @typedef {import("./protocol").ServerMsg} ServerMsg */
/** @typedef {import("./protocol").LobbyView} LobbyView */
/** @typedef {import("./protocol").MapData} MapData */

const PROTOCOL = 1;
const FATAL = { 4001: "This client speaks another protocol version.", 4002: "The server did not accept our hello.",
  4003: "No game with that code (or it has ended).", 4004: "That seat's token is no longer valid.",
  4005: "That game is full or has already started.", 4011: "You connected to this game from another tab or device." };
const DECISIONS = new Set(["choose_entrance", "choose_option", "place", "choose_tile", "choose_figure",
  "choose_corporation", "discard", "react", "pick_equipment", "pass_equipment"]);
const FIGURE_ACTIONS = new Set(["move", "attack", "special", "use_item", "overrun"]);

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const h = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") e.textContent = v;
    else if (k === "onclick") e.onclick = v;
    else if (k === "hidden" || k === "disabled") e[k] = !!v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
};

const state = {
  /** @type {WebSocket|null} */ ws: null,
  code: null, token: null, /** @type {number|null} */ seat: null, name: "", spectator: false,
  lastSeq: 0, /** @type {GameView|null} */ view: null, /** @type {MapData|null} */ map: null,
  /** @type {Command[]} */ legal: [], /** @type {LobbyView|null} */ lobby: null,
  /** @type {number|null} */ selected: null, /** @type {{label:string, cmds:Map<string, Command>}|null} */ mode: null,
  placeKind: null, ended: null, scoreboardClosed: false, attempt: 0, timer: 0, closing: false, ref: 0, ready: false,
};

// Debugging and tests: window.citadel mirrors the live state.
Object.defineProperty(window, "citadel", {
  value: {
    get view() { return state.view; }, get legal() { return state.legal; }, get lastSeq() { return state.lastSeq; },
    get seat() { return state.seat; }, get ws() { return state.ws; }, get lobby() { return state.lobby; },
  },
});

const board = new Board(/** @type {any} */ ($("board")));

// ---------------------------------------------------------------- storage

function myGames() {
  try { return JSON.parse(localStorage.getItem("citadel:games") ?? "[]"); } catch { return []; }
}
function saveGame(code, token, seat, name) {
  const games = myGames().filter((g) => g.code !== code);
  games.unshift({ code, token, seat, name, at: Date.now() });
  localStorage.setItem("citadel:games", JSON.stringify(games.slice(0, 20)));
}
function forgetGame(code) {
  localStorage.setItem("citadel:games", JSON.stringify(myGames().filter((g) => g.code !== code)));
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
  if (state.ws && state.ws.readyState === WebSocket.OPEN) { state.ws.send(JSON.stringify(msg)); return true; }
  toast("Not connected — the message was not sent.");
  return false;
}

function sendCommand(command) {
  state.mode = null;
  send({ type: "command", client_ref: ++state.ref, command });
  renderGame();
}

/** @param {string} code @param {any} join */
function connect(code, join) {
  clearTimeout(state.timer);
  state.code = code.toUpperCase();
  state.closing = false;
  if (state.ws) { state.closing = true; state.ws.close(); state.closing = false; }
  setStatus(state.attempt ? "reconnecting" : "connecting", state.attempt ? `reconnecting (try ${state.attempt})…` : "connecting…");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  state.ws = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, game: state.code, join, last_seq: state.view ? state.lastSeq : null }));
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    handle(msg);
  };
  ws.onclose = (e) => {
    if (state.ws !== ws || state.closing) return;
    state.ws = null;
    if (FATAL[e.code]) {
      setStatus("offline", "not connected");
      if (e.code === 4003 || e.code === 4004) forgetGame(state.code);
      toast(FATAL[e.code] + (e.reason ? ` (${e.reason})` : ""));
      if (!state.view && !state.lobby || e.code !== 4011) goHome();
      return;
    }
    state.attempt++;
    const delay = Math.min(10000, 500 * 2 ** Math.min(state.attempt - 1, 5)) * (0.8 + Math.random() * 0.4);
    setStatus("reconnecting", `connection lost — retrying in ${Math.round(delay / 1000)}s`);
    state.timer = setTimeout(() => connect(state.code, resumeJoin()), delay);
  };
}

function resumeJoin() {
  if (state.token) return { as: "resume", token: state.token };
  return { as: "spectator", name: state.name || "Spectator" };
}

setInterval(() => { if (state.ws?.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify({ type: "ping" })); }, 25000);

// ---------------------------------------------------------------- messages

/** @param {ServerMsg} msg */
function handle(msg) {
  switch (msg.type) {
    case "welcome":
      state.attempt = 0;
      state.seat = msg.seat;
      state.spectator = msg.seat === null;
      if (msg.token) { state.token = msg.token; saveGame(state.code, msg.token, msg.seat, state.name); }
      setStatus("connected", state.spectator ? "connected (spectating)" : `connected — seat ${Number(msg.seat) + 1}`);
      if (location.hash !== `#${state.code}`) history.replaceState(null, "", `#${state.code}`);
      $("where").textContent = `Game ${state.code}`;
      $("chat").hidden = false;
      break;
    case "lobby":
      state.lobby = msg.lobby;
      if (!msg.lobby.started) show("lobby");
      renderLobby();
      if (state.view) renderGame();
      break;
    case "snapshot":
      state.view = msg.view; state.map = msg.map; state.legal = msg.legal; state.lastSeq = msg.seq;
      board.setMap(msg.map);
      logLine(`— Up to date at event ${msg.seq} —`, "sys");
      show("game");
      renderGame();
      break;
    case "events": {
      const evs = msg.events.filter((e) => e.seq > state.lastSeq);
      if (evs.length && evs[0].seq !== state.lastSeq + 1) { send({ type: "resync" }); return; }
      for (const { seq, event } of evs) {
        state.lastSeq = seq;
        onEvent(msg.view, event);
      }
      state.view = msg.view; state.legal = msg.legal;
      if (!$("game").hidden || state.map) show("game");
      renderGame();
      break;
    }
    case "ack": break;
    case "rejected": toast(msg.message); break;
    case "error": toast(msg.message); break;
    case "chat": {
      const li = h("li", {}, h("b", { text: `${msg.from}: ` }), document.createTextNode(msg.text));
      $("chat-lines").append(li);
      li.scrollIntoView({ block: "nearest" });
      break;
    }
    case "pong": break;
  }
}

function seatName(seat) {
  if (seat === null || seat === undefined) return "the AI";
  const s = state.lobby?.seats[seat];
  const n = s?.name ?? (s?.controller === "bot" ? "Bot" : null);
  return n ? `${n}${seat === state.seat ? " (you)" : ""}` : `Seat ${seat + 1}`;
}

function onEvent(view, event) {
  const line = describeEvent(view, event, seatName);
  if (line) logLine(line, event.type);
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

function dieEl(d) {
  return h("span", { class: `die ${d.color}${d.reroll ? " reroll" : ""}`, title: `${d.color} die: face ${d.face}, ${d.hits} hit(s)`, text: `${d.face}` },
    h("sub", { text: d.hits ? "✶".repeat(d.hits) : "" }));
}

function logLine(text, kind) {
  const log = $("log");
  const li = h("li", { class: kind, text });
  log.append(li);
  while (log.children.length > 400) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------- screens

function show(screen) {
  for (const id of ["home", "lobby", "game"]) $(id).hidden = id !== screen;
  document.body.dataset.screen = screen;
  (screen === "game" ? $("panel") : document.querySelector("main"))?.append($("chat"));
  if (screen === "home") { $("scoreboard").hidden = true; $("chat").hidden = true; }
}

function goHome() {
  clearTimeout(state.timer);
  if (state.ws) { state.closing = true; state.ws.close(); }
  Object.assign(state, { ws: null, code: null, token: null, seat: null, view: null, map: null, legal: [], lobby: null,
    lastSeq: 0, selected: null, mode: null, ended: null, scoreboardClosed: false, attempt: 0 });
  history.replaceState(null, "", "/");
  $("where").textContent = "";
  $("log").replaceChildren(); $("chat-lines").replaceChildren(); $("dice").replaceChildren();
  if ($("status").dataset.state !== "offline") setStatus("offline", "not connected");
  show("home");
  renderHome();
}

function renderHome() {
  const list = $("my-games");
  const games = myGames();
  list.replaceChildren(...games.map((g) => h("li", {},
    h("span", { class: "code-sm", text: g.code }),
    h("span", { class: "muted", text: ` seat ${Number(g.seat) + 1} · ${new Date(g.at).toLocaleString()} ` }),
    h("button", { type: "button", text: "Resume", onclick: () => { state.token = g.token; state.name = g.name ?? ""; connect(g.code, { as: "resume", token: g.token }); } }),
    h("button", { type: "button", class: "link", text: "Forget", onclick: () => { forgetGame(g.code); renderHome(); } }))));
  if (!games.length) list.append(h("li", { class: "muted", text: "No games yet." }));
  const name = localStorage.getItem("citadel:name") ?? "";
  for (const f of ["create", "join"]) {
    const input = /** @type {HTMLInputElement} */ ($(f).querySelector("input[name=name]"));
    if (!input.value) input.value = name;
  }
}

// ---------------------------------------------------------------- lobby

function renderLobby() {
  const l = state.lobby;
  if (!l) return;
  $("code").textContent = l.code;
  const dl = l.options.dark_legion;
  $("lobby-options").textContent = `${l.options.seats} seat${l.options.seats === 1 ? "" : "s"} · Dark Legion: ${
    dl.mode === "ai" ? "AI" : dl.mode === "seat" ? `seat ${dl.seat + 1}` : "drawn at random"} · turn limit: ${
    l.options.turn_seconds ? l.options.turn_seconds + " s" : "none"} · ${l.spectators} watching`;
  const host = state.seat === l.host;
  $("seats").querySelector("tbody")?.replaceChildren(...l.seats.map((s) => {
    const who = s.controller === "open" ? "open" : s.controller === "bot" ? "Bot" : (s.name ?? "?");
    const tags = [s.seat === l.host ? "host" : null, s.seat === state.seat ? "you" : null,
      dl.mode === "seat" && dl.seat === s.seat ? "Dark Legion" : null,
      s.bot_playing ? "bot playing" : null, s.controller === "human" && !s.connected ? "away" : null].filter(Boolean);
    const corp = s.corporation ? h("span", { class: "chip", style: `background:${CORP_COLOR[s.corporation]}` }) : null;
    const botBtn = host && s.controller !== "human"
      ? h("button", { type: "button", "data-bot-seat": s.seat, text: s.controller === "bot" ? "Remove bot" : "Add bot",
        onclick: () => send({ type: "set_bot", seat: s.seat, bot: s.controller !== "bot" }) }) : null;
    return h("tr", { "data-seat": s.seat, class: s.seat === state.seat ? "me" : "" },
      h("td", { text: String(s.seat + 1) }),
      h("td", {}, h("span", { text: who }), tags.length ? h("span", { class: "muted", text: ` (${tags.join(", ")})` }) : null),
      h("td", {}, corp, h("span", { text: s.corporation ? words(s.corporation) : "—" })),
      h("td", { text: s.ready ? "✓ ready" : "" }),
      h("td", {}, botBtn));
  }));
  const mine = l.seats[state.seat ?? -1];
  $("lobby-me").hidden = state.spectator;
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
}

$("ready").onclick = () => send({ type: "ready", ready: !state.ready });
$("start").onclick = () => send({ type: "start" });
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
  const a = analyse();
  if (state.selected !== null && !a.byFig.has(state.selected)) state.selected = null;
  if (state.selected === null && view.active !== null && a.byFig.has(view.active)) state.selected = view.active;
  if (state.selected === null && a.byFig.size === 1) state.selected = [...a.byFig.keys()][0];

  const mine = new Set(myTeam()?.figures ?? []);
  if (state.seat !== null && view.dark_legion.seat === state.seat) {
    for (const f of view.figures) if (f.kind.kind === "creature") mine.add(f.id);
  }
  const sel = state.selected !== null ? a.byFig.get(state.selected) : null;
  const place = a.decisions.filter((c) => c.type === "place");
  const kinds = [...new Set(place.map((c) => /** @type {any} */ (c).kind))];
  if (!kinds.includes(state.placeKind)) state.placeKind = kinds[0] ?? null;
  let squareTargets = new Map(), squareClass = "place-target";
  if (state.mode) { squareTargets = state.mode.cmds; squareClass = "item-target"; }
  else for (const c of place) if (/** @type {any} */ (c).kind === state.placeKind) squareTargets.set(key(c.square), c);

  board.handlers = {
    square: (k) => {
      const c = (state.mode ? null : sel?.moves.get(k)) ?? squareTargets.get(k);
      if (c) sendCommand(c);
      else if (state.selected !== null && !state.mode) { state.selected = null; renderGame(); }
    },
    figure: (id) => {
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
  renderScoreboard(view);
}

function renderTurnInfo(view) {
  const me = state.seat !== null && view.to_act === state.seat;
  let t;
  if (view.phase.phase === "finished") t = "The mission is over.";
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
}

function decisionTitle(view, p) {
  if (!p) return view.phase.phase === "equipment" ? `Equipment draft — ${myTeam()?.credits ?? 0} credits left` : "Choose";
  switch (p.decision) {
    case "white_entrance": return "Choose your entrance (click a white marker or a button)";
    case "red_entrance": return `Choose a red entrance for the ${words(p.kind)}`;
    case "force_option": return `Force card #${p.card}: choose an option`;
    case "place_figures": return `Place the Dark Legion on ${view.tiles[p.tile]?.name ?? "the tile"}: ${p.kinds.map(words).join(", ")}`;
    case "reveal_tile": return "Choose a tile to reveal";
    case "event_figure": return `Event #${p.card}: choose a figure`;
    case "event_tile": return `Event #${p.card}: choose a tile`;
    case "event_square": return `Event #${p.card}: choose a square`;
    case "event_corporation": return `Event #${p.card}: choose a corporation`;
    case "discard_item": return `${figName(view, p.figure)} must discard an item`;
    case "reaction": return `React to the roll${p.dice.length ? ` [${p.dice.map((d) => d.face).join(", ")}]` : ""} for ${figName(view, p.figure)}?`;
    default: return words(p.decision);
  }
}

function renderDecision(view, a, kinds) {
  const box = $("decision");
  const mineToAnswer = a.decisions.length > 0;
  if (!mineToAnswer && !view.pending) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const kids = [h("h3", { text: mineToAnswer ? decisionTitle(view, view.pending) : `Waiting for ${seatName(view.to_act)}: ${decisionTitle(view, view.pending)}` })];
  if (mineToAnswer) {
    if (kinds.length > 1) {
      kids.push(h("div", { class: "row" }, h("span", { text: "Placing: " }), ...kinds.map((k) =>
        h("button", { type: "button", "aria-pressed": String(k === state.placeKind), text: words(k),
          onclick: () => { state.placeKind = k; renderGame(); } }))));
    }
    const shown = a.decisions.filter((c) => c.type !== "place" || (c.kind === state.placeKind && a.decisions.length <= 40));
    if (a.decisions.some((c) => c.type === "place")) kids.push(h("p", { class: "muted", text: "Click a highlighted square to place." }));
    kids.push(h("div", { class: "row options" }, ...shown.map((c, i) =>
      h("button", { type: "button", "data-option": i, text: `${i < 9 ? i + 1 + ". " : ""}${describeCommand(view, c)}`,
        onclick: () => sendCommand(c) }))));
  }
  box.replaceChildren(...kids);
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
  const rest = a.general.filter((c) => !["end_activation", "end_turn", "play_card"].includes(c.type));
  const groups = new Map();
  for (const c of [...figureCmds, ...cards, ...rest]) {
    const sqr = c.type === "use_item" ? c.square : c.type === "play_card" && c.play.as === "text" ? c.play.square : null;
    if (sqr) {
      const label = describeCommand(view, { ...c, square: null, play: c.type === "play_card" ? { ...c.play, square: null } : undefined });
      if (!groups.has(label)) groups.set(label, new Map());
      groups.get(label).set(key(sqr), c);
    } else {
      kids.push(h("button", { type: "button", class: `act ${c.type}`, text: describeCommand(view, c), onclick: () => sendCommand(c) }));
    }
  }
  for (const [label, cmds] of groups) {
    kids.push(h("button", { type: "button", class: "act square", text: `${label}…`, onclick: () => { state.mode = { label, cmds }; renderGame(); } }));
  }
  box.replaceChildren(...kids);
}

function renderPanel(view) {
  $("round").textContent = `Round ${view.round}${view.final_round ? " · FINAL ROUND" : ""} · ${
    view.phase.phase === "equipment" ? "equipment draft" : view.phase.phase === "corporation" ? `${words(view.teams.find((t) => t.team === /** @type {any} */ (view.phase).team)?.corporation ?? "")} turn`
      : view.phase.phase === "dark_legion" ? "Dark Legion turn" : "finished"}`;
  $("round").classList.toggle("final", view.final_round);
  const rows = view.teams.map((t) => {
    const acting = view.phase.phase === "corporation" && view.phase.team === t.team;
    const figs = t.figures.map((id) => view.figures.find((f) => f.id === id)).filter(Boolean);
    return h("tr", { class: acting ? "acting" : "", "data-team": t.team },
      h("td", {}, h("span", { class: "chip", style: `background:${CORP_COLOR[t.corporation]}` }),
        h("b", { text: words(t.corporation) }), h("br"), h("span", { class: "muted", text: seatName(t.seat) })),
      h("td", { text: `${t.pp} PP`, title: "promotion points" }),
      h("td", { text: `rank ${t.rank}` }),
      h("td", { title: "actions left", text: figs.map((f) => `${figLabel(view, f)} ${Math.max(0, f.actions_allowed - f.actions_used)}`).join(" · ") }),
      h("td", { title: "reckless tokens · cards in hand", text: `${t.reckless ? "⚠" + t.reckless + " " : ""}🂠${t.hand_size}` }));
  });
  const dl = view.dark_legion;
  rows.push(h("tr", { class: view.phase.phase === "dark_legion" ? "acting" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${DL_COLOR}` }), h("b", { text: "Dark Legion" }), h("br"),
      h("span", { class: "muted", text: dl.seat === null ? "AI" : seatName(dl.seat) })),
    h("td", { text: `${dl.pp} PP` }), h("td", { text: `band ${dl.band}` }),
    h("td", { text: `force pile ${view.force_pile}` }), h("td", { text: "" })));
  $("sides").replaceChildren(h("tbody", {}, ...rows));
  const hand = myTeam()?.hand ?? null;
  $("hand-box").hidden = state.spectator || !hand;
  $("hand").replaceChildren(...(state.spectator ? [] : (hand ?? []).map((c, i) => h("li", { "data-card": i, text: words(c) }))));
  $("hand-box").querySelector("h3").textContent = hand && hand.length ? "Your cards" : "Your cards: none";
}

function renderScoreboard(view) {
  const box = $("scoreboard");
  if (view.phase.phase !== "finished" || state.scoreboardClosed) { box.hidden = true; return; }
  box.hidden = false;
  const e = state.ended;
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
      h("button", { type: "button", text: "Home", onclick: () => goHome() }))));
}

// ---------------------------------------------------------------- forms, keys

$("create").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const dl = f.get("dl");
  const name = String(f.get("name")).trim();
  const options = {
    mission: "ce-c1m1", seats: Number(f.get("seats")), starting_rank: 1,
    dark_legion: dl === "ai" ? { mode: "ai" } : dl === "host" ? { mode: "seat", seat: 0 } : { mode: "drawn" },
    turn_seconds: f.get("turn") ? Number(f.get("turn")) : null,
  };
  try {
    const res = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(options) });
    const body = await res.json();
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

$("home-link").onclick = (e) => { e.preventDefault(); goHome(); };

document.addEventListener("keydown", (e) => {
  const t = /** @type {HTMLElement} */ (e.target);
  if (t.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  if ($("game").hidden) return;
  const k = e.key.toLowerCase();
  if (k === "escape") { state.selected = null; state.mode = null; renderGame(); }
  else if (k === "e") /** @type {HTMLButtonElement} */ ($("end-turn"))?.click();
  else if (k === "a") /** @type {HTMLButtonElement} */ ($("end-activation"))?.click();
  else if (/^[1-9]$/.test(k)) /** @type {HTMLButtonElement|null} */ ($("decision").querySelector(`button[data-option="${Number(k) - 1}"]`))?.click();
});

// ---------------------------------------------------------------- start

(function boot() {
  const code = location.hash.slice(1).toUpperCase();
  const saved = code && myGames().find((g) => g.code === code);
  show("home");
  renderHome();
  if (saved) { state.token = saved.token; state.name = saved.name ?? ""; connect(code, { as: "resume", token: saved.token }); }
})();
