// Siege's parts of the page, by the shell's `data-slot` names: the shell
// puts each in place of its `<template data-slot="...">` at the start, so
// the page is the same as when this markup stood in index.html.
// @ts-check

/** @type {Record<string, string>} */
export const SLOTS = {
  "create-options": `
<label>Mission <select name="mission"><option value="ce-c1m1">Battle Plans</option></select></label>
        <div id="mission-brief" class="brief small" aria-live="polite"></div>
        <label>Starting rank (1–12; every player, the Dark Legion too) <input name="starting_rank" type="number" min="1" max="12" value="1" required></label>
        <label>Seats (1–5) <input name="seats" type="number" min="1" max="5" value="2" required></label>
        <label>Dark Legion
          <select name="dl">
            <option value="drawn">drawn at random</option>
            <option value="ai">played by the AI</option>
            <option value="host">played by me (host)</option>
          </select>
        </label>`,
  "home-cards": `
    <div class="card">
      <h2>New campaign</h2>
      <form id="create-campaign">
        <label>Campaign name <input name="name" required maxlength="64"></label>
        <label>Players (1–5) <input name="players" type="number" min="1" max="5" value="2" required></label>
        <label>Campaign
          <select name="campaign">
            <option value="c1">Campaign 1: C1M1 to C1M5</option>
            <option value="c2">Campaign 2: C2M1 to C2M5</option>
            <option value="both">Both campaigns: C1M1 to C2M5</option>
            <option value="classic">1993 edition: missions 1 to 10, with credits</option>
          </select>
        </label>
        <label>Missions (empty: the whole campaign; 1993: 2–3 for a mini-campaign) <input name="missions" type="number" min="1" max="100"></label>
        <label class="classic-only">The campaign ends
          <select name="end">
            <option value="missions">after that many missions</option>
            <option value="first_to">when a player reaches the target PP</option>
          </select>
        </label>
        <label class="classic-only">Target PP (first to) <input name="target_pp" type="number" min="1" max="1000" placeholder="130"></label>
        <label class="classic-only check"><input name="free_choice" type="checkbox" value="yes"> Choose each mission freely (replays allowed)</label>
        <label>Starting rank <input name="starting_rank" type="number" min="1" max="12" value="1" required></label>
        <label>Dark Legion
          <select name="dark_legion">
            <option value="rotate">a player, in turn</option>
            <option value="ai">the AI every mission</option>
          </select>
        </label>
        <button type="submit">Create campaign</button>
      </form>
    </div>
    <div class="card">
      <h2>Join a campaign</h2>
      <form id="join-campaign">
        <label>Code <input name="code" required maxlength="6" minlength="6" autocapitalize="characters" autocomplete="off"></label>
        <label>Your name <input name="name" required maxlength="32" autocomplete="nickname"></label>
        <label>Corporation
          <select name="corporation">
            <option value="bauhaus">Bauhaus</option>
            <option value="capitol">Capitol</option>
            <option value="cybertronic">Cybertronic</option>
            <option value="imperial">Imperial</option>
            <option value="mishima">Mishima</option>
          </select>
        </label>
        <button type="submit">Join campaign</button>
      </form>
    </div>
    <div class="card">
      <h2>My campaigns</h2>
      <ul id="my-campaigns"></ul>
    </div>`,
  "screens": `
  <section id="campaign" hidden>
    <div class="card">
      <h2 id="campaign-name"></h2>
      <p>Invite code: <strong id="campaign-code" class="code-sm"></strong> <span id="campaign-info" class="muted"></span></p>
      <p id="campaign-state"></p>
      <p id="campaign-gear" class="muted small">Carried from mission to mission: PP and rank, and each mission's outcome. Gear is not carried: every Doomtrooper's equipment returns after each mission (EQP-6) and is chosen again at the next one.</p>
      <div class="row">
        <button id="play-campaign-game" type="button" hidden>Play</button>
        <button id="watch-campaign-game" type="button" hidden>Watch</button>
        <label id="free-mission-label" hidden>Mission <select id="free-mission"></select></label>
        <button id="next-mission" type="button" hidden>Next mission</button>
        <button id="buy-credit" type="button" hidden>Buy a credit for 5 PP</button>
      </div>
    </div>
    <div class="card">
      <h3>Standings</h3>
      <div class="scroll">
        <table id="standings">
          <thead><tr><th>#</th><th>Player</th><th>Corporation</th><th>PP</th><th>Rank</th><th>Credits</th><th>Dark Legion</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
    </div>
    <div class="card" id="campaign-next" hidden>
      <h3>Next mission: <span id="campaign-next-name"></span></h3>
      <div id="campaign-next-brief" class="brief"></div>
    </div>
    <div class="card">
      <h3>Mission order</h3>
      <ol id="campaign-order"></ol>
    </div>
    <div class="card">
      <h3>Missions played</h3>
      <div class="scroll">
        <table id="history">
          <thead><tr><th>#</th><th>Mission</th><th>Dark Legion</th><th>Result</th><th>PP before → after</th><th></th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
    </div>
  </section>`,
  "seat-choice": `
<h3 id="seat-choice-title">Your corporation</h3>
      <div id="corps" class="row"></div>
      <label id="team-label">Your Doomtroopers
        <select id="team-choice">
          <option value="close_combat,firearms">Close combat + Firearms</option>
          <option value="close_combat,tech">Close combat + Tech</option>
          <option value="firearms,tech">Firearms + Tech</option>
        </select>
      </label>`,
  "controls": `
      <div id="decision" hidden></div>
      <div id="actions"></div>
      <div id="dice" aria-live="polite"></div>
      `,
  "auto-pass": `
<label class="check"><input type="checkbox" id="auto-pass"> Auto-pass: answer every reaction window with "pass"</label>`,
  "panel": `
      <div id="round"></div>
      <div id="briefing" hidden><b id="briefing-name"></b> <span id="briefing-goal" class="muted"></span></div>
      <table id="sides"></table>
      <div id="hand-box"><h3>Your cards</h3><ul id="hand"></ul></div>
      <div id="effects-box" hidden><h3>Cards in play</h3><ul id="card-effects"></ul></div>
      <div id="legend-box" hidden><h3>Creatures</h3><ul id="legend"></ul></div>
      <div id="token-legend-box" hidden><h3>Tokens</h3><ul id="token-legend"></ul></div>`,
};
