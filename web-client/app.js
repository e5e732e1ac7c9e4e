// A minimal lobby and game page over the Citadel WebSocket protocol.
// It holds no rules: it shows what the server sends and offers exactly
// the server's `legal` commands. The full board client replaces it.
const PROTOCOL = 1;
const $ = (id) => document.getElementById(id);
let ws = null;
let me = { seat: null, token: null, code: null, name: null, lastSeq: 0 };

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function status(text, error) {
  $("status").textContent = text;
  $("status").className = error ? "error" : "";
}

function connect(code, join) {
  me.code = code;
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => {
    status("connected");
    send({ type: "hello", protocol: PROTOCOL, game: code, join, last_seq: me.lastSeq || null });
  };
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onclose = (e) => {
    status(`disconnected (${e.code}${e.reason ? ": " + e.reason : ""})`, true);
    // Reconnect as ourselves and catch up from the last event seen.
    if (me.token && e.code !== 4004) setTimeout(() => connect(me.code, { as: "resume", token: me.token }), 1500);
  };
}

function handle(msg) {
  switch (msg.type) {
    case "welcome":
      me.seat = msg.seat; me.token = msg.token ?? me.token;
      if (me.token) localStorage.setItem(`citadel:${me.code}`, me.token);
      break;
    case "lobby": showLobby(msg.lobby); break;
    case "snapshot": me.lastSeq = msg.seq; showGame(msg.view, msg.legal); break;
    case "events":
      for (const e of msg.events) { me.lastSeq = e.seq; log(`${e.seq}. ${describe(e.event)}`); }
      showGame(msg.view, msg.legal); break;
    case "rejected": log(`rejected: ${msg.message}`, true); break;
    case "error": log(`error: ${msg.message}`, true); break;
    case "chat": chat(`${msg.from}: ${msg.text}`); break;
  }
}

function describe(ev) {
  const { type, ...rest } = ev;
  return `${type} ${JSON.stringify(rest)}`;
}

function log(text, error) {
  const li = document.createElement("li");
  li.textContent = text;
  if (error) li.className = "error";
  $("log").prepend(li);
}

function chat(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("chat-lines").append(li);
}

function showLobby(lobby) {
  $("home").hidden = true; $("chat").hidden = false;
  $("lobby").hidden = lobby.started; $("code").textContent = lobby.code;
  const rows = lobby.seats.map((s) => `<tr><td>${s.seat + 1}${s.seat === lobby.host ? " (host)" : ""}</td>
    <td>${s.name ?? "—"}</td><td>${s.corporation ?? "—"}</td><td>${s.controller}${s.bot_playing ? " (bot playing)" : ""}</td>
    <td>${s.ready ? "ready" : ""}</td><td>${s.connected ? "online" : ""}</td></tr>`);
  $("seats").innerHTML = `<tr><th>Seat</th><th>Name</th><th>Corporation</th><th>Who</th><th></th><th></th></tr>${rows.join("")}`;
  const acts = $("lobby-actions"); acts.innerHTML = "";
  if (me.seat === null || lobby.started) return;
  for (const corp of ["bauhaus", "capitol", "cybertronic", "imperial", "mishima"]) {
    acts.append(button(`Play ${corp}`, () => send({ type: "take_seat", corporation: corp })));
  }
  const mine = lobby.seats[me.seat];
  acts.append(button(mine?.ready ? "Not ready" : "Ready", () => send({ type: "ready", ready: !mine?.ready })));
  if (me.seat === lobby.host) {
    lobby.seats.filter((s) => s.controller !== "human").forEach((s) =>
      acts.append(button(s.controller === "bot" ? `Remove bot ${s.seat + 1}` : `Bot on seat ${s.seat + 1}`,
        () => send({ type: "set_bot", seat: s.seat, bot: s.controller !== "bot" }))));
    acts.append(button("Start", () => send({ type: "start" })));
  }
}

function button(label, onclick) {
  const b = document.createElement("button");
  b.textContent = label; b.onclick = onclick; return b;
}

function showGame(view, legal) {
  $("lobby").hidden = true; $("game").hidden = false;
  $("game-title").textContent = `${view.mission} — round ${view.round}${view.final_round ? " (final)" : ""}`;
  const teams = view.teams.map((t) => `${t.corporation}: ${t.pp} PP, rank ${t.rank}${t.hand ? ", hand " + t.hand.join(", ") : ""}`);
  $("summary").textContent = [...teams, `Dark Legion: ${view.dark_legion.pp} PP`, me.seat === null ? "spectating" : `you are seat ${me.seat + 1}`].join(" · ");
  const box = $("legal"); box.innerHTML = "";
  for (const cmd of legal.slice(0, 200)) {
    box.append(button(describe(cmd), () => send({ type: "command", command: cmd })));
  }
}

$("create").onsubmit = async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const dl = f.get("dl");
  const options = {
    mission: "ce-c1m1", seats: Number(f.get("seats")), starting_rank: 1,
    dark_legion: dl === "ai" ? { mode: "ai" } : dl === "seat0" ? { mode: "seat", seat: 0 } : { mode: "drawn" },
    turn_seconds: f.get("turn") ? Number(f.get("turn")) : null,
  };
  const res = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(options) });
  const body = await res.json();
  if (!res.ok) return status(body.message, true);
  connect(body.code, { as: "player", name: f.get("name") });
};

$("join").onsubmit = (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const code = String(f.get("code")).toUpperCase();
  const token = localStorage.getItem(`citadel:${code}`);
  const as = e.submitter?.value ?? "player";
  connect(code, as === "spectator" ? { as: "spectator", name: f.get("name") } : token ? { as: "resume", token } : { as: "player", name: f.get("name") });
};

$("chat-form").onsubmit = (e) => {
  e.preventDefault();
  const input = e.target.elements.text;
  if (input.value.trim()) send({ type: "chat", text: input.value });
  input.value = "";
};
