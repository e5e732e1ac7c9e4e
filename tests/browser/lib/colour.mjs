// Colour-vision checks for the palette test: how a colour looks to
// someone with protanopia or deuteranopia (Machado, Oliveira & Fernandes
// 2009, severity 1.0, applied in linear RGB), and CIE76 distances in Lab.

const MATRIX = {
  normal: [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
};
export const VISIONS = Object.keys(MATRIX);

const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** "#rrggbb" or "rgb(r, g, b)" → [r, g, b] in 0..1. */
export function parseColour(s) {
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(s);
  if (m) return [1, 2, 3].map((i) => Number(m[i]) / 255);
  const h = s.replace('#', '');
  if (!/^[0-9a-f]{6}$/i.test(h)) throw new Error(`not a colour: ${s}`);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
}

function lab([r, g, b]) {
  const X = 0.4124 * r + 0.3576 * g + 0.1805 * b;
  const Y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const Z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(X / 0.95047), fy = f(Y), fz = f(Z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** The colour as seen with `vision`, in Lab. */
export function seen(colour, vision) {
  const l = parseColour(colour).map(linear);
  const m = MATRIX[vision];
  return lab(m.map((row) => Math.min(1, Math.max(0, row[0] * l[0] + row[1] * l[1] + row[2] * l[2]))));
}

/** The closest pair of `colours` ({name: colour}) as seen with `vision`. */
export function closestPair(colours, vision) {
  const names = Object.keys(colours);
  let best = { distance: Infinity, pair: null };
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const a = seen(colours[names[i]], vision), b = seen(colours[names[j]], vision);
      const d = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
      if (d < best.distance) best = { distance: d, pair: [names[i], names[j]] };
    }
  }
  return best;
}
