// Shared plumbing for the browser tests: launching the system Chromium
// through playwright-core, screenshots, and waits on the DOM contract's
// connection state and `window.citadel`.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (tests/browser/lib → ../../..). */
export const REPO_ROOT = resolve(here, '..', '..', '..');
/** Where every run leaves its screenshots. */
export const SCREENSHOT_DIR = process.env.CITADEL_SCREENSHOTS ?? join(REPO_ROOT, 'target', 'screenshots');
/** The Chromium binary (Debian's `chromium` package by default). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Flags this machine's Chromium needs (no sandbox, no GPU, no phoning home). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Longest wait for any one thing to appear in a page. */
export const STEP_MS = Number(process.env.CITADEL_STEP_MS ?? 10_000);

/** Launch Chromium; playwright-core gives it a fresh profile each time. */
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
}

/**
 * A new browser context (its own cookies, storage and network state, so
 * one context is one person) with its page. Console errors and page
 * crashes are echoed with the label, to make failures readable.
 */
export async function person(browser, label, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  context.setDefaultTimeout(STEP_MS);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`[${label}] page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`[${label}] console error: ${m.text()}`);
  });
  return { label, context, page };
}

/** Save a full-page screenshot as target/screenshots/<name>.png. */
export async function shot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Wait until `#status` carries `data-state=<state>`. */
export async function waitForState(page, state, timeout = STEP_MS) {
  await page.waitForSelector(`#status[data-state="${state}"]`, { state: 'attached', timeout });
}

/** The page's `window.citadel.lastSeq` (0 before the first event). */
export async function lastSeq(page) {
  return page.evaluate(() => window.citadel?.lastSeq ?? 0);
}

/** Poll `fn` until it returns a truthy value; fail with `what` after `timeout`. */
export async function until(what, fn, timeout = STEP_MS, every = 100) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Drop one person's connection the hard way: take the context offline
 * (new sockets cannot open), close the page's socket as a network failure
 * would, run `whileAway` (others keep playing), then come back online.
 * Returns once `#status` says `connected` again.
 */
export async function dropConnection(who, whileAway = async () => {}) {
  const { page, context } = who;
  // Close first, then cut the network: with the network already cut the
  // close handshake cannot finish and the page may never see the close.
  // Clients wait at least 300 ms before reconnecting, which leaves time to
  // go offline before the first attempt.
  await page.evaluate(() => window.citadel.ws.close());
  await context.setOffline(true);
  // The close handshake can take a while on a loaded machine.
  await until(`${who.label} to notice the drop`, () =>
    page.evaluate(() => document.querySelector('#status')?.dataset.state !== 'connected'),
    30_000,
  );
  const stateWhileAway = await page.evaluate(() => document.querySelector('#status')?.dataset.state);
  await whileAway();
  await context.setOffline(false);
  await waitForState(page, 'connected', 15_000);
  return stateWhileAway;
}

/** The board client's marker in the page's HTML. */
export const BOARD_MARKER = 'data-client="citadel-board"';

/**
 * Whether a file of board-client tests (`what`, for the log) can run
 * against the server at `url`: `pending` is why not (no URL, or a page
 * without the board client's marker, unless CITADEL_FORCE_CONTRACT=1),
 * printed as PENDING; `check(name, fn)` registers a test, skipped while
 * pending.
 */
export async function boardClientTests(url, what) {
  let pending = url ? null : 'CITADEL_URL is not set';
  if (!pending) {
    const index = await fetch(`${url}/`).then((r) => r.text(), (e) => `unreachable: ${e.message}`);
    if (!index.includes(BOARD_MARKER) && process.env.CITADEL_FORCE_CONTRACT !== '1') {
      pending = `the page at ${url}/ lacks the board client's marker ${BOARD_MARKER}`;
    }
  }
  if (pending) console.log(`# PENDING: ${what} tests not run: ${pending}`);
  const check = (name, fn) => test(name, { skip: pending ? `PENDING: ${pending}` : false }, fn);
  return { pending, check };
}

/**
 * On the home page: create a one-seat game of mission `m` (from
 * `/api/content`) against the AI Dark Legion at starting rank `rank`,
 * named `name`; take corporation `corp`, get ready and start. Returns once
 * the board shows.
 */
export async function createSoloGame(page, m, rank, name, corp = 'mishima') {
  await page.locator(`form#create select[name=mission] option[value="${m.id}"]`).waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=mission]', m.id);
  await page.fill('form#create [name=name]', name);
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.fill('form#create [name=starting_rank]', String(rank));
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await until('the lobby names the mission', async () =>
    (await page.locator('#lobby-options').innerText()).startsWith(`${m.name} · `));
  await page.click(`button[data-corp=${corp}]`);
  await until('the corporation to be taken', async () =>
    new RegExp(corp, 'i').test((await page.locator('#seats tr[data-seat="0"]').textContent()) ?? ''));
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start', { timeout: 2_000 }).catch(() => {});
    return page.locator('#board').isVisible();
  }, 20_000, 500);
}
