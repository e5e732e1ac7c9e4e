// Plays Citadel through the DOM contract, the way a person would: it reads
// `window.citadel.legal` only to know whether it is its turn and what the
// server would accept, and then acts by CLICKING the page (own figure,
// `.move-target`, `.attack-target`, `#decision button[data-option]`,
// `#end-activation`, `#end-turn`). It never sends a WebSocket message.
import { STEP_MS, until } from './harness.mjs';

/** What the page knows now (`window.citadel`). */
export async function citadelState(page) {
  return page.evaluate(() => {
    const c = window.citadel ?? {};
    return { seq: c.lastSeq ?? 0, legal: c.legal ?? [], seat: c.seat ?? null, view: c.view ?? null };
  });
}

/**
 * The figure's square as the board shows it: its own `data-square`, its
 * enclosing square's, or else the `#board [data-square]` under the centre
 * of the figure as drawn. Null if the figure is not drawn on the board.
 */
export async function figureSquare(page, figure) {
  return page.evaluate((id) => {
    const all = [...document.querySelectorAll(`[data-figure="${id}"]`)];
    const el = all.find((e) => e.hasAttribute('data-name')) ?? all[0];
    if (!el) return null;
    const own = el.getAttribute('data-square') ?? el.closest('[data-square]')?.getAttribute('data-square');
    if (own) return own;
    const r = el.getBoundingClientRect();
    if (!r.width) return null;
    const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
    const sq = [...document.querySelectorAll('#board [data-square]')].find((q) => {
      const b = q.getBoundingClientRect();
      return !q.contains(el) && cx >= b.left && cx < b.right && cy >= b.top && cy < b.bottom;
    });
    return sq?.getAttribute('data-square') ?? null;
  }, figure);
}

/** The figure's square in `window.citadel.view`, as "x,y" (null off the board). */
export function viewSquare(view, figure) {
  const f = view?.figures?.find((g) => g.id === figure);
  return f?.place?.at === 'board' ? `${f.place.square.x},${f.place.square.y}` : null;
}

export const PASS_LIKE = /\b(pass|done|skip|no|decline|none)\b/i;

/**
 * One player at the table. `act()` takes one step if the page has
 * something to do, and says what it did.
 */
export class Player {
  /**
   * `actionsPerTurn`/`attacksPerTurn`: how many moves and attacks it makes
   * in a turn at most; `pickTarget(state, figure, targets)` chooses among
   * the highlighted squares a move may end on (default: the first legal
   * move's end), or returns false for "do not move now".
   */
  constructor(who, { actionsPerTurn = 2, attacksPerTurn = 1, pickTarget = null } = {}) {
    this.who = who;
    this.page = who.page;
    this.actionsPerTurn = actionsPerTurn;
    this.attacksPerTurn = attacksPerTurn;
    this.pickTarget = pickTarget;
    this.turnActions = 0;
    this.turnAttacks = 0;
    this.moves = [];
    this.attacks = [];
    this.attacksOffered = 0;
    this.rotation = 0;
  }

  /** Wait until the click had an effect: a new event, or a new `legal`. */
  async settled(before) {
    const key = JSON.stringify(before.legal);
    await until(
      `${this.who.label}'s click to reach the server (seq ${before.seq})`,
      async () => {
        const now = await citadelState(this.page);
        return now.seq > before.seq || JSON.stringify(now.legal) !== key;
      },
      STEP_MS,
    );
    return citadelState(this.page);
  }

  /** Click a selector, with a readable failure. */
  async click(selector, why) {
    try {
      await this.page.locator(selector).first().click({ timeout: STEP_MS });
    } catch (e) {
      throw new Error(`${this.who.label}: cannot click ${selector} (${why}): ${e.message.split('\n')[0]}`);
    }
  }

  /**
   * Select an own figure by clicking it, unless it is selected already
   * (a second click would deselect it).
   */
  async select(figure, why) {
    const selector = `[data-figure="${figure}"][data-mine="true"]:not(.attack-target)`;
    if ((await this.page.locator(`${selector}.selected`).count()) > 0) return;
    await this.click(selector, why);
  }

  async act() {
    const s = await citadelState(this.page);
    // `set_allow_pass` is a standing option, not something to do now.
    if (!s.legal.some((c) => c.type !== 'set_allow_pass')) return null;
    if (s.legal.some((c) => c.type === 'attack')) this.attacksOffered += 1;

    // A decision the game waits for (entrances, draft, force cards, reactions).
    const options = this.page.locator('#decision button[data-option]');
    if ((await options.count()) > 0 && (await this.page.locator('#decision').isVisible())) {
      const labels = await options.allTextContents();
      const pass = labels.findIndex((l) => PASS_LIKE.test(l));
      const pick = pass >= 0 ? pass : 0;
      await options.nth(pick).click();
      await this.settled(s);
      return { kind: 'decision', label: labels[pick].trim() };
    }

    // A placement (a Doomtrooper on the start tile, debris, a creature):
    // click one of the highlighted squares.
    const place = s.legal.find((c) => ['place', 'place_start', 'place_debris'].includes(c.type));
    if (place) {
      const targets = this.page.locator('.place-target[data-square]');
      await targets.first().waitFor({ state: 'visible', timeout: STEP_MS });
      const square = await targets.first().getAttribute('data-square');
      await this.click(`.place-target[data-square="${square}"]`, `place on ${square}`);
      await this.settled(s);
      return { kind: 'place', square };
    }

    // Attack whenever the rules allow one (they arise only when an enemy is in reach).
    const attack = s.legal.find((c) => c.type === 'attack');
    if (attack && this.turnAttacks < this.attacksPerTurn) {
      await this.select(attack.figure, 'select the attacker');
      await this.click(`.attack-target[data-figure="${attack.target}"]`, 'attack');
      const after = await this.settled(s);
      this.turnAttacks += 1;
      const done = { kind: 'attack', figure: attack.figure, target: attack.target, seq: after.seq };
      this.attacks.push(done);
      return done;
    }

    // Move: select an own figure that has a legal move, click a highlighted target.
    let moves = s.legal.filter((c) => c.type === 'move');
    if (moves.length && this.pickTarget) {
      // Only the figures the player wants to move.
      moves = moves.filter((m) => this.pickTarget(s, m.figure, moves.filter((x) => x.figure === m.figure).map((x) => `${x.path.at(-1).x},${x.path.at(-1).y}`)) !== false);
    }
    if (moves.length && this.turnActions < this.actionsPerTurn) {
      const figures = [...new Set(moves.map((m) => m.figure))];
      const figure = figures[this.rotation++ % figures.length];
      const ends = moves.filter((m) => m.figure === figure).map((m) => m.path.at(-1));
      const from = viewSquare(s.view, figure);
      await this.select(figure, 'select own figure');
      await this.page.locator('.move-target').first().waitFor({ state: 'visible', timeout: STEP_MS });
      const shown = await this.page.locator('.move-target[data-square]').evaluateAll((els) =>
        els.map((e) => e.getAttribute('data-square')),
      );
      const offered = shown.filter((sq) => ends.some((p) => `${p.x},${p.y}` === sq));
      const target = (this.pickTarget && offered.length ? this.pickTarget(s, figure, offered) : null)
        ?? ends.map((p) => `${p.x},${p.y}`).find((sq) => shown.includes(sq)) ?? shown[0];
      if (!target) throw new Error(`${this.who.label}: no .move-target[data-square] for figure ${figure}`);
      await this.click(`.move-target[data-square="${target}"]`, `move figure ${figure} to ${target}`);
      const after = await this.settled(s);
      this.turnActions += 1;
      const done = { kind: 'move', figure, from, target, to: viewSquare(after.view, figure), seq: after.seq };
      this.moves.push(done);
      return done;
    }

    // Done for this activation / turn.
    const types = new Set(s.legal.map((c) => c.type));
    if (types.has('end_turn')) {
      await this.click('#end-turn', 'end the turn');
      this.turnActions = 0;
      this.turnAttacks = 0;
      await this.settled(s);
      return { kind: 'end_turn' };
    }
    if (types.has('end_activation')) {
      await this.click('#end-activation', 'end the activation');
      await this.settled(s);
      return { kind: 'end_activation' };
    }
    throw new Error(
      `${this.who.label}: the server offers [${[...types].join(', ')}] but the page shows no contract ` +
        'control for it (#decision button[data-option], own figure + .move-target/.attack-target, #end-activation, #end-turn)',
    );
  }
}
