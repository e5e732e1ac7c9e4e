// Accessibility: axe-core (pinned in package.json) on the home page, the
// lobby and the game screen of a real game; no serious or critical
// violation may remain. Each violation is printed with its nodes, so a
// failure says what to fix.
//
// Like citadel.test.mjs these run once web-client/index.html carries the
// board client's marker `data-client="citadel-board"`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { boardClientTests, launch, person, shot, until, waitForState } from './lib/harness.mjs';

const URL = process.env.CITADEL_URL;
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

const { pending, check } = await boardClientTests(URL, 'accessibility');

let browser;
let who;

before(async () => {
  if (pending) return;
  browser = await launch();
  // The page's Content-Security-Policy (script-src 'self') refuses the
  // injected axe script, as it should refuse any injected script: this
  // test's own browser context alone sets it aside.
  who = await person(browser, 'axe', { bypassCSP: true });
});

after(async () => {
  await browser?.close();
});

/** Run axe on the page; fail on serious or critical violations. */
async function audit(page, screen) {
  await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  console.log(`# ${screen}: axe found ${result.violations.length} violation(s): ${result.violations.map((v) => `${v.id} (${v.impact})`).join(', ') || 'none'}`);
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of bad) {
    console.log(`# ${screen}: ${v.impact} ${v.id}: ${v.help}`);
    for (const n of v.nodes.slice(0, 5)) console.log(`#   ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join('; ')}`);
  }
  assert.deepEqual(bad.map((v) => v.id), [], `${screen}: no serious or critical accessibility violations`);
}

check('home, lobby and game have no serious or critical accessibility violations', async () => {
  const { page } = who;
  await page.goto(URL);
  await page.locator('form#create').waitFor();
  await audit(page, 'home');

  await page.fill('form#create [name=name]', 'Ada');
  await page.fill('form#create [name=seats]', '1');
  await page.selectOption('form#create select[name=dl]', 'ai');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await page.click('button[data-corp=imperial]');
  await audit(page, 'lobby');

  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board').isVisible()) return true;
    await page.click('#start').catch(() => {});
    return page.locator('#board').isVisible();
  }, 15_000, 300);
  await page.locator('#decision button').first().waitFor();
  await audit(page, 'game');
  await shot(page, 'game-a11y');
});

check('Neuroshima Hex: lobby and game (its HQ about to be placed) have no serious or critical accessibility violations', async () => {
  const { page } = who;
  await page.goto(URL);
  await page.locator('form#create select[name=kind] option[value=neuroshima]').waitFor({ state: 'attached' });
  await page.selectOption('form#create select[name=kind]', 'neuroshima');
  await page.fill('form#create [name=name]', 'Ada');
  await page.locator('form#create button[type=submit]').click();
  await page.locator('#lobby').waitFor({ state: 'visible' });
  await waitForState(page, 'connected');
  await page.click('#nsh-armies button[data-army=ddm]');
  await page.click('button[data-bot-seat="1"]');
  await until('the bot seated', async () => /Bot/.test(await page.locator('#seats tr[data-seat="1"]').innerText()));
  await audit(page, 'neuroshima lobby');
  await page.click('#ready');
  await until('the game to start', async () => {
    if (await page.locator('#board .nsh-hex').count()) return true;
    await page.click('#start').catch(() => {});
    return (await page.locator('#board .nsh-hex').count()) > 0;
  }, 15_000, 300);
  // The HQ chosen on a hex: the pending tile, the turn buttons and the confirm button are shown.
  await page.click('#board .nsh-hex.nsh-target');
  await page.locator('#nsh-confirm').waitFor();
  await audit(page, 'neuroshima game');
  await shot(page, 'neuroshima-a11y');
});
