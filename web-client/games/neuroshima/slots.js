// Neuroshima Hex's parts of the page, by the shell's `data-slot` names.
// The create form has none: the shell builds Neuroshima's options (first
// player, redirect loops) from the catalogue's option specs.
// @ts-check

/** @type {Record<string, string>} */
export const SLOTS = {
  "seat-choice": `
<h3 id="nsh-army-title">Your army</h3>
      <div id="nsh-armies" class="row" role="group" aria-label="Army"></div>
      <p id="nsh-army-note" class="muted small"></p>`,
  "controls": `
      <div class="row"><div id="nsh-prompt" aria-live="polite"></div><button id="nsh-skip" type="button" hidden>Skip the battle's playback</button></div>
      <div id="nsh-hand" class="row" role="group" aria-label="Your tiles"></div>
      <div id="nsh-actions" class="row"></div>
      <div id="nsh-choices" class="row"></div>`,
  "panel": `
      <div id="nsh-turn"></div>
      <table id="nsh-players"></table>
      <div id="nsh-info" aria-live="polite"><p class="muted small">Hover over a tile, or tap it, to read what it does.</p></div>
      <div class="row"><button id="nsh-last-battle" type="button" hidden>Show the last battle again</button></div>
      <details id="nsh-legend"><summary>What the icons mean</summary><ul id="nsh-legend-list"></ul></details>`,
};
