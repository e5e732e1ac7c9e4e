// The game modules the client knows, by game kind (the catalogue's id,
// `GET /api/catalogue`). The shell (app.js) picks the module of the game it
// shows from here, by the kind the server names (`welcome.kind`,
// `lobby.kind`, a replay's `kind`, a "my games" entry's `kind`), and talks
// to it only through the interface documented in docs/ARCHITECTURE.md
// ("The browser client: shell and game modules").
// A new game adds its folder under games/<id>/ and one line below.
// @ts-check
import siege from "./siege/game.js";
import neuroshima from "./neuroshima/game.js";

/** kind -> module. */
export const GAMES = Object.freeze({
  [siege.id]: siege,
  [neuroshima.id]: neuroshima,
});

/** The module the page mounts before any game names its kind (the home page). */
export const DEFAULT_KIND = siege.id;

/**
 * The kind of a record made before games had kinds (protocol 2): a replay
 * kept then carries no `kind`, and every game then was this one.
 */
export const LEGACY_KIND = siege.id;

/** Whether this page has a client module for `kind`. @param {string|null|undefined} kind */
export function hasGame(kind) {
  return !!kind && Object.hasOwn(GAMES, kind);
}

/** The module for `kind` (the default one when the kind is not given); throws when the page has none. */
export function gameFor(kind = DEFAULT_KIND) {
  const k = kind ?? DEFAULT_KIND;
  if (!hasGame(k)) throw new Error(`this page has no client module for the game "${k}"`);
  return GAMES[/** @type {keyof typeof GAMES} */ (k)];
}
