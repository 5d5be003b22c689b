// Issue 23 parts 1–3 end to end on the release build: `?lesson=ID` opens a lesson beside the
// playground; a prediction is answered, its `run:` lines play, and only then is the answer
// revealed; a task's live check turns green when the learner's own command makes it hold;
// progress survives a reload without touching the saved session; an unknown id is explained;
// an embedded lesson tells its host page which step is shown and when the check holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { BASE_URL, launchBrowser, openPage } from './support/browser.mjs';

const LESSON = 'bad-rollout-undo';
const DOCS = new URL('../../docs/', import.meta.url).pathname;
const SHOTS = new URL('./screenshots/', import.meta.url).pathname;

let browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The DaemonSet's counters as `desired/current/ready/up-to-date/available`. */
async function counters(page, ds) {
  const row = page.locator(`.counters tbody tr[data-ds="${ds}"]`);
  const cols = ['desired', 'current', 'ready', 'up-to-date', 'available'];
  const cells = await Promise.all(cols.map((c) => row.locator(`[data-col="${c}"]`).textContent()));
  return cells.join('/');
}

/** Starts the transport unless it is playing already (a reveal starts it). */
async function play(page) {
  const button = page.getByRole('button', { name: 'Play', exact: true });
  if (await button.isVisible()) await button.click();
}

async function run(page, command) {
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const prompt = page.getByLabel('kubectl command');
  await prompt.fill(command);
  await prompt.press('Enter');
}

test('predict, watch the reveal play, then do the task until its live check holds', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lesson=${LESSON}&speed=64`);
  const pane = page.getByTestId('lesson');
  await pane.waitFor({ timeout: 30_000 });
  assert.equal((await page.getByTestId('lesson-count').textContent()).trim(), 'Step 1 of 3');
  assert.equal(await pane.getByRole('heading', { level: 3 }).textContent(), 'Version 2 is broken');
  const next = pane.getByRole('button', { name: 'Next ›' });
  const reveal = pane.getByRole('button', { name: 'Reveal' });
  assert.ok(await next.isDisabled(), 'Next waits for an answer');
  assert.ok(await reveal.isDisabled(), 'Reveal waits for a choice');
  // The scenario's own script (apply v1, rollout status) plays first.
  await page.getByRole('button', { name: 'Play' }).click();
  await page.waitForFunction(
    () => document.querySelector('.counters tr[data-ds="agent"] [data-col="available"]')?.textContent === '4',
    null,
    { timeout: 30_000 },
  );
  await pane.getByLabel('1: the rollout stops after the first node').check();
  await mkdir(DOCS, { recursive: true });
  await page.screenshot({ path: `${DOCS}lesson-step.png` });
  await reveal.click();
  // Nothing is revealed while the step's run lines (apply v2, sleep 60s) still play.
  await pane.getByTestId('lesson-playing').waitFor({ timeout: 5_000 });
  assert.equal(await pane.getByTestId('lesson-feedback').count(), 0);
  assert.ok(await pane.getByRole('radio').first().isDisabled(), 'an answer is final');
  const feedback = pane.getByTestId('lesson-feedback');
  await feedback.waitFor({ timeout: 60_000 });
  assert.match(await feedback.textContent(), /^Right\./);
  assert.match(await feedback.textContent(), /CrashLoopBackOff/);
  // What the reveal said is what the cluster shows: the rollout stopped after one node.
  assert.equal(await counters(page, 'agent'), '4/4/3/1/3');
  // The pane and, under it, the counters and the stuck wave the explanation speaks of.
  const top = await pane.boundingBox();
  const wave = await page.locator('.counters').first().boundingBox();
  await page.setViewportSize({ width: 1280, height: Math.ceil(wave.y + wave.height + 60) });
  await page.screenshot({
    path: `${DOCS}lesson-reveal.png`,
    clip: { x: 0, y: top.y - 12, width: 1280, height: wave.y + wave.height + 48 - top.y },
  });
  await page.setViewportSize({ width: 1280, height: 800 });

  await next.click();
  assert.equal((await page.getByTestId('lesson-count').textContent()).trim(), 'Step 2 of 3');
  assert.equal(
    await page.evaluate(() => document.activeElement?.id),
    'lesson-step-title',
    'focus moves to the new step',
  );
  const check = pane.getByTestId('lesson-check');
  assert.equal(await check.locator('li').count(), 2);
  assert.deepEqual(await check.locator('li').evaluateAll((ls) => ls.map((l) => l.dataset.state)), [
    'pending',
    'pending',
  ]);
  assert.match(await check.locator('li').first().textContent(), /now: 4\/4\/3\/1\/3/);
  assert.ok(await next.isDisabled(), 'Next waits for the check');
  // A share link keeps the lesson and its step: a fresh browser opens it at step 2.
  await page.getByRole('button', { name: 'Share link' }).click();
  const link = await page.getByRole('textbox', { name: 'Share link' }).inputValue();
  await page.keyboard.press('Escape');
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const friend = await other.newPage();
  await friend.goto(link);
  await friend.getByTestId('lesson').waitFor({ timeout: 30_000 });
  assert.equal((await friend.getByTestId('lesson-count').textContent()).trim(), 'Step 2 of 3');
  assert.equal(await counters(friend, 'agent'), '4/4/3/1/3');
  assert.equal(await friend.evaluate(() => localStorage.length), 0, 'a shared lesson saves nothing');
  await other.close();

  await pane.getByRole('button', { name: 'Show a hint' }).click();
  assert.match(await pane.locator('.hint').textContent(), /kubectl rollout undo ds\/agent/);

  await run(page, 'kubectl rollout undo ds/agent');
  await play(page);
  await page.waitForFunction(
    () => document.querySelector('[data-testid="lesson-status"]')?.textContent.includes('Done'),
    null,
    { timeout: 60_000 },
  );
  assert.deepEqual(await check.locator('li').evaluateAll((ls) => ls.map((l) => l.dataset.state)), [
    'holds',
    'holds',
  ]);
  assert.equal(await counters(page, 'agent'), '4/4/4/4/4');
  assert.ok(await next.isEnabled());
  await next.click();
  assert.equal((await page.getByTestId('lesson-count').textContent()).trim(), 'Step 3 of 3');

  // A wrong answer is told so, with the right one, after its check line has run.
  await pane.getByLabel('3', { exact: true }).check();
  await reveal.click();
  await feedback.waitFor({ timeout: 30_000 });
  assert.match(await feedback.textContent(), /^Not quite\. The answer is “0”\./);
  assert.match(await pane.locator('.lesson-nav').textContent(), /Lesson complete\./);
  assert.deepEqual(problems, []);
});

test('progress survives a reload and never touches the saved session', async () => {
  const { page, problems } = await openPage(browser);
  // A session of the learner's own, saved by the playground.
  await page.goto(`${BASE_URL}?preset=f4-rolling-update-max-unavailable-1`);
  await page.getByRole('button', { name: 'Play' }).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => localStorage.getItem('dsplay.autosave') !== null);
  const saved = await page.evaluate(() => localStorage.getItem('dsplay.autosave'));

  await page.goto(`${BASE_URL}?lesson=${LESSON}&speed=64`);
  const pane = page.getByTestId('lesson');
  await pane.waitFor({ timeout: 30_000 });
  await pane.getByLabel('0: the API server refuses the update').check();
  await pane.getByRole('button', { name: 'Reveal' }).click();
  await pane.getByTestId('lesson-feedback').waitFor({ timeout: 60_000 });
  await page.waitForFunction((id) => localStorage.getItem(`dsplay.lesson.${id}`) !== null, LESSON);
  const t = Number(await page.getByLabel('Timeline').inputValue());

  await page.reload();
  await pane.waitFor({ timeout: 30_000 });
  assert.equal((await page.getByTestId('lesson-count').textContent()).trim(), 'Step 1 of 3');
  assert.ok(await pane.getByLabel('0: the API server refuses the update').isChecked());
  assert.match(await pane.getByTestId('lesson-feedback').textContent(), /^Not quite\./);
  assert.ok(await pane.getByRole('button', { name: 'Next ›' }).isEnabled());
  assert.equal(await counters(page, 'agent'), '4/4/3/1/3');
  assert.ok(Number(await page.getByLabel('Timeline').inputValue()) >= Math.floor(t));
  assert.equal(await page.evaluate(() => localStorage.getItem('dsplay.autosave')), saved);
  assert.deepEqual(problems, []);
});

test('an unknown lesson id is explained with the nearest one, and nothing is opened', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(`${BASE_URL}?lesson=max-surg`);
  const error = page.getByTestId('lesson-error');
  await error.waitFor({ timeout: 30_000 });
  assert.match(await error.textContent(), /There is no lesson “max-surg”\./);
  assert.match(await error.textContent(), /did you mean `lesson=max-surge`\?/);
  assert.equal(await page.locator('.lesson-list li').count(), 8);
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  assert.deepEqual(problems, []);
});

test('the Lessons menu opens a lesson from the playground', async () => {
  const { page, problems } = await openPage(browser);
  await page.goto(BASE_URL);
  await page.getByLabel('Lesson', { exact: true }).waitFor({ timeout: 30_000 });
  const options = await page.getByLabel('Lesson', { exact: true }).locator('option').allTextContents();
  assert.equal(options.length, 9, options.join(' | '));
  await page.getByLabel('Lesson', { exact: true }).selectOption('max-surge');
  await page.getByTestId('lesson').waitFor({ timeout: 30_000 });
  assert.match(page.url(), /\?lesson=max-surge$/);
  assert.deepEqual(problems, []);
});

test('an embedded lesson posts dsplay:step and dsplay:check to its host', async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  const url = new URL('e2e-lesson-host.html', BASE_URL).href;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>host</title><iframe sandbox="allow-scripts" width="1060" height="860"
        src="./?embed=1&lesson=${LESSON}&speed=64"></iframe>`,
    }),
  );
  await page.addInitScript(() => {
    window.received = [];
    addEventListener('message', (e) => {
      if (e.source === document.querySelector('iframe')?.contentWindow) window.received.push(e.data);
    });
  });
  await page.goto(url);
  const lessonMessages = () =>
    page.evaluate(() => window.received.filter((m) => m?.type === 'dsplay:step' || m?.type === 'dsplay:check'));
  const frame = page.frameLocator('iframe');
  const pane = frame.getByTestId('lesson');
  await pane.waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:step'));
  assert.deepEqual((await lessonMessages())[0], { type: 'dsplay:step', lesson: LESSON, step: 1, of: 3 });
  await frame.getByRole('button', { name: 'Play' }).click();
  await pane.getByLabel('1: the rollout stops after the first node').check();
  await pane.getByRole('button', { name: 'Reveal' }).click();
  await pane.getByTestId('lesson-feedback').waitFor({ timeout: 60_000 });
  await pane.getByRole('button', { name: 'Next ›' }).click();
  await page.waitForFunction(() => window.received.some((m) => m?.type === 'dsplay:check'));
  const got = await lessonMessages();
  assert.deepEqual(got.at(-2), { type: 'dsplay:step', lesson: LESSON, step: 2, of: 3 });
  assert.deepEqual(got.at(-1), { type: 'dsplay:check', lesson: LESSON, step: 2, holds: false });
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}lesson-embed.png` });
  assert.deepEqual(problems, []);
  await context.close();
});
