// The shell's two DOM helpers, shared with the game modules
// (web-client/games/<id>/): an element by id, and an element built from
// its properties and children. Game-agnostic.
// @ts-check

/** The element with id `id` (the caller knows it is there). */
export const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A new element: `props` are attributes, except `text` (its text),
 * `onclick`, `hidden`/`disabled` (booleans) and `style` (through the
 * CSSOM: the Content-Security-Policy allows no inline style attributes);
 * null, undefined and false attributes and children are left out.
 * @param {string} tag @param {Record<string, any>} [props] @param {...(Node|string|null|undefined)} kids
 */
export const h = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") e.textContent = v;
    else if (k === "onclick") e.onclick = v;
    else if (k === "hidden" || k === "disabled") /** @type {any} */ (e)[k] = !!v;
    else if (k === "style") e.style.cssText = String(v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  e.append(.../** @type {(Node|string)[]} */ (kids.filter((k) => k !== null && k !== undefined)));
  return e;
};
