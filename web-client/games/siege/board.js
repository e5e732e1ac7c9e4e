// The board as SVG, drawn from the server's `map` and `view`. Only
// drawing: what is highlighted comes from the caller (the `legal` list).
// @ts-check
import { figColor, figLabel, prettyName, protectionText, CORP_COLOR, words } from "./text.js";

/** @typedef {import("../../protocol").MapData} MapData */
/** @typedef {import("../../protocol").GameView} GameView */

const NS = "http://www.w3.org/2000/svg";
const S = 40; // one square, in SVG units
const DOOR_COLOR = { closed: "#e07b1f", open: "#5bbf5b", removed: "#444" };

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (parent) parent.append(e);
  return e;
}
function text(parent, x, y, content, attrs = {}) {
  const t = el("text", { x, y, ...attrs }, parent);
  t.textContent = content;
  return t;
}
export const key = (s) => `${s.x},${s.y}`;

/** Mission tokens (maps.md, missions.md) by kind: a shape, a short mark
 *  and a name. A kind not listed here is drawn as a labelled square. */
const TOKEN_LOOK = {
  terminal: { shape: "screen", mark: "Te", name: "Terminal" },
  portal: { shape: "ring", mark: "Po", name: "Portal" },
  container: { shape: "crate", mark: "Co", name: "Container" },
  objective: { shape: "diamond", mark: "★", name: "Objective" },
  debris: { shape: "rubble", mark: "Db", name: "Debris" },
  turret: { shape: "circle", mark: "Tu", name: "Turret" },
  desk: { shape: "square", mark: "Dk", name: "Desk" },
};
/** How a token state reads ("hacked", "looted"…): every `true` flag on it. */
function tokenStates(t) {
  return Object.entries(t.kind).filter(([k, v]) => v === true && k !== "token").map(([k]) => k);
}

/** A mission token's look: its kind's, or a generic one from its kind's name.
 *  @param {any} t a Token whose `kind.token` is "mission" */
export function tokenInfo(t) {
  const kind = String(t.kind.kind ?? "token");
  const look = TOKEN_LOOK[kind] ?? { shape: "square", mark: words(kind).slice(0, 2) || "?", name: words(kind) || "Token" };
  const states = tokenStates(t);
  const title = `${look.name}${t.kind.name ? ` "${words(t.kind.name)}"` : ""}${states.length ? ` (${states.join(", ")})` : ""}`;
  return { kind, ...look, states, title };
}

/** Draw a mission token at its square; `extra` adds classes ("destroyed"). */
function drawMissionToken(parent, t, extra = []) {
  const info = tokenInfo(t);
  const cx = t.square.x * S + S / 2, cy = t.square.y * S + S / 2;
  const g = el("g", {
    class: ["token", "mission", `kind-${info.kind}`, ...info.states.map((x) => `is-${x}`), ...extra].join(" "),
    "data-token": info.kind, "data-token-state": [...info.states, ...extra].join(" "),
  }, parent);
  const r = 13;
  switch (info.shape) {
    case "ring": el("circle", { cx, cy, r, class: "shape" }, g); el("circle", { cx, cy, r: r - 5, class: "inner" }, g); break;
    case "circle": el("circle", { cx, cy, r, class: "shape" }, g); break;
    case "diamond": el("polygon", { points: `${cx},${cy - r - 2} ${cx + r + 2},${cy} ${cx},${cy + r + 2} ${cx - r - 2},${cy}`, class: "shape" }, g); break;
    case "rubble": el("polygon", { points: `${cx - r},${cy + 6} ${cx - 9},${cy - 10} ${cx - 1},${cy - 5} ${cx + 7},${cy - r} ${cx + r},${cy + 2} ${cx + 6},${cy + r} ${cx - 7},${cy + 10}`, class: "shape" }, g); break;
    case "screen":
      el("rect", { x: cx - r, y: cy - r + 2, width: 2 * r, height: 2 * r - 6, rx: 2, class: "shape" }, g);
      el("line", { x1: cx - 6, y1: cy + r, x2: cx + 6, y2: cy + r, class: "stand" }, g);
      break;
    case "crate":
      el("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: "shape" }, g);
      el("path", { d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}`, class: "slat" }, g);
      break;
    default: el("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: 4, class: "shape" }, g);
  }
  text(g, cx, cy + 5, info.mark, { class: info.mark.length > 1 ? "small" : "" });
  if (info.states.includes("hacked")) text(g, cx + r - 1, cy - r + 5, "✓", { class: "state-mark" });
  if (extra.includes("destroyed")) el("path", { d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx + r} ${cy - r}L${cx - r} ${cy + r}`, class: "cross" }, g);
  el("title", {}, g).textContent = info.title + (extra.length ? ` — ${extra.join(", ")}` : "");
  return g;
}

/** The tokens a legend should explain: [{kind, mark, text}], one per
 *  kind and state seen (on the board, destroyed, carried or carried out). @param {any} view */
export function tokenLegend(view) {
  const rows = new Map();
  const add = (k, mark, line) => { if (!rows.has(k)) rows.set(k, { kind: k, mark, text: line }); };
  for (const t of view.tokens ?? []) {
    if (t.kind.token === "trap") add("trap", "T", "Trap");
    else if (t.kind.token === "bomb") add("bomb", "💣", "Time bomb");
    else if (t.kind.token === "mission") {
      const i = tokenInfo(t);
      add(`${i.kind}:${i.states.join(",")}`, i.mark, `${i.name}${i.states.length ? ` (${i.states.join(", ")})` : ""}`);
    }
  }
  for (const t of view.destroyed_tokens ?? []) {
    const i = tokenInfo(t);
    add(`${i.kind}:destroyed`, i.mark, `${i.name} (destroyed, crossed out)`);
  }
  if ((view.figures ?? []).some((f) => f.carrying?.length)) add("carried", "◆", "Objective carried by a Doomtrooper (gold badge)");
  for (const [name, exit] of view.carried_out ?? []) add(`out:${name}`, "★", `${words(name)} carried out by ${exit}`);
  return [...rows.values()];
}

function edgeLine(edge) {
  if ("V" in edge) return [edge.V.x * S, edge.V.y * S, edge.V.x * S, (edge.V.y + 1) * S];
  return [edge.H.x * S, edge.H.y * S, (edge.H.x + 1) * S, edge.H.y * S];
}

/**
 * A classic mission's Citadel point (MAP-18): the map's `citadel`, else
 * (an older server) the middle of the red entrance `CITADEL`'s gate
 * squares, which lie 4 and 5 squares along the four arms. Null without a
 * Citadel.
 * @param {MapData} map
 */
export function citadelPoint(map) {
  if (map.citadel) return map.citadel;
  const ent = map.entrances.find((e) => e.id === "CITADEL");
  if (!ent || !ent.squares.length) return null;
  const xs = ent.squares.map((s) => s.x), ys = ent.squares.map((s) => s.y);
  return { x: (Math.min(...xs) + Math.max(...xs) + 1) / 2, y: (Math.min(...ys) + Math.max(...ys) + 1) / 2 };
}

/** The four base squares of a Citadel point (MAP-19: solid, never entered). */
export function citadelBase(c) {
  return [[-1, -1], [0, -1], [-1, 0], [0, 0]].map(([dx, dy]) => ({ x: c.x + dx, y: c.y + dy }));
}

/** The off-board squares beside an entrance's entry squares; the
 *  Citadel's own base for its gate entrance (figures come out of it). */
function outside(map, ent, steps = 1) {
  if (ent.id === "CITADEL") {
    const c = citadelPoint(map);
    if (c) return citadelBase(c);
  }
  const last = ent.id.slice(-1);
  const s0 = ent.squares[0];
  const d = "NESW".includes(last) ? last
    : s0.y === 0 ? "N" : s0.x === 0 ? "W" : s0.x === map.width - 1 ? "E" : "S";
  const [dx, dy] = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] }[d];
  return ent.squares.map((s) => ({ x: s.x + dx * steps, y: s.y + dy * steps }));
}

export class Board {
  /** @param {SVGSVGElement} svg */
  constructor(svg) {
    this.svg = svg;
    /** @type {MapData|null} */ this.map = null;
    this.squares = new Map();
    this.handlers = { square: (_k) => {}, figure: (_id) => {}, entrance: (_id) => {}, tile: (_i) => {} };
    /** The whole board's viewBox [x, y, w, h], and the one shown now. */
    this.full = [0, 0, 1, 1];
    this.vb = [0, 0, 1, 1];
    this.installZoom();
    svg.addEventListener("click", (ev) => {
      // The click that ends a drag (a pan or a pinch) is not a choice.
      if (this.dragged) { this.dragged = false; return; }
      const t = /** @type {Element} */ (ev.target);
      const f = t.closest("[data-figure]");
      if (f) return this.handlers.figure(Number(f.getAttribute("data-figure")));
      const e = t.closest("[data-entrance]");
      if (e) return this.handlers.entrance(e.getAttribute("data-entrance"));
      const s = t.closest("[data-square]");
      if (s) return this.handlers.square(s.getAttribute("data-square"));
      const ti = t.closest("[data-tile]");
      if (ti) return this.handlers.tile(Number(ti.getAttribute("data-tile")));
    });
  }

  /** Draw the static layer once per map. @param {MapData} map */
  setMap(map) {
    if (this.map && JSON.stringify(this.map) === JSON.stringify(map)) return;
    this.map = map;
    const svg = this.svg;
    svg.replaceChildren();
    // Two squares of margin: entrance markers, then the figures waiting there.
    this.full = [-2 * S, -2 * S, (map.width + 4) * S, (map.height + 4) * S];
    this.fit();
    this.floor = el("g", { class: "floor" }, svg);
    this.squares.clear();
    // Tiles: bounds of their squares.
    const bounds = new Map();
    for (const s of map.squares) {
      const b = bounds.get(s.tile) ?? { x0: 1e9, y0: 1e9, x1: -1, y1: -1 };
      b.x0 = Math.min(b.x0, s.at.x); b.y0 = Math.min(b.y0, s.at.y);
      b.x1 = Math.max(b.x1, s.at.x); b.y1 = Math.max(b.y1, s.at.y);
      bounds.set(s.tile, b);
    }
    this.tileBounds = bounds;
    for (const s of map.squares) {
      const x = s.at.x * S, y = s.at.y * S;
      const r = el("rect", {
        x, y, width: S, height: S, class: `sq g${s.tile % 2} glyph-${s.glyph === "#" ? "wall" : s.glyph === "O" ? "pillar" : s.glyph === "d" ? "desk" : s.glyph === "." ? "floor" : "mark"}`,
        "data-square": key(s.at),
      }, this.floor);
      this.squares.set(key(s.at), r);
      if (s.glyph === "O") el("circle", { cx: x + S / 2, cy: y + S / 2, r: S * 0.38, class: "pillar" }, this.floor);
      else if (s.glyph === "d") el("rect", { x: x + 5, y: y + 8, width: S - 10, height: S - 16, rx: 3, class: "desk" }, this.floor);
      else if (s.glyph === "#") el("path", { d: `M${x} ${y + S}L${x + S} ${y}M${x} ${y + S / 2}L${x + S / 2} ${y}M${x + S / 2} ${y + S}L${x + S} ${y + S / 2}`, class: "hatch" }, this.floor);
      else if (s.glyph === "^") text(this.floor, x + S / 2, y + S * 0.7, "⇅", { class: "glyph" });
      else if (/[1-6]/.test(s.glyph)) text(this.floor, x + S / 2, y + S * 0.68, s.glyph, { class: "glyph" });
    }
    // The 1993 Citadel piece (MAP-18..20): its 2×2 base is solid, drawn
    // as a block; its arms are walls (map.walls); its gates, the squares
    // figures of the red entrance CITADEL come out on, are marked.
    const citadel = citadelPoint(map);
    this.citadel = citadel;
    if (citadel) {
      for (const b of citadelBase(citadel)) this.squares.get(key(b))?.classList.add("citadel-base");
      const cg = el("g", { class: "citadel", "data-citadel": `${citadel.x},${citadel.y}` }, this.floor);
      el("rect", { x: (citadel.x - 1) * S + 2, y: (citadel.y - 1) * S + 2, width: 2 * S - 4, height: 2 * S - 4, rx: 8, class: "citadel-block" }, cg);
      el("title", {}, cg).textContent = "The Citadel: its base cannot be entered and blocks sight; its arms are walls with gates";
      const gates = map.entrances.find((e) => e.id === "CITADEL")?.squares ?? [];
      for (const g of gates) {
        el("rect", { x: g.x * S + 4, y: g.y * S + 4, width: S - 8, height: S - 8, rx: 4, class: "citadel-gate", "data-gate": key(g) }, this.floor);
      }
    }
    this.tilesLayer = el("g", { class: "tiles" }, svg);
    for (const [, b] of bounds) {
      el("rect", { x: b.x0 * S, y: b.y0 * S, width: (b.x1 - b.x0 + 1) * S, height: (b.y1 - b.y0 + 1) * S, class: "tile-outline" }, this.tilesLayer);
    }
    const ents = el("g", { class: "entrances" }, svg);
    this.entranceCells = [];
    // A waiting figure's entrance is an index into the white list (for
    // Doomtroopers) or, for creatures, into the red list followed by the
    // white one (1993 events 1 and 7 let creatures in at white entrances).
    const cellsOf = (kind) => map.entrances.filter((e) => e.kind === kind).map((ent) => outside(map, ent, 2));
    this.waitingCells = { white: cellsOf("white"), red: [...cellsOf("red"), ...cellsOf("white")] };
    map.entrances.forEach((ent) => {
      const cells = outside(map, ent);
      this.entranceCells.push(cells);
      const g = el("g", { class: `entrance ${ent.kind}`, "data-entrance": ent.id }, ents);
      const xs = cells.map((c) => c.x), ys = cells.map((c) => c.y);
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      el("rect", { x: x0 * S + 3, y: y0 * S + 3, width: (Math.max(...xs) - x0 + 1) * S - 6, height: (Math.max(...ys) - y0 + 1) * S - 6, rx: 6 }, g);
      text(g, (x0 + (Math.max(...xs) - x0 + 1) / 2) * S, (y0 + (Math.max(...ys) - y0 + 1) / 2) * S + 5, ent.id, { class: "entrance-id" });
    });
    this.dyn = el("g", { class: "dynamic" }, svg);
    // Doors and walls above the figures, so a wall between two occupied
    // squares stays visible; they take no clicks (the squares do).
    this.doorsLayer = el("g", { class: "doors" }, svg);
    const walls = el("g", { class: "walls" }, svg);
    for (const w of map.walls) {
      const [x1, y1, x2, y2] = edgeLine(w);
      el("line", { x1, y1, x2, y2, class: "wall" }, walls);
    }
  }

  // ------------------------------------------------------------ zoom and pan
  //
  // Zoom is the SVG's viewBox: the element keeps its size (the whole board
  // fits its box: the width on a phone), and zooming shows a smaller part of
  // the board in it. The browser maps clicks through the viewBox, so a
  // click lands on the square under the pointer at any zoom.

  /** How far the board is zoomed in (1: the whole board). */
  get zoom() { return this.full[2] / this.vb[2]; }

  /** Show `vb` [x, y, w, h], kept inside the board and at most 6× zoom. */
  setView(vb) {
    const [fx, fy, fw, fh] = this.full;
    let [x, y, w, h] = vb;
    const scale = Math.min(1, Math.max(1 / 6, w / fw));
    w = fw * scale; h = fh * scale;
    x = Math.min(fx + fw - w, Math.max(fx, x));
    y = Math.min(fy + fh - h, Math.max(fy, y));
    this.vb = [x, y, w, h];
    this.svg.setAttribute("viewBox", this.vb.map((v) => Math.round(v * 100) / 100).join(" "));
    this.svg.dataset.zoom = this.zoom.toFixed(2);
    this.svg.classList.toggle("zoomed", this.zoom > 1.01);
    this.onZoom(this.zoom);
  }

  /** The whole board in view. */
  fit() { this.setView(this.full); }

  /** Zoom by `factor` keeping the board point at (`cx`, `cy`) (SVG units) in place. */
  zoomBy(factor, cx = this.vb[0] + this.vb[2] / 2, cy = this.vb[1] + this.vb[3] / 2) {
    const [x, y, w, h] = this.vb;
    const nw = Math.max(this.full[2] / 6, Math.min(this.full[2], w / factor));
    const k = nw / w;
    this.setView([cx - (cx - x) * k, cy - (cy - y) * k, nw, h * k]);
  }

  /** A point on the screen in SVG units. */
  toBoard(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return { x: this.vb[0], y: this.vb[1] };
    const p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  /** Wheel zooms at the pointer; a drag pans; two fingers pinch. */
  installZoom() {
    const svg = this.svg;
    /** @type {(z: number) => void} */ this.onZoom = () => {};
    this.dragged = false;
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const p = this.toBoard(ev.clientX, ev.clientY);
      this.zoomBy(Math.exp(-ev.deltaY * (ev.deltaMode === 1 ? 0.05 : 0.0015)), p.x, p.y);
    }, { passive: false });
    /** @type {Map<number, {x: number, y: number}>} */
    const pointers = new Map();
    let start = null; // the gesture's first state
    const begin = () => {
      const pts = [...pointers.values()];
      const mid = { x: pts.reduce((a, p) => a + p.x, 0) / pts.length, y: pts.reduce((a, p) => a + p.y, 0) / pts.length };
      const dist = pts.length > 1 ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : 0;
      start = { mid, dist, vb: [...this.vb], moved: false, ctm: svg.getScreenCTM()?.inverse() ?? null };
    };
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.pointerType === "mouse" && ev.button !== 0) return;
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      begin();
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!pointers.has(ev.pointerId) || !start) return;
      pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
      const pts = [...pointers.values()];
      const mid = { x: pts.reduce((a, p) => a + p.x, 0) / pts.length, y: pts.reduce((a, p) => a + p.y, 0) / pts.length };
      if (!start.moved && Math.hypot(mid.x - start.mid.x, mid.y - start.mid.y) < 6 && pts.length < 2) return;
      if (!start.moved) {
        start.moved = true;
        try { svg.setPointerCapture(ev.pointerId); } catch { /* a synthetic pointer */ }
      }
      // Screen pixels to SVG units at the gesture's start.
      const unit = start.ctm ? start.ctm.a : 1;
      if (pts.length > 1 && start.dist > 0) {
        const dist = Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y);
        const [x, y, w, h] = start.vb;
        const nw = Math.max(this.full[2] / 6, Math.min(this.full[2], w * start.dist / Math.max(1, dist)));
        const k = nw / w;
        // The board point under the fingers' first midpoint follows the midpoint.
        const ax = start.ctm ? new DOMPoint(start.mid.x, start.mid.y).matrixTransform(start.ctm) : { x: x + w / 2, y: y + h / 2 };
        const nx = ax.x - (ax.x - x) * k - (mid.x - start.mid.x) * unit * k;
        const ny = ax.y - (ax.y - y) * k - (mid.y - start.mid.y) * unit * k;
        this.setView([nx, ny, nw, h * k]);
      } else {
        const [x, y, w, h] = start.vb;
        this.setView([x - (mid.x - start.mid.x) * unit, y - (mid.y - start.mid.y) * unit, w, h]);
      }
    });
    const end = (ev) => {
      if (!pointers.has(ev.pointerId)) return;
      pointers.delete(ev.pointerId);
      if (start?.moved) this.dragged = ev.type === "pointerup";
      if (pointers.size) begin(); else start = null;
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // A drag's click arrives right after its pointerup; a later one is a choice again.
    svg.addEventListener("pointerdown", () => { this.dragged = false; }, true);
  }

  /**
   * @param {GameView} view
   * @param {{mine: Set<number>, selected: number|null, moveTargets: Map<string, any>,
   *   squareTargets: Map<string, any>, squareClass: string, attackTargets: Set<number>,
   *   figureChoices: Set<number>, entranceChoices: Set<string>, tileChoices: Set<number>, trail?: {x:number,y:number}[]}} ui
   */
  render(view, ui) {
    const map = this.map;
    if (!map) return;
    const dyn = this.dyn;
    dyn.replaceChildren();
    this.doorsLayer.replaceChildren();
    for (const r of this.squares.values()) r.classList.remove("move-target", "place-target", "item-target");
    // Smoke and tile badges.
    view.tiles.forEach((t, i) => {
      const b = this.tileBounds.get(i);
      if (!b) return;
      const x = b.x0 * S, y = b.y0 * S, w = (b.x1 - b.x0 + 1) * S, h = (b.y1 - b.y0 + 1) * S;
      if (t.smoke) el("rect", { x, y, width: w, height: h, class: "smoke" }, dyn);
      if (ui.tileChoices.has(i)) el("rect", { x: x + 2, y: y + 2, width: w - 4, height: h - 4, class: "tile-choice", "data-tile": i }, dyn);
      text(dyn, x + 6, y + h - 6, t.name, { class: "tile-name" });
      if (t.face_down > 0) {
        const g = el("g", { class: "facedown", "data-tile-cards": i }, dyn);
        // In the corner, clear of the square's middle: the square under it
        // stays clickable (a move may end there).
        el("rect", { x: x + 2, y: y + 2, width: 15, height: 21, rx: 3 }, g);
        text(g, x + 9.5, y + 17, String(t.face_down));
        el("title", {}, g).textContent = `${t.face_down} face-down force card(s) on ${t.name}`;
      }
      t.marked.forEach((team, j) => {
        const corp = view.teams.find((tm) => tm.team === team)?.corporation;
        const g = el("g", { class: "marker" }, dyn);
        el("circle", { cx: x + w - 12 - j * 20, cy: y + 12, r: 8, fill: corp ? CORP_COLOR[corp] : "#888" }, g);
        el("title", {}, g).textContent = `${words(corp ?? "")} token`;
      });
    });
    // Doors.
    map.doors.forEach((edges, i) => {
      const state = view.doors[i]?.state ?? "closed";
      for (const e of edges) {
        const [x1, y1, x2, y2] = edgeLine(e);
        el("line", { x1, y1, x2, y2, class: `door ${state}`, stroke: DOOR_COLOR[state] }, this.doorsLayer);
      }
    });
    // 1993 Remote Controlled Doors (a Doomtrooper card): a wall on the edge
    // between their two squares until one close combat attack of 3 hits.
    for (const [a, b] of view.card_doors ?? []) {
      const edge = a.y === b.y ? { V: { x: Math.max(a.x, b.x), y: a.y } } : { H: { x: a.x, y: Math.max(a.y, b.y) } };
      const [x1, y1, x2, y2] = edgeLine(edge);
      const line = el("line", { x1, y1, x2, y2, class: "door card-door", stroke: "#b36bff", "stroke-width": 6 }, this.doorsLayer);
      el("title", {}, line).textContent = "Remote Controlled Door: a wall until a close combat attack scores 3 hits on it";
    }
    // Tokens.
    for (const t of view.tokens) {
      if (t.kind.token === "mission") { drawMissionToken(dyn, t); continue; }
      const cx = t.square.x * S + S / 2, cy = t.square.y * S + S / 2;
      const g = el("g", { class: `token ${t.kind.token}` }, dyn);
      let label = "?", title = "";
      if (t.kind.token === "trap") { label = "T"; title = "Trap"; el("polygon", { points: `${cx},${cy - 14} ${cx + 14},${cy + 11} ${cx - 14},${cy + 11}` }, g); }
      else if (t.kind.token === "bomb") { label = "💣"; title = `Time bomb (round ${t.kind.round})`; el("circle", { cx, cy, r: 13 }, g); }
      else { label = t.kind.kind[0].toUpperCase() + (t.kind.hacked ? "✓" : ""); title = words(t.kind.kind) + (t.kind.name ? `: ${t.kind.name}` : "") + (t.kind.hacked ? " (hacked)" : ""); el("rect", { x: cx - 13, y: cy - 13, width: 26, height: 26, rx: 4 }, g); }
      text(g, cx, cy + 6, label);
      el("title", {}, g).textContent = title;
    }
    // Tokens removed by attacks (ATK-16), crossed out where they stood.
    for (const t of /** @type {any} */ (view).destroyed_tokens ?? []) {
      if (t.kind?.token === "mission") drawMissionToken(dyn, t, ["destroyed"]);
    }
    // Highlighted squares.
    const mark = (k, cls) => {
      let r = this.squares.get(k);
      if (!r) {
        const [x, y] = k.split(",").map(Number);
        r = el("rect", { x: x * S, y: y * S, width: S, height: S, class: "sq offboard", "data-square": k }, dyn);
      }
      r.classList.add(cls);
      // A shape as well as a colour (never colour alone): a dot to move
      // to, a plus to place on, a cross-hair to aim at.
      const [x, y] = k.split(",").map(Number);
      const cx = x * S + S / 2, cy = y * S + S / 2;
      const m = el("g", { class: `target-mark ${cls}`, "data-mark": cls }, marks);
      if (cls === "move-target") el("circle", { cx, cy, r: 5 }, m);
      else if (cls === "place-target") el("path", { d: `M${cx - 7} ${cy}H${cx + 7}M${cx} ${cy - 7}V${cy + 7}` }, m);
      else el("path", { d: `M${cx - 10} ${cy}H${cx - 4}M${cx + 4} ${cy}H${cx + 10}M${cx} ${cy - 10}V${cy - 4}M${cx} ${cy + 4}V${cy + 10}` }, m);
    };
    const marks = el("g", { class: "marks" }, this.doorsLayer);
    for (const k of ui.moveTargets.keys()) mark(k, "move-target");
    // The last move's path, under the figures.
    (ui.trail ?? []).forEach((s, i, all) => {
      if (i === 0) return;
      const p = all[i - 1];
      el("line", { x1: p.x * S + S / 2, y1: p.y * S + S / 2, x2: s.x * S + S / 2, y2: s.y * S + S / 2, class: "trail" }, dyn);
    });
    for (const k of ui.squareTargets.keys()) mark(k, ui.squareClass);
    // The last action: the squares an area attack struck.
    for (const q of ui.last?.squares ?? []) {
      el("rect", { x: q.x * S + 3, y: q.y * S + 3, width: S - 6, height: S - 6, rx: 4, class: "last-square", "data-last": "square" }, dyn);
    }
    // Entrances to choose.
    this.svg.querySelectorAll("[data-entrance]").forEach((g) =>
      g.classList.toggle("choice", ui.entranceChoices.has(g.getAttribute("data-entrance") ?? "")));
    // Figures.
    const waitingCount = new Map();
    for (const f of view.figures) {
      let cx, cy, r = S * 0.4;
      if (f.place.at === "board") {
        cx = f.place.square.x * S + S / 2; cy = f.place.square.y * S + S / 2;
      } else if (f.place.at === "waiting") {
        const cells = this.waitingCells[f.kind.kind === "doomtrooper" ? "white" : "red"][f.place.entrance];
        if (!cells) continue;
        const wk = `${f.kind.kind}:${f.place.entrance}`;
        const n = waitingCount.get(wk) ?? 0;
        waitingCount.set(wk, n + 1);
        const c = cells[n % cells.length];
        const shift = Math.floor(n / cells.length) * 10;
        cx = c.x * S + S / 2 + shift; cy = c.y * S + S / 2 + shift; r = S * 0.32;
      } else continue;
      const mine = ui.mine.has(f.id);
      const cls = ["fig", f.kind.kind === "doomtrooper" ? "dt" : "creature", f.place.at];
      if (f.id === view.active) cls.push("active");
      if (f.id === ui.selected) cls.push("selected");
      if (ui.attackTargets.has(f.id)) cls.push("attack-target");
      if (ui.figureChoices.has(f.id)) cls.push("choose-target");
      if (f.activation === "done") cls.push("done");
      const g = el("g", { class: cls.join(" "), "data-figure": f.id, "data-name": f.name }, dyn);
      if (mine) g.setAttribute("data-mine", "true");
      // The last action's actor: a dotted halo; its targets: a burst.
      if (ui.last?.actor === f.id) el("circle", { cx, cy, r: r + 9, class: "last-actor", "data-last": "actor" }, g);
      el("circle", { cx, cy, r: r + 4, class: "ring" }, g);
      el("circle", { cx, cy, r, fill: figColor(view, f), class: "body" }, g);
      if (ui.attackTargets.has(f.id)) {
        // A cross-hair over the ring: a target reads without its colour.
        el("path", { d: `M${cx - r - 8} ${cy}H${cx - r + 2}M${cx + r - 2} ${cy}H${cx + r + 8}M${cx} ${cy - r - 8}V${cy - r + 2}M${cx} ${cy + r - 2}V${cy + r + 8}`, class: "aim" }, g);
      }
      if (ui.last?.targets?.has(f.id)) {
        const pts = [];
        for (let i = 0; i < 16; i++) {
          const rr = i % 2 ? 6 : 11, t = (i * Math.PI) / 8;
          pts.push(`${(cx + r - 2 + rr * Math.cos(t)).toFixed(1)},${(cy - r + 2 + rr * Math.sin(t)).toFixed(1)}`);
        }
        el("polygon", { points: pts.join(" "), class: "last-hit", "data-last": "target" }, g);
      }
      const label = figLabel(view, f);
      text(g, cx, cy + (label.length > 2 ? 4 : 5), label, { class: `label${label.length > 2 ? " small" : ""}` });
      if (f.kind.kind === "doomtrooper" || f.health > 1) {
        for (let i = 0; i < f.health; i++) {
          el("circle", { cx: cx - (f.health - 1) * 2.75 + i * 5.5, cy: cy + r + 1, r: 2.5, class: "pip" }, g);
        }
      }
      const carrying = /** @type {any} */ (f).carrying ?? [];
      if (carrying.length) {
        const b = el("g", { class: "carrying", "data-carrying": carrying.join(" ") }, g);
        el("polygon", { points: `${cx + r - 2},${cy - r - 7} ${cx + r + 5},${cy - r} ${cx + r - 2},${cy - r + 7} ${cx + r - 9},${cy - r}` }, b);
      }
      const guard = protectionText(view, f);
      el("title", {}, g).textContent = `${prettyName(f.name)} — health ${f.health}, actions ${f.actions_used}/${f.actions_allowed}` +
        (guard ? `, ${guard}` : "") +
        (f.weapon ? `, ${words(f.weapon)}` : "") + (f.items.length ? `, ${f.items.map(words).join(", ")}` : "") +
        (carrying.length ? `, carrying the ${carrying.map(words).join(", ")}` : "");
    }
  }

  /**
   * Let figures glide along the squares they just stepped through
   * (`paths`: figure id → squares, the last one where it stands now),
   * STEP_MS per square. Drawing only: the view is already final, so
   * cutting a glide short (a new render) loses nothing.
   * @param {Map<number, {x:number,y:number}[]>} paths
   * @returns {number} how many figures glide
   */
  animate(paths) {
    let n = 0;
    for (const [id, squares] of paths) {
      const g = /** @type {SVGGElement|null} */ (this.dyn.querySelector(`[data-figure="${id}"]`));
      if (!g || squares.length < 2) continue;
      const end = squares[squares.length - 1];
      const frames = squares.map((q) => ({ transform: `translate(${(q.x - end.x) * S}px, ${(q.y - end.y) * S}px)` }));
      g.dataset.animating = "true";
      const anim = g.animate(frames, { duration: STEP_MS * (squares.length - 1), easing: "linear" });
      anim.onfinish = anim.oncancel = () => { delete g.dataset.animating; };
      n++;
    }
    return n;
  }
}

/** How long a figure takes to glide one square. */
export const STEP_MS = 140;
