// Neuroshima Hex's board: the 19 flat-topped hexes of `static_data`
// drawn in the shell's `svg#board`, tiles as our own icons (every attack,
// armour, net, redirect, link and trap edge drawn where it faces, numbers
// kept upright), the targets the player may click, a pending placement
// with its rotation, and the battle overlay (acting tiles, each shot's
// path and every redirect branch, hits, removals).
// @ts-check
import { DIRS, describeTile, hexKey, hexName, kindOf, onBoard, tileKey, bonusShort } from "./text.js";

const NS = "http://www.w3.org/2000/svg";
/** A hex's circumradius (and edge length) in board units. */
export const SIZE = 60;
const R3 = Math.sqrt(3);
const APO = SIZE * R3 / 2;

/** An SVG element. @param {string} tag @param {Record<string, any>} [attrs] @param {...(Node|string|null)} kids */
function s(tag, attrs = {}, ...kids) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const kid of kids) if (kid !== null && kid !== undefined) el.append(typeof kid === "string" ? document.createTextNode(kid) : kid);
  return el;
}

/** A hex's centre in board units. @param {{q: number, r: number}} h */
export function centre(h) {
  return { x: SIZE * 1.5 * h.q, y: SIZE * R3 * (h.r + h.q / 2) };
}
/** The unit vector of world direction `d` (0 up, clockwise). */
function unit(d) {
  const a = (-90 + 60 * d) * Math.PI / 180;
  return { x: Math.cos(a), y: Math.sin(a) };
}
const hexPoints = (c, r = SIZE) => [0, 1, 2, 3, 4, 5].map((i) => {
  const a = i * Math.PI / 3;
  return `${(c.x + r * Math.cos(a)).toFixed(1)},${(c.y + r * Math.sin(a)).toFixed(1)}`;
}).join(" ");
const pt = (c, u, p, along, across) => ({ x: c.x + u.x * along + p.x * across, y: c.y + u.y * along + p.y * across });
const pts = (list) => list.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" ");

/**
 * The icons of one edge: what faces world direction `w` from the tile at
 * `c` (a melee claw, a ranged arrow, a Gauss bolt, an armour plate, a
 * net, a redirect entry or exit, a link, the trap's side), with their
 * strength as an upright number.
 */
function edgeIcons(c, w, e, scale = 1, hq = false) {
  const u = unit(w);
  const p = { x: -u.y, y: u.x };
  const A = APO * scale, S = SIZE * scale;
  const g = s("g", { class: "nsh-edge", "data-dir": w });
  if (e.armour) g.append(s("polyline", { class: "nsh-armour", points: pts([pt(c, u, p, A * 0.9, -S * 0.42), pt(c, u, p, A * 0.9, S * 0.42)]) }));
  if (e.trap) g.append(s("polygon", { class: "nsh-trap", points: pts([pt(c, u, p, A * 0.97, -S * 0.45), pt(c, u, p, A * 0.97, S * 0.45), pt(c, u, p, A * 0.75, S * 0.3), pt(c, u, p, A * 0.75, -S * 0.3)]) }));
  if (e.link) {
    if (!hq) g.append(s("line", { class: "nsh-link-line", x1: pt(c, u, p, A * 0.35, 0).x, y1: pt(c, u, p, A * 0.35, 0).y, x2: pt(c, u, p, A * 0.96, 0).x, y2: pt(c, u, p, A * 0.96, 0).y }));
    for (let i = 0; i < e.link; i++) {
      const q = pt(c, u, p, A * (0.88 - i * 0.2), 0);
      g.append(s("circle", { class: "nsh-link", cx: q.x.toFixed(1), cy: q.y.toFixed(1), r: 5 * scale }));
    }
  }
  if (e.net) {
    const mesh = [];
    for (const f of [-0.3, 0, 0.3]) {
      mesh.push(pts([pt(c, u, p, A * 0.62, S * f), pt(c, u, p, A * 0.94, S * f)]));
    }
    for (const f of [0.66, 0.8, 0.94]) mesh.push(pts([pt(c, u, p, A * f, -S * 0.32), pt(c, u, p, A * f, S * 0.32)]));
    for (const m of mesh) g.append(s("polyline", { class: "nsh-net", points: m }));
  }
  if (e.entry) g.append(s("polygon", { class: "nsh-entry", points: pts([pt(c, u, p, A * 0.62, 0), pt(c, u, p, A * 0.9, -S * 0.16), pt(c, u, p, A * 0.9, S * 0.16)]) }));
  if (e.exit) g.append(s("polygon", { class: "nsh-exit", points: pts([pt(c, u, p, A * 0.98, 0), pt(c, u, p, A * 0.66, -S * 0.2), pt(c, u, p, A * 0.66, S * 0.2)]) }));
  let label = null;
  if (e.melee) {
    // A claw: one solid wedge per point of strength, pointing out.
    for (let i = 0; i < Math.min(e.melee, 3); i++) {
      const o = A * (0.98 - i * 0.17);
      g.append(s("polygon", { class: "nsh-melee", points: pts([pt(c, u, p, o, 0), pt(c, u, p, o - A * 0.2, -S * 0.2), pt(c, u, p, o - A * 0.12, 0), pt(c, u, p, o - A * 0.2, S * 0.2)]) }));
    }
    label = { text: String(e.melee), at: pt(c, u, p, A * 0.68, -S * 0.3), cls: "nsh-num nsh-num-melee" };
  }
  if (e.ranged) {
    const off = e.melee ? S * 0.2 : 0;
    const a = pt(c, u, p, A * 0.52, off), b = pt(c, u, p, A * 0.98, off);
    g.append(s("line", { class: "nsh-ranged", x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1) }));
    g.append(s("polygon", { class: "nsh-ranged-head", points: pts([b, pt(c, u, p, A * 0.78, off - S * 0.13), pt(c, u, p, A * 0.78, off + S * 0.13)]) }));
    const l = { text: String(e.ranged), at: pt(c, u, p, A * 0.68, off + S * 0.3), cls: "nsh-num nsh-num-ranged" };
    if (label) g.append(numberEl(l, scale)); // the melee number too
    label = l;
  }
  if (e.gauss) {
    g.append(s("polyline", { class: "nsh-gauss", points: pts([pt(c, u, p, A * 0.45, 0), pt(c, u, p, A * 0.62, -S * 0.12), pt(c, u, p, A * 0.74, S * 0.12), pt(c, u, p, A * 0.98, 0)]) }));
    label = { text: "G", at: pt(c, u, p, A * 0.5, S * 0.22), cls: "nsh-num nsh-num-gauss" };
  }
  if (label) g.append(numberEl(label, scale));
  return g;
}
function numberEl(l, scale) {
  return s("text", { class: l.cls, x: l.at.x.toFixed(1), y: l.at.y.toFixed(1), "font-size": 15 * scale, "text-anchor": "middle", "dominant-baseline": "central" }, l.text);
}

/**
 * One tile drawn at `c` with rotation `rot` (its edge e faces world
 * direction e + rot): the hex in its owner's colour, every edge's icons,
 * and in the middle its short name, initiative or bonus, and hit points.
 * `scale` < 1 draws the hand's small copies.
 */
export function tileIcon(tile, c, rot, { damage = 0, netted = false, effects = null, scale = 1, cls = "" } = {}) {
  const k = kindOf(tile);
  const g = s("g", { class: `nsh-tile ${cls}`.trim(), "data-tile": tileKey(tile), "data-owner": tile.seat, "data-kind": k?.id ?? "" });
  g.append(s("polygon", { class: "nsh-tile-bg", points: hexPoints(c, SIZE * scale * 0.96) }));
  if (!k) return g;
  if (k.class === "instant") {
    g.append(s("text", { class: "nsh-instant-icon", x: c.x, y: c.y - 8 * scale, "font-size": 30 * scale, "text-anchor": "middle", "dominant-baseline": "central" },
      { battle: "⚔", push: "⇥", move: "✥", small_bomb: "✹", air_strike: "✈" }[k.effect ?? ""] ?? "★"));
    g.append(s("text", { class: "nsh-name", x: c.x, y: c.y + 22 * scale, "font-size": 11 * scale, "text-anchor": "middle" }, short(k.name)));
    return g;
  }
  k.edges.forEach((e, i) => { if (Object.keys(e).length) g.append(edgeIcons(c, (i + rot) % 6, e, scale, k.class === "hq")); });
  const mid = k.class === "hq" ? "HQ" : k.init?.length ? k.init.join("·") : k.bonus?.length ? k.bonus.map(bonusShort).join(" ") : k.edges.some((e) => e.entry) ? "↻" : "";
  const hp = k.hp - damage;
  g.append(s("text", { class: `nsh-mid${k.class === "hq" ? " nsh-hq" : ""}`, x: c.x, y: c.y - 5 * scale, "font-size": (k.class === "hq" ? 17 : 18) * scale, "text-anchor": "middle", "dominant-baseline": "central" }, mid));
  if (k.class !== "hq") g.append(s("text", { class: "nsh-name", x: c.x, y: c.y - 22 * scale, "font-size": 9 * scale, "text-anchor": "middle" }, short(k.name)));
  if (k.class === "hq") {
    g.append(s("text", { class: "nsh-hq-hp", x: c.x, y: c.y + 12 * scale, "font-size": 14 * scale, "text-anchor": "middle", "dominant-baseline": "central" }, `${Math.max(0, hp)}`));
  } else {
    // Hit points as pips: filled for those left, hollow for wounds.
    for (let i = 0; i < k.hp; i++) {
      const x = c.x + (i - (k.hp - 1) / 2) * 10 * scale;
      g.append(s("circle", { class: i < hp ? "nsh-hp" : "nsh-hp lost", cx: x.toFixed(1), cy: (c.y + 17 * scale).toFixed(1), r: 3.5 * scale }));
    }
  }
  if (effects) {
    const bits = [effects.melee ? `+${effects.melee}M` : "", effects.ranged ? `+${effects.ranged}R` : "", effects.initiative ? `+${effects.initiative}I` : "", effects.extra ? `+${effects.extra}×` : ""].filter(Boolean);
    if (bits.length) g.append(s("text", { class: "nsh-effects", x: c.x, y: c.y + 30 * scale, "font-size": 10 * scale, "text-anchor": "middle", "dominant-baseline": "central" }, bits.join(" ")));
  }
  if (netted) {
    g.classList.add("netted");
    g.append(s("polygon", { class: "nsh-netted", points: hexPoints(c, SIZE * scale * 0.9) }));
  }
  return g;
}
const short = (name) => (name.length > 14 ? name.replace(/ Shooter$/, "").replace(/^The /, "").slice(0, 14) : name);

/** A tile's icon alone in a small SVG (the hand, the lobby, the info box). */
export function tileSvg(tile, { rot = 0, size = 64 } = {}) {
  const svg = s("svg", { viewBox: `${-SIZE} ${-SIZE} ${SIZE * 2} ${SIZE * 2}`, width: size, height: size, class: "nsh-tile-svg", "aria-hidden": "true" });
  svg.append(tileIcon(tile, { x: 0, y: 0 }, rot));
  return svg;
}

export class HexBoard {
  /** @param {SVGSVGElement} svg */
  constructor(svg) {
    this.svg = svg;
    // Not one picture: a group of hexes, some of them to choose (focusable buttons).
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "The board: 19 hexes");
    /** @type {{q: number, r: number}[]} */ this.hexes = [];
    this.full = [-260, -290, 520, 580];
    this.vb = [...this.full];
    /** @type {(z: number) => void} */ this.onZoom = () => {};
    /** Clicks: a hex (by key), a Small Bomb corner (by index). */
    this.handlers = { hex: (_k) => {}, vertex: (_i) => {}, hover: (_t) => {} };
    /** The wheel turns a pending tile when this says so (else it zooms). */
    this.wheel = (_dir) => false;
    let acc = 0;
    svg.addEventListener("wheel", (ev) => {
      acc += ev.deltaY * (ev.deltaMode === 1 ? 30 : 1);
      if (Math.abs(acc) < 40) { ev.preventDefault(); return; }
      const dir = acc > 0 ? 1 : -1;
      acc = 0;
      if (this.wheel(dir)) { ev.preventDefault(); return; }
      if (this.zoom > 1.01 || dir < 0) { ev.preventDefault(); this.zoomBy(dir < 0 ? 1.25 : 0.8); }
    }, { passive: false });
    // Zoomed in, a drag moves the board; the click that ends a drag chooses nothing.
    let drag = /** @type {{x: number, y: number, vb: number[], moved: boolean}|null} */ (null);
    let dragged = false;
    svg.addEventListener("pointerdown", (ev) => {
      dragged = false;
      drag = this.zoom > 1.01 ? { x: ev.clientX, y: ev.clientY, vb: [...this.vb], moved: false } : null;
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!drag) return;
      const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 6) return;
      drag.moved = true;
      const k = this.vb[2] / (svg.getBoundingClientRect().width || 1);
      this.setView([drag.vb[0] - dx * k, drag.vb[1] - dy * k, drag.vb[2], drag.vb[3]]);
    });
    const end = () => { if (drag?.moved) dragged = true; drag = null; };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("click", (ev) => { if (dragged) { ev.stopPropagation(); dragged = false; } }, true);
  }

  /** The board's hexes (`static_data.board`). */
  setHexes(hexes) {
    this.hexes = hexes ?? [];
    const xs = this.hexes.map((h) => centre(h).x), ys = this.hexes.map((h) => centre(h).y);
    if (xs.length) {
      const pad = SIZE + 12;
      this.full = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad, Math.max(...ys) - Math.min(...ys) + 2 * pad];
    }
    this.fit();
  }

  get zoom() { return this.full[2] / this.vb[2]; }
  setView(vb) {
    const w = Math.min(this.full[2], Math.max(this.full[2] / 4, vb[2]));
    const h = w * this.full[3] / this.full[2];
    const x = Math.min(this.full[0] + this.full[2] - w, Math.max(this.full[0], vb[0]));
    const y = Math.min(this.full[1] + this.full[3] - h, Math.max(this.full[1], vb[1]));
    this.vb = [x, y, w, h];
    this.svg.setAttribute("viewBox", this.vb.map((v) => Math.round(v * 10) / 10).join(" "));
    this.svg.dataset.zoom = this.zoom.toFixed(2);
    this.svg.classList.toggle("zoomed", this.zoom > 1.01);
    this.onZoom(this.zoom);
  }
  fit() { this.setView(this.full); }
  zoomBy(f) {
    const [x, y, w, h] = this.vb;
    const nw = w / f, nh = h / f;
    this.setView([x + (w - nw) / 2, y + (h - nh) / 2, nw, nh]);
  }

  /**
   * Draw everything.
   * @param {{tiles: {hex: any, tile: any, rot: number, damage: number}[], netted: Set<string>, effects: Map<string, any>}} model
   * @param {{targets?: Map<string, string>, selectedHex?: string|null, pending?: {tile: any, hex: any, rot: number}|null,
   *   vertices?: {hexes: any[]}[], overlay?: any, mine?: number|null, lastHex?: string|null}} opts
   */
  render(model, opts = {}) {
    const svg = this.svg;
    // The hex chosen by keyboard keeps the focus through the redraw.
    const active = document.activeElement;
    const focused = active && svg.contains(active) ? active.getAttribute("data-hex") : null;
    svg.replaceChildren();
    svg.classList.add("nsh-board");
    const grid = s("g", { class: "nsh-grid" });
    const byHex = new Map(model.tiles.map((t) => [hexKey(t.hex), t]));
    const pendingKey = opts.pending ? hexKey(opts.pending.hex) : null;
    for (const h of this.hexes) {
      const k = hexKey(h), c = centre(h);
      const target = opts.targets?.get(k) ?? null;
      const here = byHex.get(k);
      const g = s("g", { class: ["nsh-hex", target ? `nsh-target nsh-target-${target}` : "", opts.selectedHex === k ? "selected" : "", here ? "occupied" : "empty"].filter(Boolean).join(" "),
        "data-hex": k, "data-name": hexName(h), role: target ? "button" : null, "aria-label": `${hexName(h)}${here ? `: ${describeTile(here.tile, here.damage).split("\n")[0]}` : ", empty"}` },
      s("polygon", { class: "nsh-cell", points: hexPoints(c) }),
      s("text", { class: "nsh-hexname", x: c.x, y: c.y + SIZE * 0.62, "text-anchor": "middle", "font-size": 10 }, hexName(h)));
      g.addEventListener("click", () => this.handlers.hex(k));
      if (target) {
        // A hex to choose is reachable by Tab, and chosen with Enter or Space.
        g.setAttribute("tabindex", "0");
        g.addEventListener("keydown", (ev) => {
          if (ev.key !== "Enter" && ev.key !== " ") return;
          ev.preventDefault(); ev.stopPropagation();
          this.handlers.hex(k);
        });
      }
      grid.append(g);
      if (here && k !== pendingKey) {
        const icon = tileIcon(here.tile, c, here.rot, { damage: here.damage, netted: model.netted.has(k), effects: model.effects.get(k) ?? null,
          cls: [here.tile.seat === opts.mine ? "mine" : "", target ? "nsh-target-tile" : "", opts.selectedHex === k ? "selected" : "", opts.lastHex === k ? "nsh-last" : ""].filter(Boolean).join(" ") });
        icon.dataset.hex = k;
        icon.append(s("title", {}, describeTile(here.tile, here.damage)));
        icon.addEventListener("pointerenter", () => this.handlers.hover(here));
        // Inside its hex's group: a click on the tile is a click on its hex.
        g.append(icon);
      }
    }
    svg.append(grid);
    if (opts.pending) {
      const c = centre(opts.pending.hex);
      const ghost = tileIcon(opts.pending.tile, c, opts.pending.rot, { damage: opts.pending.damage ?? 0, cls: "nsh-pending" });
      ghost.dataset.hex = pendingKey ?? "";
      ghost.dataset.rotation = String(opts.pending.rot);
      ghost.addEventListener("click", () => this.handlers.hex(pendingKey ?? ""));
      // Where its top (edge 0) now faces.
      const u = unit(opts.pending.rot);
      ghost.append(s("circle", { class: "nsh-facing", cx: (c.x + u.x * APO * 1.08).toFixed(1), cy: (c.y + u.y * APO * 1.08).toFixed(1), r: 5 }));
      svg.append(ghost);
    }
    (opts.vertices ?? []).forEach((v, i) => {
      const cs = v.hexes.map(centre);
      const x = cs.reduce((a, b) => a + b.x, 0) / 3, y = cs.reduce((a, b) => a + b.y, 0) / 3;
      const dot = s("circle", { class: "nsh-vertex", cx: x.toFixed(1), cy: y.toFixed(1), r: 11, "data-vertex": i, "data-hexes": v.hexes.map(hexKey).join(" "), role: "button", "aria-label": `bomb ${v.hexes.map(hexName).join(", ")}` });
      dot.addEventListener("click", (ev) => { ev.stopPropagation(); this.handlers.vertex(i); });
      svg.append(dot);
    });
    if (opts.overlay) svg.append(this.overlay(opts.overlay));
    if (focused) /** @type {SVGElement|null} */ (svg.querySelector(`.nsh-hex[data-hex="${focused}"][tabindex]`))?.focus();
  }

  /**
   * A battle phase drawn over the board: tiles that act, each shot's path
   * with every redirect branch, melee strikes, hits with their wounds,
   * explosions and removed tiles.
   */
  overlay(f) {
    const g = s("g", { class: "nsh-overlay", "data-phase": f.phase });
    const tileHex = (t) => f.where.get(tileKey(t))?.hex ?? null;
    for (const t of f.acting) {
      const h = tileHex(t);
      if (h) g.append(s("polygon", { class: "nsh-acting", points: hexPoints(centre(h), SIZE * 0.98), "data-tile": tileKey(t) }));
    }
    for (const tr of f.paths) {
      const tg = s("g", { class: `nsh-trace nsh-trace-${tr.kind}`, "data-source": tileKey(tr.source) });
      for (const seg of tr.segments) {
        const a = centre(seg.from);
        const b = seg.off ? (() => { const c = centre(seg.from), u = unit(seg.dir); return { x: c.x + u.x * SIZE * 1.3, y: c.y + u.y * SIZE * 1.3 }; })() : centre(seg.to);
        tg.append(s("line", { class: "nsh-seg", x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: b.x.toFixed(1), y2: b.y.toFixed(1), "marker-end": "url(#nsh-arrow)" }));
      }
      for (const r of tr.redirects) {
        const c = centre(r.hex);
        tg.append(s("circle", { class: "nsh-redirect", cx: c.x, cy: c.y, r: SIZE * 0.5 }));
        if (r.copies > 1 || r.exits > 1) tg.append(s("text", { class: "nsh-redirect-n", x: c.x, y: c.y - SIZE * 0.5, "text-anchor": "middle", "font-size": 14 }, `×${r.exits}`));
      }
      for (const c0 of tr.cuts) {
        const c = centre(c0.hex);
        tg.append(s("text", { class: "nsh-cut", x: c.x, y: c.y + 4, "text-anchor": "middle", "font-size": 16 }, "∞✂"));
      }
      g.append(tg);
    }
    for (const m of f.strikes) {
      const a = centre(m.from), b = centre(m.to);
      g.append(s("line", { class: `nsh-strike nsh-strike-${m.kind}`, x1: (a.x * 0.6 + b.x * 0.4).toFixed(1), y1: (a.y * 0.6 + b.y * 0.4).toFixed(1), x2: (a.x * 0.25 + b.x * 0.75).toFixed(1), y2: (a.y * 0.25 + b.y * 0.75).toFixed(1), "marker-end": "url(#nsh-arrow)" }));
    }
    for (const t of f.explosions) {
      const h = tileHex(t);
      if (h) { const c = centre(h); g.append(s("circle", { class: "nsh-explosion", cx: c.x, cy: c.y, r: SIZE * 1.4 })); }
    }
    // One marker per hit tile: the wounds it takes in this phase.
    const byTarget = new Map();
    for (const h of f.hits) {
      const k = hexKey(h.hex);
      const n = (h.unbounded ? Infinity : h.copies - h.cancelled) * h.wounds;
      const o = byTarget.get(k) ?? { hex: h.hex, wounds: 0, saved: 0, tile: h.target };
      o.wounds += n; o.saved += h.cancelled;
      byTarget.set(k, o);
    }
    for (const [k, o] of byTarget) {
      const c = centre(o.hex);
      const burst = s("g", { class: "nsh-hit", "data-hex": k, "data-tile": tileKey(o.tile), "data-wounds": o.wounds === Infinity ? "inf" : o.wounds });
      burst.append(s("polygon", { points: star(c, SIZE * 0.42, SIZE * 0.22) }));
      burst.append(s("text", { x: c.x, y: c.y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 18 }, o.wounds === Infinity ? "−∞" : `−${o.wounds}`));
      if (o.saved) burst.append(s("text", { class: "nsh-saved", x: c.x, y: c.y + 22, "text-anchor": "middle", "font-size": 12 }, `✚${o.saved}`));
      g.append(burst);
    }
    for (const t of f.removed) {
      const h = tileHex(t);
      if (!h) continue;
      const c = centre(h), d = SIZE * 0.45;
      g.append(s("path", { class: "nsh-removed", "data-tile": tileKey(t), d: `M${c.x - d},${c.y - d}L${c.x + d},${c.y + d}M${c.x + d},${c.y - d}L${c.x - d},${c.y + d}` }));
    }
    g.prepend(s("defs", {}, s("marker", { id: "nsh-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      s("path", { d: "M0,0L10,5L0,10z", class: "nsh-arrowhead" }))));
    g.append(s("text", { class: "nsh-phase-label", x: this.full[0] + 10, y: this.full[1] + 24, "font-size": 20 }, `Battle · phase ${f.phase}`));
    return g;
  }
}

function star(c, r1, r2) {
  const out = [];
  for (let i = 0; i < 16; i++) {
    const a = i * Math.PI / 8, r = i % 2 ? r2 : r1;
    out.push({ x: c.x + r * Math.cos(a), y: c.y + r * Math.sin(a) });
  }
  return pts(out);
}

/**
 * The paths of one shot (a trace report of NSH-DM-15) on the board as it
 * stood in its phase: straight lines from the shooter, turned at each
 * friendly redirector it enters through an entry edge (once per branch
 * and redirector edge; a loop is cut as the capped rules cut it), to the
 * first enemy (ranged) or the board's edge (Gauss). Geometry only: which
 * tiles were hit and how hard is the report's.
 * @param {any} trace @param {Map<string, {hex: any, tile: any, rot: number}>} byHex tiles by hex key
 * @param {Set<string>} netted netted tile keys
 */
export function tracePaths(trace, byHex, where, netted) {
  const src = where.get(tileKey(trace.source));
  const out = { source: trace.source, kind: trace.kind, segments: [], redirects: [], cuts: [] };
  if (!src) return out;
  let branches = [{ hex: src.hex, dir: (trace.edge + src.rot) % 6, used: [] }];
  const seen = new Set();
  for (let tick = 0; tick < 120 && branches.length; tick++) {
    const next = new Map();
    for (const b of branches) {
      const to = { q: b.hex.q + DIRS[b.dir][0], r: b.hex.r + DIRS[b.dir][1] };
      const segKey = `${hexKey(b.hex)}>${b.dir}`;
      if (!onBoard(to)) {
        if (!seen.has(segKey)) out.segments.push({ from: b.hex, to, dir: b.dir, off: true });
        seen.add(segKey);
        continue;
      }
      if (!seen.has(segKey)) out.segments.push({ from: b.hex, to, dir: b.dir, off: false });
      seen.add(segKey);
      const t = byHex.get(hexKey(to));
      const add = (nb) => {
        const k = `${hexKey(nb.hex)}|${nb.dir}|${[...nb.used].sort().join(",")}`;
        if (!next.has(k)) next.set(k, nb);
      };
      if (t && t.tile.seat !== trace.source.seat) {
        if (trace.kind === "gauss") add({ hex: to, dir: b.dir, used: b.used });
        continue;
      }
      const k = t ? kindOf(t.tile) : null;
      if (t && k && !netted.has(tileKey(t.tile))) {
        const arrival = (((b.dir + 3 - t.rot) % 6) + 6) % 6;
        if (k.edges[arrival]?.entry) {
          const pair = `${tileKey(t.tile)}:${arrival}`;
          if (!b.used.includes(pair)) {
            const exits = k.edges.map((e, i) => (e.exit ? (i + t.rot) % 6 : -1)).filter((d) => d >= 0);
            if (!out.redirects.some((r) => hexKey(r.hex) === hexKey(to))) out.redirects.push({ hex: to, exits: exits.length, copies: exits.length });
            for (const d of exits) add({ hex: to, dir: d, used: [...b.used, pair] });
            continue;
          }
          if (!out.cuts.some((r) => hexKey(r.hex) === hexKey(to))) out.cuts.push({ hex: to });
        }
      }
      add({ hex: to, dir: b.dir, used: b.used });
    }
    branches = [...next.values()].slice(0, 800);
  }
  return out;
}
