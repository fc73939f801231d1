// Mneme's page in real headless Chromium: chat with a streamed reply, `remember …`, the memory
// in the console, forgetting it, and the conversation coming back after a reload.
// Run by tests/web_browser.rs against a real `mneme start`; by hand:
//   MNEME_URL=http://127.0.0.1:10961 MNEME_EXPECT_REPLY='…' node tests/browser/chat.mjs
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const base = process.env.MNEME_URL;
const expected = process.env.MNEME_EXPECT_REPLY;
if (!base || !expected) {
  console.error('set MNEME_URL (the running mneme) and MNEME_EXPECT_REPLY (the fake model\'s full reply)');
  process.exit(2);
}
const TIMEOUT = 20_000;
const step = (what) => console.log('step: ' + what);

// The flags that work on a machine without network: no background connections, no GPU,
// no sandbox (tests run as root), a fresh profile.
const profile = mkdtempSync(join(tmpdir(), 'mneme-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.MNEME_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  timeout: TIMEOUT,
});
const problems = [];
let failed = false;
try {
  const page = context.pages()[0] || await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
  page.on('dialog', (d) => d.accept());

  step('open the page');
  await page.goto(base);
  await page.waitForFunction(() => document.getElementById('chat-title').textContent.startsWith('web:'));
  const chat = await page.textContent('#chat-title');

  step('send a message and watch the reply stream in');
  await page.fill('#message-input', 'hello from the browser');
  await page.press('#message-input', 'Enter');
  await page.waitForSelector('.msg.user >> text=hello from the browser');
  const partial = await page.waitForFunction(() => {
    const b = document.querySelector('.msg.bot');
    return b && b.dataset.state === 'streaming' && Number(b.dataset.deltas) >= 1 && b.textContent;
  });
  const partialText = await partial.jsonValue();
  await page.waitForSelector('.msg.bot[data-state="done"]');
  const reply = page.locator('.msg.bot').first();
  const finalText = await reply.textContent();
  const deltas = Number(await reply.getAttribute('data-deltas'));
  const plainExpected = expected.replace(/\*\*/g, '');
  if (finalText !== plainExpected) throw new Error(`reply shown as ${JSON.stringify(finalText)}, expected ${JSON.stringify(plainExpected)}`);
  if (!(partialText.length < expected.length && expected.startsWith(partialText))) {
    throw new Error(`no partial reply seen while streaming (first seen: ${JSON.stringify(partialText)})`);
  }
  if (deltas < 2) throw new Error(`expected several streamed pieces, got ${deltas}`);
  if (await reply.locator('strong').count() !== 1) throw new Error('**bold** was not rendered');
  if (await reply.locator('b, img, script').count() !== 0) throw new Error('raw HTML from the model became elements');

  if (process.env.MNEME_SCREENSHOT) await page.screenshot({ path: process.env.MNEME_SCREENSHOT.replace(/\.png$/, '-chat.png') });

  step('remember a fact');
  await page.fill('#message-input', 'remember I prefer green tea');
  await page.click('#send');
  const saved = page.locator('.msg.bot[data-state="done"]').nth(1);
  await saved.waitFor();
  const savedText = await saved.textContent();
  const id = (savedText.match(/^Noted\. Saved memory #(\d+): I prefer green tea$/) || [])[1];
  if (!id) throw new Error('unexpected answer to remember: ' + savedText);

  step(`see memory #${id} in the console`);
  await page.click('#tab-memory');
  const row = page.locator(`.memory-row[data-id="${id}"]`);
  await row.waitFor();
  const rowText = await row.textContent();
  if (!rowText.includes('I prefer green tea') || !rowText.includes(chat)) throw new Error('memory row shows: ' + rowText);
  await page.waitForSelector('#cards .card');

  if (process.env.MNEME_SCREENSHOT) await page.screenshot({ path: process.env.MNEME_SCREENSHOT, fullPage: true });

  step(`forget memory #${id}`);
  await row.locator('button.forget').click();
  await row.waitFor({ state: 'detached' });
  const noteText = await page.textContent('#memory-note');
  if (noteText !== `Forgot memory #${id}.`) throw new Error('after forgetting, the note says: ' + noteText);
  await page.click('#refresh');
  await page.waitForSelector('#memory-empty:not([hidden])');

  step('reload: the conversation comes back');
  await page.reload();
  await page.waitForFunction((c) => document.getElementById('chat-title').textContent === c, chat);
  await page.waitForFunction(() => document.querySelectorAll('#messages .msg').length === 4);
  const shown = await page.locator('#messages .msg').allTextContents();
  if (shown[0] !== 'hello from the browser' || shown[1] !== plainExpected) throw new Error('history shows: ' + JSON.stringify(shown));

  if (problems.length) throw new Error(problems.join('\n'));
  console.log('browser: all steps passed');
} catch (e) {
  failed = true;
  console.error('browser test failed: ' + (e && e.stack || e));
  if (problems.length) console.error(problems.join('\n'));
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
