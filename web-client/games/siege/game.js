// Siege of the Citadel's client module: the board, the words and the
// panels of one game, behind the shell's game-module interface
// (docs/ARCHITECTURE.md, "The browser client: shell and game modules").
// The shell (web-client/app.js) owns the connection, resume, seq/ack,
// view patches, the lobby's seats and ready/start, chat, hotseat, replays,
// "my games" and accounts; everything here knows Siege: corporations,
// Doomtroopers and the team choice, the Dark Legion, the mission picker
// and briefings, decisions and actions built from `legal`, the side
// panel, the scoreboard, the rules reference and the campaigns.
// Thin like the shell: it holds no rules, and offers exactly `legal`.
// @ts-check
import { $, h } from "../../dom.js";
import { Board, key, tokenLegend } from "./board.js";
import {
  CORPS, CORP_COLOR, CREATURE_LETTER, DL_COLOR, content, creatureName, describeCommand, describeEvent, eventName, secondaryName, secondaryText, figLabel, figName,
  dtCardName, forceCard, goalText, missionDef, plural, setPlaces, sq, words,
} from "./text.js";
import { withArticle } from "./text.js";
import { DIRECTIONS, DIRECTION_ARROW, DIRECTION_WORD } from "./text.js";
import { dtCardText, itemInfo } from "./text.js";
import { editionOf, setContent, useEdition } from "./text.js";
import { twoUseCard, twoUseName, twoUseTarget, twoUseUseName } from "./text.js";
import { cardEffectText, tileName } from "./text.js";
import { SLOTS } from "./slots.js";

// Siege's payloads (generated: ./protocol.ts); the envelope is the shell's ../../protocol.ts.
/** @typedef {import("./protocol").GameView} GameView */
/** @typedef {import("./protocol").Command} Command */
/** @typedef {import("./protocol").MapData} MapData */
/** @typedef {import("../../protocol").LobbyView} LobbyView */
/** @typedef {import("../../protocol").LobbySeat} LobbySeat */
/** @typedef {import("../../http").Me} Me */
/** @typedef {import("../../http").MyCampaign} MyCampaign */
/** @typedef {import("../../http").Replay} Replay */
/** @typedef {import("../../http").CampaignCreated} CampaignCreated */
/** @typedef {import("../../http").CampaignJoined} CampaignJoined */
/** @typedef {import("./protocol").CampaignNextGame} CampaignNextGame */
/** @typedef {import("./protocol").CampaignCreditBought} CampaignCreditBought */
/** @typedef {import("./protocol").CampaignStandings} CampaignStandings */
/** @typedef {import("./protocol").ContentDoc} ContentDoc */

/**
 * The shell's services (app.js gives them to `init`): the shown
 * connection (`conn`: code, seat, spectator, name, view, staticData (the map), legal,
 * lobby, lastSeq, campaign, logEl, and `game`, this module's own state for
 * it), and what the shell does for every game.
 * @type {any}
 */
let shell = null;
/** The connection the page shows. */
const conn = () => shell.conn;
/** This module's state for the shown connection (see `newConnState`). */
const ui = () => shell.conn.game;

/** The board, drawn in the shell's `svg#board` (made in `init`). @type {Board} */
let board = /** @type {any} */ (null);

/** Send `command` (one of `legal`) and draw again. */
function sendCommand(command) {
  const u = ui();
  u.mode = null;
  u.cardChoice = null;
  u.cardFrom = null;
  shell.command(command);
}


// ---------------------------------------------------------------- the legal list

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

// ---------------------------------------------------------------- events: the log and the board

/** "Drawn at random": say who the draw made the Dark Legion, loudly if it is you. */
function announceDraw(view) {
  const dl = view.dark_legion.seat;
  if (dl === null) return;
  const text = dl === conn().seat ? "The draw made you the Dark Legion: you play the creatures against the corporations."
    : `The draw made ${shell.seatName(dl)} the Dark Legion.`;
  shell.logLine(text, "sys");
  shell.toast(text, "info");
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
    shell.logLine(line, event.type, logEl);
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
// `lastAt` starts at minus infinity: `performance.now()` counts from the
// page's load, so a first move within 250 ms of it is no burst.
const GLIDE = { lastAt: -Infinity, maxSquares: 12, minGap: 250 };
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
function glide() {
  const now = performance.now();
  const squares = [...glides.values()].reduce((n, p) => n + p.length - 1, 0);
  const burst = glides.size > 2 || squares > GLIDE.maxSquares || now - GLIDE.lastAt < GLIDE.minGap;
  if (glides.size) GLIDE.lastAt = now;
  const n = reducedMotion.matches || burst || $("game").hidden ? 0 : board.animate(glides);
  // Recorded only when there was a move to glide: a render with none (a
  // late answer redrawing the page) must not hide the last glide's record.
  if (glides.size) /** @type {any} */ (window).citadel.glides.push({ figures: [...glides.keys()], animated: n, burst, reduced: reducedMotion.matches });
  glides.clear();
}

function dieEl(d) {
  return h("span", { class: `die ${d.color}${d.reroll ? " reroll" : ""}`, title: `${d.color} die: face ${d.face}, ${d.hits} hit(s)`, text: `${d.face}` },
    h("sub", { text: d.hits ? "✶".repeat(d.hits) : "" }));
}

// ---------------------------------------------------------------- campaigns

const missionName = (m) => String(m ?? "").replace(/^ce-/, "").replace(/^classic-/, "1993 ").toUpperCase();

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

const campaign = { code: null, poll: 0, data: null, busy: false };

function stopCampaignPolling() {
  clearInterval(campaign.poll);
  campaign.poll = 0;
}

function openCampaign(code) {
  shell.leaveGame();
  code = code.toUpperCase();
  campaign.code = code;
  campaign.data = null;
  history.replaceState(null, "", `#campaign/${code}`);
  $("where").textContent = `Campaign ${code}`;
  $("campaign-name").textContent = "Loading…";
  shell.show("campaign");
  refreshCampaign();
  campaign.poll = setInterval(refreshCampaign, 3000);
}

async function refreshCampaign() {
  const code = campaign.code;
  try {
    const data = /** @type {CampaignStandings} */ (await shell.api("GET", `/api/campaigns/${encodeURIComponent(code)}`));
    if (code !== campaign.code || $("campaign").hidden) return;
    campaign.data = data;
    renderCampaign(data);
  } catch (err) {
    if (code !== campaign.code) return;
    shell.toast(`Could not load campaign ${code}: ${err.message}`);
    if (err.status === 404) { forgetCampaign(code); shell.goHome(); }
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
    h("td", {}, h("button", { type: "button", class: "link", "data-replay": m.game, text: "Replay", onclick: () => shell.openReplay(m.game) }))));
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
  play.onclick = () => cur && me && shell.resumeGame(cur.game, me.token, me.name, c.code);
  const watch = /** @type {HTMLButtonElement} */ ($("watch-campaign-game"));
  watch.hidden = !(cur && !me);
  watch.onclick = () => { if (!cur) return; shell.leaveGame(); conn().name = shell.session()?.name ?? "Spectator"; conn().campaign = c.code; shell.connect(cur.game, { as: "spectator", name: conn().name }); };
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

/** The campaign screen's buttons and the home screen's campaign forms. */
function bindCampaigns() {
$("next-mission").onclick = async () => {
  const me = myCampaigns().find((x) => x.code === campaign.code);
  if (!me || campaign.busy) return;
  campaign.busy = true;
  /** @type {HTMLButtonElement} */ ($("next-mission")).disabled = true;
  try {
    const chosen = campaign.data?.choices?.length ? { mission: /** @type {HTMLSelectElement} */ ($("free-mission")).value } : {};
    const started = /** @type {CampaignNextGame} */ (await shell.api("POST", `/api/campaigns/${encodeURIComponent(me.code)}/next`, chosen, me.token));
    shell.resumeGame(started.game, me.token, me.name, me.code);
  } catch (err) {
    shell.toast(`Could not start the next mission: ${err.message}`);
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
    const bought = /** @type {CampaignCreditBought} */ (await shell.api("POST", `/api/campaigns/${encodeURIComponent(me.code)}/credit`, {}, me.token));
    shell.toast(`Credit bought: ${bought.credits} credits, ${bought.pp} PP (rank ${bought.rank}).`, "info");
  } catch (err) {
    shell.toast(`Could not buy a credit: ${err.message}`);
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
    const made = /** @type {CampaignCreated} */ (await shell.api("POST", "/api/campaigns", body));
    const code = /** @type {HTMLInputElement} */ ($("join-campaign").querySelector("input[name=code]"));
    code.value = made.code;
    shell.toast(`Campaign ${made.code} created: join it below with your name and corporation, and share the code.`, "info");
    /** @type {HTMLElement} */ ($("join-campaign").querySelector("input[name=name]")).focus();
  } catch (err) {
    shell.toast(`Could not create the campaign: ${err.message}`);
  }
};

$("join-campaign").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
  const code = String(f.get("code")).trim().toUpperCase();
  const name = String(f.get("name")).trim();
  try {
    // Logged in: the campaign is linked to the account (listed in "My campaigns" on any device).
    const joined = /** @type {CampaignJoined} */ (await shell.api("POST", `/api/campaigns/${encodeURIComponent(code)}/join`, { name, corporation: String(f.get("corporation")) }, shell.session()?.token));
    localStorage.setItem("citadel:name", name);
    saveCampaign({ code, token: joined.token, player: joined.player, name });
    openCampaign(code);
  } catch (err) {
    shell.toast(`Could not join campaign ${code}: ${err.message}`);
  }
};
}

// ---------------------------------------------------------------- the game screen

// ---------------------------------------------------------------- game

function myTeam() {
  return conn().view?.teams.find((t) => t.seat === conn().seat) ?? null;
}

/** What the legal list offers, grouped for the screen. */
function analyse() {
  const legal = conn().legal;
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

/** The game screen for the shown connection; its status in a few words (the tab's title). */
function render() {
  const view = conn().view;
  if (!view || !conn().staticData) return { status: "" };
  // A 1993 game shows the 1993 tables (AF, ranks 1–6, its items).
  useEdition(editionOf(view.mission));
  const a = analyse();
  if (ui().selected !== null && !a.byFig.has(ui().selected)) ui().selected = null;
  if (ui().selected === null && view.active !== null && a.byFig.has(view.active)) ui().selected = view.active;
  if (ui().selected === null && a.byFig.size === 1) ui().selected = [...a.byFig.keys()][0];

  const mine = new Set(myTeam()?.figures ?? []);
  if (conn().seat !== null && view.dark_legion.seat === conn().seat) {
    for (const f of view.figures) if (f.kind.kind === "creature") mine.add(f.id);
  }
  const sel = ui().selected !== null ? a.byFig.get(ui().selected) : null;
  const place = a.decisions.filter((c) => PLACEMENTS.has(c.type));
  const kinds = [...new Set(place.map((c) => placeKind(c)))];
  if (!kinds.includes(ui().placeKind)) ui().placeKind = kinds[0] ?? null;
  let squareTargets = new Map(), squareClass = "place-target";
  if (ui().mode) { squareTargets = ui().mode.cmds; squareClass = "item-target"; }
  else for (const c of place) if (placeKind(c) === ui().placeKind) squareTargets.set(key(/** @type {any} */ (c).square), c);

  board.handlers = {
    square: (k) => {
      const c = (ui().mode ? null : sel?.moves.get(k)) ?? squareTargets.get(k);
      if (c) sendCommand(c);
      else if (ui().selected !== null && !ui().mode) { ui().selected = null; shell.render(); }
    },
    figure: (id) => {
      // Aiming at a square (a grenade, a sweep's first square): a figure
      // standing on a highlighted square stands for its square.
      const on = view.figures.find((f) => f.id === id)?.place;
      const aimed = ui().mode && on?.at === "board" ? ui().mode.cmds.get(key(on.square)) : null;
      if (aimed) return sendCommand(aimed);
      const atk = sel?.attacks.filter((c) => c.target === id) ?? [];
      if (atk.length === 1) return sendCommand(atk[0]);
      if (atk.length > 1) return shell.toast("Choose the kind of attack with the buttons below the board.");
      const choose = a.decisions.find((c) => c.type === "choose_figure" && c.figure === id);
      if (choose) return sendCommand(choose);
      if (a.byFig.has(id)) { ui().selected = ui().selected === id ? null : id; ui().mode = null; shell.render(); }
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
    mine, selected: ui().selected,
    moveTargets: ui().mode ? new Map() : sel?.moves ?? new Map(),
    squareTargets, squareClass,
    attackTargets: new Set(ui().mode ? [] : sel?.attacks.map((c) => c.target) ?? []),
    figureChoices: new Set(a.decisions.filter((c) => c.type === "choose_figure").map((c) => /** @type {any} */ (c).figure)),
    entranceChoices: new Set(a.decisions.filter((c) => c.type === "choose_entrance").map((c) => /** @type {any} */ (c).entrance)),
    tileChoices: new Set(a.decisions.filter((c) => c.type === "choose_tile").map((c) => /** @type {any} */ (c).tile)),
    trail: trail.squares,
    last,
  });
  for (const g of board.svg.querySelectorAll("[data-figure]")) {
    if (a.byFig.has(Number(g.getAttribute("data-figure")))) g.classList.add("can-act");
  }

  $("spectating").hidden = !conn().spectator;
  $("actions").hidden = conn().spectator;
  const status = renderTurnInfo(view);
  renderDecision(view, a, kinds);
  renderActions(view, a, sel);
  renderPanel(view);
  renderBriefing(view);
  renderLegend(view);
  renderTokenLegend(view);
  renderScoreboard(view);
  scheduleAutoPass();
  return { status };
}

// Reaction windows open on public facts only, so that opponents learn
// nothing about a hand; the page answers "pass" by itself when no card in
// hand can be played (or always, with the auto-pass setting), after the
// same short delay either way so the timing tells nothing either.
const AUTO_PASS_MS = 1200;
const autoPass = { key: /** @type {string|null} */ (null), timer: 0 };
const autoPassOn = () => localStorage.getItem("citadel:auto-pass") === "1";

function scheduleAutoPass() {
  const reacts = conn().legal.filter((c) => c.type === "react");
  const pass = reacts.find((c) => /** @type {any} */ (c).card === null);
  const auto = !!pass && reacts.length === conn().legal.length && (reacts.length === 1 || autoPassOn());
  const key = auto ? `${conn().code}:${conn().lastSeq}` : null;
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
  const band = conn().view?.dark_legion.band ?? 1;
  const dice = (xs) => (xs.length ? xs.map(words).join(" ") : "—");
  const classic = content.edition === "classic";
  const rows = (content.data?.creatures ?? []).map((c) => {
    const st = c.bands[band - 1];
    return h("tr", {}, h("td", {}, h("span", { class: "icon", text: CREATURE_LETTER[c.kind] ?? "?" }), document.createTextNode(c.name)),
      h("td", { text: dice(st.cc) }), h("td", { text: dice(st.fa) }), h("td", { text: String(st.dv) }),
      ...(classic ? [] : [h("td", { text: st.defense_die ? words(st.defense_die) : "—" })]), h("td", { text: String(c.actions) }), h("td", { text: String(st.pp) }));
  });
  const m = conn().view ? missionDef(conn().view.mission) : null;
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
  if (view.phase.phase === "dark_legion") return conn().seat !== null && view.dark_legion.seat === conn().seat;
  if (view.phase.phase === "corporation" || view.phase.phase === "equipment") return !!team && /** @type {any} */ (view.phase).team === team.team;
  return false;
}

function renderTurnInfo(view) {
  const me = conn().seat !== null && view.to_act === conn().seat;
  let t;
  if (view.phase.phase === "finished") t = "The mission is over.";
  else if (me && (view.pending?.decision === "reaction" || !myOwnTurn(view))) t = "Your decision";
  else if (me) t = ui().selected !== null ? `Your turn — ${figName(view, ui().selected)} selected` : "Your turn";
  else if (view.to_act === null) t = "Waiting…";
  else if (view.dark_legion.seat === null && view.to_act === view.dark_legion.ai_seat) t = "The Dark Legion AI is playing…";
  else t = `Waiting for ${shell.seatName(view.to_act)}…`;
  const el = $("turn-info");
  el.textContent = t;
  const f = view.figures.find((x) => x.id === ui().selected);
  if (f) {
    el.append(h("span", { id: "sel-info", text: ` — health ${f.health}, actions ${f.actions_used}/${f.actions_allowed}${
      f.weapon ? ", " + words(f.weapon) : ""}${f.items.length ? ", carries " + f.items.map(words).join(", ") : ""}` }));
  }
  el.classList.toggle("mine", me);
  return t;
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
  const kids = [h("h3", { text: mineToAnswer ? decisionTitle(view, view.pending) : `Waiting for ${shell.seatName(view.to_act)} ${publicDecision(view.pending)}…` })];
  if (mineToAnswer) {
    if (kinds.length > 1) {
      kids.push(h("div", { class: "row" }, h("span", { text: "Placing: " }), ...kinds.map((k) =>
        h("button", { type: "button", "aria-pressed": String(k === ui().placeKind), text: words(k),
          onclick: () => { ui().placeKind = k; shell.render(); } }))));
    }
    const shown = a.decisions.filter((c) => !PLACEMENTS.has(c.type) || (placeKind(c) === ui().placeKind && a.decisions.length <= 40));
    if (a.decisions.some((c) => PLACEMENTS.has(c.type))) {
      const placing = a.decisions.some((c) => PLACEMENTS.has(c.type) && c.type !== "choose_square");
      kids.push(h("p", { class: "muted", text: placing ? "Click a highlighted square to place." : "Click a highlighted square to choose it." }));
    }
    const reacts = a.decisions.filter((c) => c.type === "react");
    if (reacts.length && reacts.length === conn().legal.length && (reacts.length === 1 || autoPassOn())) {
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
  const plays = conn().legal.filter((c) => c.type === "play_two_use");
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
          onclick: () => { ui().cardChoice = k; shell.render(); $("hand-box").scrollIntoView({ block: "nearest" }); } });
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
  if (ui().mode) {
    kids.push(h("span", { class: "hint", text: `${ui().mode.label}: click a highlighted square.` }),
      h("button", { type: "button", text: "Cancel (Esc)", onclick: () => { ui().mode = null; shell.render(); } }));
  }
  const endAct = has("end_activation"), endTurn = has("end_turn");
  kids.push(h("button", { type: "button", id: "end-activation", disabled: !endAct, title: "A", text: "End activation (A)", onclick: () => endAct && sendCommand(endAct) }));
  kids.push(h("button", { type: "button", id: "end-turn", disabled: !endTurn, title: "E", text: "End turn (E)", onclick: () => endTurn && sendCommand(endTurn) }));
  // The selected figure's other actions, then cards and the rest.
  const figureCmds = sel ? [...sel.attacks, ...sel.other] : [];
  const cards = a.general.filter((c) => c.type === "play_card" && (ui().selected === null || c.figure === ui().selected));
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
      onclick: () => { ui().mode = { label, cmds: g.cmds }; shell.render(); } }));
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
        h("b", { text: words(t.corporation) }), h("br"), presence(t.seat), h("span", { class: "muted", text: shell.seatName(t.seat) })),
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
      h("span", { class: "muted", text: dl.seat === null ? "AI" : shell.seatName(dl.seat) })),
    h("td", { text: `${dl.pp} PP` }), h("td", { text: `band ${dl.band}` }),
    h("td", { title: "force cards left to draw", text: `${plural(view.force_pile, "force card")} left` }), h("td", { text: "" })));
  $("sides").replaceChildren(h("tbody", {}, ...rows));
  const hand = myTeam()?.hand ?? null;
  // A 1993 game: the team's two-use cards (sent to their owner only).
  const classic = editionOf(view.mission) === "classic";
  const twoUse = classic && myTeam() ? myTeam()?.cards ?? [] : null;
  $("hand-box").hidden = conn().spectator || (!hand && !twoUse);
  $("hand").replaceChildren(...(conn().spectator ? [] : [...(hand ?? []).map((c, i) => h("li", { "data-card": i, "data-kind": c },
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
      const cmds = conn().legal.filter((c) => c.type === "play_two_use" && c.card === n && c.card_use === u.card_use);
      const react = win !== null && u.answers === win ? conn().legal.find((c) => c.type === "react" && c.card === i) : null;
      if (react) cmds.push(react);
      const open = ui().cardChoice === `${n}:${u.card_use}` && cmds.length > 1;
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
                text: open ? "Play… (close)" : "Play…", onclick: () => { ui().cardChoice = open ? null : `${n}:${u.card_use}`; ui().cardFrom = null; shell.render(); } })
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
  const chosen = from.includes(ui().cardFrom) ? ui().cardFrom : null;
  return h("div", { class: "use-targets" },
    h("div", { class: "row", role: "group", "aria-label": `${u.name}: from which sector` }, h("span", { class: "muted", text: "From:" }),
      ...from.map((t) => h("button", { type: "button", "data-from-tile": t, "aria-pressed": String(t === chosen), text: tileName(view, t),
        onclick: () => { ui().cardFrom = t === chosen ? null : t; shell.render(); } }))),
    chosen === null ? null : h("div", { class: "row", role: "group", "aria-label": `${u.name}: to which sector` }, h("span", { class: "muted", text: "To:" }),
      ...cmds.filter((c) => c.tile === chosen).map((c) => h("button", { type: "button", "data-to-tile": c.to_tile, text: tileName(view, c.to_tile),
        title: `${u.name}${twoUseTarget(view, c)}`, onclick: () => sendCommand(c) }))));
}

/** A dot: the seat's player is online, away, or played by the computer. */
function presence(seat) {
  const s = conn().lobby?.seats[seat];
  if (!s || s.controller !== "human") return null;
  const st = s.bot_playing ? "bot" : s.connected ? "online" : "away";
  const label = { online: "online", away: "away", bot: "away: the computer plays for now" }[st];
  return h("span", { class: `presence ${st}`, title: label, role: "img", "aria-label": label });
}

function renderScoreboard(view) {
  const box = $("scoreboard");
  if (view.phase.phase !== "finished" || ui().scoreboardClosed) { box.hidden = true; return; }
  box.hidden = false;
  const e = ui().ended;
  if (conn().code) {
    const mine = conn().seat === null || !e ? null : view.dark_legion.seat === conn().seat ? e.dl_wins : e.winners.includes(conn().seat);
    shell.markFinished(conn().code, mine === null ? null : mine ? "won" : "lost");
  }
  const result = e?.result ?? view.phase.result;
  const winners = new Set(e?.winners ?? []);
  const rows = view.teams.map((t) => h("tr", { class: winners.has(t.seat) ? "winner" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${CORP_COLOR[t.corporation]}` }), h("span", { text: words(t.corporation) })),
    h("td", { text: shell.seatName(t.seat) }), h("td", { text: `${t.pp} PP` }), h("td", { text: `rank ${t.rank}` }),
    h("td", { text: winners.has(t.seat) ? "★ winner" : "" })));
  const dlWin = e ? e.dl_wins : false;
  rows.push(h("tr", { class: dlWin ? "winner" : "" },
    h("td", {}, h("span", { class: "chip", style: `background:${DL_COLOR}` }), h("span", { text: "Dark Legion" })),
    h("td", { text: view.dark_legion.seat === null ? "AI" : shell.seatName(view.dark_legion.seat) }),
    h("td", { text: `${view.dark_legion.pp} PP` }), h("td", { text: `band ${view.dark_legion.band}` }),
    h("td", { text: dlWin ? "★ winner" : "" })));
  box.replaceChildren(h("div", { class: "card" },
    h("h2", { text: result === "success" ? "Mission accomplished" : result === "failure" ? "Mission failed" : "Mission over" }),
    h("p", { text: `After ${view.round} round${view.round === 1 ? "" : "s"}.` }),
    h("table", {}, h("thead", {}, h("tr", {}, ...["Side", "Player", "PP", "Rank", ""].map((t) => h("th", { text: t })))), h("tbody", {}, ...rows)),
    h("div", { class: "row" },
      h("button", { type: "button", text: "Show the board", onclick: () => { ui().scoreboardClosed = true; shell.render(); } }),
      h("button", { type: "button", id: "watch-replay", "data-replay": conn().code, text: "Replay",
        onclick: () => { const code = conn().code; if (code) shell.openReplay(code); } }),
      conn().campaign ? h("button", { type: "button", id: "back-to-campaign", text: "Campaign standings",
        onclick: () => { const c = conn().campaign; if (c) openCampaign(c); } }) : null,
      h("button", { type: "button", text: "Home", onclick: () => shell.goHome() }))));
}

// ---------------------------------------------------------------- the mission picker

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
  const showBrief = () => {
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
  select.onchange = showBrief;
  showBrief();
}


// ---------------------------------------------------------------- the lobby

/** The lobby's line about the game's options. @param {LobbyView} l @param {number} watching */
function lobbySummary(l, watching) {
  const dl = l.options.dark_legion;
  const m = missionDef(l.options.mission);
  return `${m ? `${m.name} · ` : ""}${l.options.seats} seat${l.options.seats === 1 ? "" : "s"} · Dark Legion: ${
    dl.mode === "ai" ? "the AI" : dl.mode === "seat" ? (l.seats[dl.seat]?.name ?? "the host") : "drawn at random among the players"} · turn limit: ${
    l.options.turn_seconds ? l.options.turn_seconds + " s" : "none"} · starting rank ${l.options.starting_rank ?? 1} · ${watching} watching`;
}

/**
 * A lobby seat's choice (the game's JSON: `{corporation, doomtroopers}`,
 * either null), or an empty one.
 * @param {LobbySeat|undefined|null} s
 * @returns {{corporation: string|null, doomtroopers: string[]|null}}
 */
function choiceOf(s) {
  const c = /** @type {any} */ (s?.choice) ?? {};
  return { corporation: c.corporation ?? null, doomtroopers: Array.isArray(c.doomtroopers) ? c.doomtroopers : null };
}

/**
 * Send the shown seat's whole choice (protocol 3's `choose`: it replaces
 * the one before), `change` over what the lobby says it is now.
 * @param {{corporation?: string|null, doomtroopers?: string[]|null}} change
 */
function sendChoice(change) {
  const mine = choiceOf(conn().lobby?.seats[conn().seat ?? -1]);
  shell.send({ type: "choose", choice: { ...mine, ...change } });
}

/** The seat's side in the lobby's table: its corporation's chip and name. @param {LobbySeat} s */
function seatSide(s) {
  const { corporation } = choiceOf(s);
  const corp = corporation ? h("span", { class: "chip", style: `background:${CORP_COLOR[corporation]}` }) : null;
  return [corp, h("span", { text: corporation ? words(corporation) : "—" })];
}

/** What the lobby's table says about a seat besides host and you: the Dark Legion's. */
function seatTags(l, s) {
  const dl = l.options.dark_legion;
  return dl.mode === "seat" && dl.seat === s.seat ? ["Dark Legion"] : [];
}

/**
 * The shown seat's own choice: its corporation (one each) and its
 * Doomtroopers; the Dark Legion's player has none.
 * @param {LobbyView} l @param {{who: string, hotseat: boolean}} opts
 */
function renderSeatChoice(l, { who, hotseat }) {
  const dl = l.options.dark_legion;
  const mine = l.seats[conn().seat ?? -1];
  // The Dark Legion's player has no corporation (and must not block one for others).
  const iAmDl = dl.mode === "seat" && dl.seat === conn().seat;
  $("corps").hidden = iAmDl;
  $("team-label").hidden = iAmDl;
  $("seat-choice-title").textContent = iAmDl ? `${who} play${who === "You" ? "" : "s"} the Dark Legion` : hotseat ? `${who}'s corporation` : "Your corporation";
  $("corps").replaceChildren(...CORPS.map((c) => {
    const takenBy = l.seats.find((s) => choiceOf(s).corporation === c);
    return h("button", {
      type: "button", "data-corp": c, "aria-pressed": String(choiceOf(mine).corporation === c),
      disabled: takenBy && takenBy.seat !== conn().seat, style: `--corp:${CORP_COLOR[c]}`,
      text: words(c), onclick: () => sendChoice({ corporation: c }),
    });
  }));
  // The Doomtroopers the seat has chosen (in any order), else the list's first.
  const team = choiceOf(mine).doomtroopers;
  const select = /** @type {HTMLSelectElement} */ ($("team-choice"));
  const match = team && [...select.options].find((o) => [...o.value.split(",")].sort().join() === [...team].sort().join());
  if (match && document.activeElement !== select) select.value = match.value;
}

/** The create form's options for `POST /api/games` (the turn limit is the shell's). @param {FormData} f */
function createOptions(f) {
  const dl = f.get("dl");
  return {
    mission: String(f.get("mission") || "ce-c1m1"), seats: Number(f.get("seats")), starting_rank: Number(f.get("starting_rank") || 1),
    dark_legion: dl === "ai" ? { mode: "ai" } : dl === "host" ? { mode: "seat", seat: 0 } : { mode: "drawn" },
  };
}

// ---------------------------------------------------------------- what the shell calls

/** The first lines of a game's log: the mission and its goal. */
function logStart(view, logEl) {
  const m = missionDef(view.mission);
  if (m) shell.logLine(`Mission: ${m.name}. ${briefingText(m)}`, "sys", logEl);
}

/** The seat the game waits for, or null (nobody, or the game is over). @param {GameView} view */
function toAct(view) {
  return view.phase.phase === "finished" ? null : view.to_act;
}

/** A seat's side in words (the hand-over screen): "the Dark Legion", a corporation, or "". */
function sideOf(view, seat) {
  if (!view) return "";
  if (view.dark_legion.seat === seat) return "the Dark Legion";
  const corp = view.teams.find((t) => t.seat === seat)?.corporation;
  return corp ? words(corp) : "";
}

/** The name of a seat nobody sits at and no lobby names: the AI's, else its side's player. */
function seatFallbackName(view, seat, lobbyName) {
  if (view && view.dark_legion.seat === null && seat === view.dark_legion.ai_seat) return { first: "the Dark Legion AI" };
  if (lobbyName) return null;
  const corp = view?.teams.find((t) => t.seat === seat)?.corporation;
  return corp ? { last: `the ${words(corp)} player` } : null;
}

/** What only `c`'s seat may see (window.citadel.hotseat; tests check none of it reaches the page for another seat). */
function secretsOf(c) {
  const t = c.view?.teams.find((x) => x.seat === c.seat) ?? null;
  return { hand: t?.hand ?? null, cards: t?.cards ?? null, secondary: t?.secondary ?? null, secondary_offer: t?.secondary_offer ?? null };
}

/** A connection shows nothing yet (hotseat switched to it): take the previous seat's side away. */
function clearSide() {
  $("hand").replaceChildren(); $("hand-box").hidden = true; $("sides").replaceChildren();
  $("card-effects").replaceChildren(); $("effects-box").hidden = true;
  $("decision").replaceChildren(); $("decision").hidden = true; $("actions").replaceChildren(); $("turn-info").textContent = "";
}

/**
 * One event for connection `c` (in order; `view` is the view after the
 * batch). Its log line goes to `c.logEl`; the shown connection (`shown`)
 * also marks the board and, unless `quiet` (a catch-up), shows dice and news.
 */
function onEvent(c, view, event, { seq = 0, quiet = false, shown = true, names = shell.seatName } = {}) {
  const line = logEvent(c.logEl, view, event, c.game.rollCtx, names);
  if (event.type === "mission_ended") c.game.ended = event;
  if (!shown) {
    if (c.staticData) markEvent(event, seq, false);
    return;
  }
  markEvent(event, seq, true);
  if (quiet) return;
  if (event.type === "attack_rolled") {
    const box = $("dice");
    box.replaceChildren(h("span", { text: `${figName(view, event.attacker)} → ${figName(view, event.target)}: ` }),
      ...event.dice.map(dieEl), h("b", { text: ` ${event.hits} hit${event.hits === 1 ? "" : "s"}` }));
  } else if (event.type === "defense_rolled") {
    $("dice").append(h("span", { text: ` · ${figName(view, event.figure)} defends: ` }), dieEl(event.die));
  } else if (event.type === "force_card_revealed") {
    shell.toast(line ?? "A force card is revealed", "info");
  }
}

/** The board shows another map (a new game, a replay, or 1993 event 11's change). */
function setMap(map) {
  board.setMap(map);
  setPlaces(map);
}

/** The page leaves its game: forget the board's marks. */
function reset() {
  trail.figure = null; trail.squares = []; markedSeq = 0;
  last.actor = null; last.targets = new Set(); last.squares = [];
  glides.clear();
}

/** A replay step: the board, its round line, the command in words and its events' lines. */
function replayStep(st, before, setup) {
  const view = st.view;
  const names = (seat) => replaySeatName(view, setup, seat);
  if (st.static_data && board.map !== st.static_data) setMap(st.static_data);
  board.render(view, {
    mine: new Set(), selected: null, moveTargets: new Map(), squareTargets: new Map(), squareClass: "place-target",
    attackTargets: new Set(), figureChoices: new Set(), entranceChoices: new Set(), tileChoices: new Set(),
  });
  const ctx = { roll: null };
  return {
    round: `Round ${view.round}${view.final_round ? " · final round" : ""} · ${view.phase.phase === "finished" ? "mission over" : words(view.phase.phase)}`,
    command: st.command
      ? `${names(st.seat).replace(/^./, (ch) => ch.toUpperCase())}: ${describeCommand(before, st.command)}`
      : "The mission is set up.",
    lines: st.events.map(({ seq, event }) => ({ seq, type: event.type, text: describeEvent(view, event, names, ctx) })).filter((x) => x.text),
  };
}

function replaySeatName(view, setup, seat) {
  const dl = view?.dark_legion;
  if (seat === null || seat === undefined || (dl && dl.seat === null && seat === dl.ai_seat)) return "the Dark Legion AI";
  const s = setup?.seats?.[seat];
  return s?.corporation ? `Seat ${seat + 1} (${words(s.corporation)})` : `Seat ${seat + 1}`;
}

/** The game screen's keys: Esc deselects, E ends the turn, A the activation, 1–9 answer the decision. */
function onKey(k) {
  if (k === "escape") { const u = ui(); u.selected = null; u.mode = null; u.cardChoice = null; u.cardFrom = null; shell.render(); }
  else if (k === "e") /** @type {HTMLButtonElement} */ ($("end-turn"))?.click();
  else if (k === "a") /** @type {HTMLButtonElement} */ ($("end-activation"))?.click();
  else if (/^[1-9]$/.test(k)) /** @type {HTMLButtonElement|null} */ ($("decision").querySelector(`button[data-option="${Number(k) - 1}"]`))?.click();
  else return false;
  return true;
}

/** `#campaign/CODE` opens a campaign's standings; true when the address was this module's. */
function route(kind, arg) {
  if (kind !== "campaign" || !arg) return false;
  if (arg.toUpperCase() !== campaign.code || $("campaign").hidden) openCampaign(arg);
  return true;
}

/** Once, at the start: the shell's services, this module's parts of the page, the content tables. */
function init(services) {
  shell = services;
  board = new Board(/** @type {any} */ ($("board")));
  for (const el of document.querySelectorAll(".game-secrets")) el.textContent = "cards and secondary mission";
  $("seat-side-head").textContent = "Corporation";
  $("team-choice").onchange = (e) => {
    const v = /** @type {HTMLSelectElement} */ (e.target).value.split(",");
    sendChoice({ doomtroopers: v });
  };
  const autoPassBox = /** @type {HTMLInputElement} */ ($("auto-pass"));
  autoPassBox.checked = autoPassOn();
  autoPassBox.onchange = () => {
    if (autoPassBox.checked) localStorage.setItem("citadel:auto-pass", "1");
    else localStorage.removeItem("citadel:auto-pass");
    autoPass.key = null;
    shell.render();
  };
  bindCampaigns();
  // The content tables (card, item and creature names) for every screen.
  fetch("/api/content").then((r) => (r.ok ? r.json() : null)).then((/** @type {ContentDoc|null} */ data) => {
    if (!data) return;
    setContent(data);
    if (conn().view) useEdition(editionOf(conn().view.mission));
    fillMissionPicker();
    if (conn().view) shell.render();
    if (conn().lobby) shell.renderLobby();
  }, () => {});
}

/** A finished game's result summary (`/api/me`) from `seat`'s side: the Dark Legion's player wins when the corporations lose. */
function outcomeFor(r, seat) {
  return (r.dark_legion_seat === seat ? r.dark_legion_won : r.corporations_won) ? "won" : "lost";
}

/** The board shows nothing and answers no click (a replay is being loaded). */
function clearBoard() {
  board.handlers = { square: () => {}, figure: () => {}, entrance: () => {}, tile: () => {} };
  board.map = null;
  board.svg.replaceChildren();
}

/** The game-module interface (docs/ARCHITECTURE.md): everything the shell asks of a game. */
export default {
  id: "siege",
  name: "Siege of the Citadel",
  /** The page's parts this game fills, by `data-slot` name: HTML put in their place at the start. */
  slots: SLOTS,
  /** The screens this game adds to the shell's (shown and hidden by `show`). */
  screens: ["campaign"],
  init,
  get board() { return board; },
  newConnState: () => ({
    selected: null, mode: null, placeKind: null, cardChoice: null, cardFrom: null,
    ended: null, scoreboardClosed: false, rollCtx: { roll: null },
  }),
  reset,
  clearBoard,
  /** The page stops showing connection `c` (hotseat): no half-made choice waits for the next player. */
  onHide(c) { c.game.mode = null; $("dice").replaceChildren(); },
  toAct,
  outcomeFor,
  /** A finished game's result summary (`/api/me`) in a few words. */
  resultWords: (summary) => `mission ${summary?.result === "success" ? "accomplished" : "failed"}`,
  sideOf,
  seatFallbackName,
  secretsOf,
  logStart,
  announceStart(view) {
    if (view.round <= 1 && conn().lobby?.options.dark_legion.mode === "drawn") announceDraw(view);
  },
  onEvent,
  afterEvents: glide,
  beforeEvents: () => glides.clear(),
  /** What the game draws once (`static_data`): Siege's map. */
  setStaticData: setMap,
  render,
  clearSide,
  lobbySummary,
  seatSide,
  seatTags,
  renderSeatChoice,
  createOptions,
  replayStep,
  renderRules: () => renderRules(),
  onKey,
  route,
  onShow(screen) { if (screen !== "campaign") stopCampaignPolling(); },
  /** Another game's module takes the page (its slots' markup goes with this one). */
  unmount() { stopCampaignPolling(); reset(); },
  renderHome(/** @type {Me|null} */ me) { renderMyCampaigns(me ? me.campaigns ?? [] : null); },
  homeNameForms: ["join-campaign"],
};
