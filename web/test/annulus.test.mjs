// The explorer's Annulus view in a real browser (headless Chromium, puppeteer-core): its
// numbers against the command line's (`raven --game annulus solve`, `exact` and `explore`,
// `--out -`) to 1e-12, after a rule change too, and its CSV exports byte for byte; the link
// round-trips; bad input is named; switching back to Purple Raven shows its numbers as the
// command line gives them.
//
// Environment: as explorer.test.mjs (RAVEN_EXPLORER, RAVEN_BIN, CHROMIUM, CARGO_TARGET_DIR).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const target = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const page_file = path.resolve(process.env.RAVEN_EXPLORER || path.join(target, 'raven-explorer.html'));
const raven = path.resolve(process.env.RAVEN_BIN || path.join(target, 'release', 'raven'));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const out = path.join(target, 'explorer-test');
const downloads = path.join(out, 'annulus-downloads');
const url = pathToFileURL(page_file).href;

let browser;
let page;

before(async () => {
  fs.mkdirSync(downloads, { recursive: true });
  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.setViewport({ width: 1400, height: 1000 });
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  page.on('pageerror', (e) => console.error('page error:', e.message));
});

after(async () => {
  if (browser) await browser.close();
});

// `raven --game annulus COMMAND … --out -`: its CSV text.
function cli(command, args) {
  return execFileSync(raven, ['--game', 'annulus', command, '--threads', '1', '-q', '--out', '-', ...args], { encoding: 'utf8' });
}

// A CSV's rows as objects by column name.
function rows(csv) {
  const [header, ...lines] = csv.trim().split('\n');
  const cols = header.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((f, i) => [cols[i], f])));
}

// The last computation finished (not computing any more); `job` the least job number.
async function waitDone(job = 0) {
  await page.waitForFunction((j) => {
    const t = window.ravenTimings.filter((x) => x.kind === 'curves' || x.kind === 'sweep');
    const last = t[t.length - 1];
    return last && last.job > j && last.done !== null && document.body.dataset.state !== 'computing';
  }, { timeout: 300000, polling: 50 }, job);
}

async function lastJob() {
  return page.evaluate(() => (window.ravenTimings.length ? window.ravenTimings[window.ravenTimings.length - 1].job : 0));
}

async function open(hash) {
  await page.goto('about:blank');
  await page.goto(`${url}${hash}`);
  await waitDone();
}

// The visible value cells under `selector`.
async function cells(selector) {
  return page.$$eval(`${selector} [data-value]`, (xs) => xs.filter((x) => x.checkVisibility()).map((x) => ({
    method: x.dataset.method, strategy: x.dataset.strategy, players: x.dataset.players, point: x.dataset.point, value: Number(x.dataset.value),
  })));
}

// The page's table of every number against the command line's rows (`success_rate` by
// method, strategy and players): each the same to 1e-12, and none missing.
function sameAs(got, expected, label) {
  assert.equal(got.length, expected.length, `${label}: every number shown`);
  for (const r of expected) {
    const c = got.find((x) => x.method === r.method && x.strategy === r.strategy && x.players === r.players);
    assert.ok(c, `${label}: ${r.method} ${r.strategy} ${r.players} players is not on the page`);
    assert.ok(Math.abs(c.value - Number(r.success_rate)) <= 1e-12, `${label}: ${r.strategy} at ${r.players}: page ${c.value}, CLI ${r.success_rate}`);
  }
}

// The file the CSV button downloads, once its bytes have settled.
async function downloaded(name) {
  const file = path.join(downloads, name);
  fs.rmSync(file, { force: true });
  await page.click('#export-csv');
  let last = -1;
  for (let i = 0; i < 200; i++) {
    const size = fs.existsSync(file) ? fs.statSync(file).size : -1;
    if (size > 0 && size === last) break;
    last = size;
    await new Promise((r) => setTimeout(r, 100));
  }
  return fs.readFileSync(file, 'utf8');
}

async function shownError(id) {
  return page.$eval(`#${id}`, (e) => (e.hidden ? '' : e.textContent));
}

test('the Annulus view: success against players as raven --game annulus solve and exact give it', async () => {
  await open('#game=annulus');
  assert.equal(await page.$eval('#game', (e) => e.value), 'annulus');
  assert.equal(await page.$eval('#curves-view', (e) => e.hidden), true, "Purple Raven's view is hidden");
  // Shown by default: optimal play, planner and naive at 1, 2 and 3 players.
  const shown = await cells('#a-values');
  sameAs(shown, rows(cli('solve', ['--players', '1,2,3', '--strategy', 'planner,naive'])), 'solve');
  // The strategies evaluated alone, as `exact` does, are the same numbers.
  const exact = rows(cli('exact', ['--players', '1,2,3', '--strategy', 'naive']));
  sameAs(shown.filter((c) => c.strategy === 'naive'), exact, 'exact');
  // The sentence: each method at 2 players, the table's numbers.
  const sentence = await cells('#a-answer');
  assert.deepEqual(sentence.map((c) => c.strategy), ['optimal', 'planner', 'naive']);
  for (const c of sentence) {
    assert.equal(c.players, '2');
    assert.equal(c.value, shown.find((x) => x.strategy === c.strategy && x.players === '2').value);
  }
  const text = await page.$eval('#a-answer', (e) => e.textContent);
  assert.match(text, /^Under normal with 2 players, optimal play succeeds \d+\.\d%, planner \d+\.\d% and naive \d+\.\d%\.$/);
  // The CSV export is the command line's, byte for byte.
  assert.equal(await downloaded('raven-annulus-solve.csv'), cli('solve', ['--players', '1,2,3', '--strategy', 'planner,naive']));
  await page.screenshot({ path: path.join(out, 'annulus.png'), fullPage: true });
});

test('a rule change gives the command line numbers for that design', async () => {
  // The page from before: the preset chosen as a reader chooses it.
  const job = await lastJob();
  await page.select('#a-preset', 'advanced');
  await waitDone(job);
  assert.match(await page.evaluate(() => location.hash), /^#game=annulus&preset=advanced&/);
  sameAs(await cells('#a-values'), rows(cli('solve', ['--players', '1,2,3', '--rules', 'advanced', '--strategy', 'planner,naive'])), 'advanced');
  assert.match(await page.$eval('#a-answer', (e) => e.textContent), /^Under advanced with 2 players/);
});

test('a sweep link round-trips and gives raven --game annulus explore its numbers and CSV', async () => {
  const hash = '#game=annulus&mode=sweep&preset=advanced&wrap=yes&strategy=naive&param=target=5..8&players=1,2';
  await open(hash);
  assert.equal(await page.evaluate(() => location.hash), hash, 'the link the page writes is the one it read');
  assert.equal(await page.$eval('#a-preset', (e) => e.value), 'advanced');
  assert.equal(await page.$eval('#a-rule-wrap-yes', (e) => e.checked), true);
  assert.equal(await page.$eval('#a-strategy-naive', (e) => e.checked), true);
  assert.equal(await page.$eval('#a-strategy-planner', (e) => e.checked), false);
  const csv = cli('explore', ['--rules', 'advanced', '--rule', 'wrap=yes', '--param', 'target=5..8', '--players', '1,2', '--strategy', 'naive']);
  const expected = rows(csv);
  const got = await cells('#a-sweep-values');
  assert.equal(got.length, expected.length, 'every point shown');
  for (const r of expected) {
    const c = got.find((x) => x.point === `target=${r.value}` && x.players === r.players && x.strategy === r.strategy);
    assert.ok(c, `target=${r.value} ${r.players} ${r.strategy}`);
    assert.equal(c.method, r.strategy === 'optimal' ? 'optimal' : 'exact');
    assert.ok(Math.abs(c.value - Number(r.success)) <= 1e-12, `target=${r.value}: page ${c.value}, CLI ${r.success}`);
  }
  // The CSV export is the command line's, byte for byte.
  assert.equal(await downloaded('raven-annulus-explore.csv'), csv);
  // A reload of the link the page wrote restores the same view.
  await page.reload();
  await waitDone();
  assert.equal(await page.evaluate(() => location.hash), hash);
  assert.equal((await cells('#a-sweep-values')).length, expected.length);
  // A key by keyboard: hidden-faces one step up from the preset's 1.
  const job = await lastJob();
  await page.focus('#a-rule-hidden-faces');
  await page.keyboard.press('ArrowRight');
  await waitDone(job);
  assert.match(await page.evaluate(() => location.hash), /&hidden-faces=2&/);
  const changed = rows(cli('explore', ['--rules', 'advanced', '--rule', 'wrap=yes', '--rule', 'hidden-faces=2', '--param', 'target=5..8', '--players', '1,2', '--strategy', 'naive']));
  const now = await cells('#a-sweep-values');
  assert.equal(now.length, changed.length);
  for (const r of changed) {
    const c = now.find((x) => x.point === `target=${r.value}` && x.players === r.players && x.strategy === r.strategy);
    assert.ok(Math.abs(c.value - Number(r.success)) <= 1e-12, `hidden-faces=2 target=${r.value}: page ${c.value}, CLI ${r.success}`);
  }
});

test('bad rules, 4 players and a bad strategy file are named', async () => {
  await open('#game=annulus&target=13&strategy=none');
  assert.equal(await shownError('a-rules-error'), "Annulus rule 'target' cannot be '13' (allowed: 2..=12)");
  assert.equal(await page.$eval('#a-params .a-setting[data-key="target"]', (e) => e.classList.contains('invalid')), true);
  assert.equal((await cells('#a-values')).length, 0);
  await open('#game=annulus&mode=sweep&strategy=none&param=target=4..5&players=4');
  assert.match(await shownError('a-sweep-error'), /^4 players is too large for the page/);
  await open('#game=annulus&mode=sweep&strategy=none&param=target=4..5&players=1');
  const job = await lastJob();
  await page.click('#a-add-strategy summary');
  await page.$eval('#a-strategy-text', (e) => { e.value = 'game = "annulus"\naim = = 1\n'; });
  await page.click('#a-strategy-add');
  await waitDone(job);
  assert.match(await shownError('a-strategy-error'), /^mine\.toml:2:/);
  // A file may not take a bundled strategy's name.
  await page.$eval('#a-strategy-name', (e) => { e.value = 'planner'; });
  await page.click('#a-strategy-add');
  assert.match(await shownError('a-strategy-error'), /^'planner' is the name of a strategy of the page/);
});

test('switching back to Purple Raven shows its numbers as before', async () => {
  await open('#game=annulus&mode=sweep&strategy=none&param=target=4..5&players=1');
  const job = await lastJob();
  await page.select('#game', 'purple-raven');
  assert.equal(await page.$eval('#annulus-sweep-view', (e) => e.hidden), true);
  assert.equal(await page.$eval('#sweep-view', (e) => e.hidden), false, "the mode stays: Purple Raven's sweep");
  await page.click('#mode-curves');
  await waitDone(job);
  const hash = await page.evaluate(() => location.hash);
  assert.ok(!hash.includes('game='), `Purple Raven's link has no game: ${hash}`);
  const expected = execFileSync(raven, ['solve', '--stealth', '0..=16', '--threads', '1', '-q', '--out', '-', '--strategy', 'reference', '--strategy', 'tuned'], { encoding: 'utf8' });
  const want = new Map(rows(expected).map((r) => [`${r.method}|${r.strategy}|${r.stealth}`, Number(r.win_rate)]));
  const got = await page.$$eval('#values [data-value]', (xs) => xs.map((x) => [`${x.dataset.method}|${x.dataset.strategy}|${x.dataset.stealth}`, Number(x.dataset.value)]));
  assert.equal(got.length, want.size);
  for (const [k, v] of got) assert.ok(Math.abs(v - want.get(k)) <= 1e-12, `${k}: page ${v}, CLI ${want.get(k)}`);
  // An unknown game is named, and Purple Raven shown.
  await open('#game=tetris&strategy=none');
  assert.match(await shownError('game-error'), /game=tetris is not a game of the page/);
  assert.equal(await page.$eval('#curves-view', (e) => e.hidden), false);
  // `game=purple-raven` is accepted and is Purple Raven's view.
  await open('#game=purple-raven&strategy=none');
  assert.equal(await shownError('game-error'), '');
  assert.equal(await page.$eval('#game', (e) => e.value), 'purple-raven');
  assert.equal(await page.$eval('#curves-view', (e) => e.hidden), false);
});

// The figures of "Is it a good game?" once the computation after job `job` is done.
async function qualityCells(job) {
  await page.waitForFunction((j) => {
    const t = document.querySelector('#a-quality');
    return Number(t.dataset.job) > j && t.dataset.state === 'done';
  }, { timeout: 300000, polling: 100 }, job);
  return page.$$eval('#a-quality td[data-figure]', (tds) => tds.map((td) => ({ ...td.dataset })));
}

// Every figure of every strategy shown, at 2 players, each the command line's to its twelve
// significant digits, every one marked exact.
function sameQuality(cells, expected, label) {
  const figures = [...new Set(cells.map((c) => c.figure))];
  assert.equal(figures.length, 10, `${label}: ten figures`);
  assert.equal(cells.length, figures.length * expected.length, `${label}: every strategy's figures`);
  for (const r of expected) {
    for (const figure of figures) {
      const c = cells.find((x) => x.strategy === r.strategy && x.figure === figure);
      assert.ok(c && c.value !== undefined, `${label}: ${r.strategy} ${figure} shown`);
      assert.equal(c.players, '2');
      assert.equal(c.method, 'exact', `${label}: ${figure}'s method`);
      assert.equal(Number(Number(c.value).toPrecision(12)), Number(r[figure]), `${label}: ${r.strategy} ${figure}: page ${c.value}, CLI ${r[figure]}`);
    }
  }
}

test('"Is it a good game?" with 2 players gives raven --game annulus quality\'s figures, after a rule change too', async () => {
  await open('#game=annulus');
  const quality = (args) => rows(cli('quality', ['--players', '2', '--strategy', 'optimal,planner,naive', ...args]));
  const normal = await qualityCells(0);
  sameQuality(normal, quality([]), 'normal');
  assert.match(await page.$eval('#a-quality-title', (e) => e.textContent), /With 2 players/);
  // One challenge of planner with 2 players, as the chance saw it: it adds up to its result.
  const ledger = Object.fromEntries(await page.$$eval('#a-ledger-text [data-figure]', (xs) => xs.map((x) => [x.dataset.figure, Number(x.dataset.value)])));
  const won = /: won\.$/.test(await page.$eval('#a-ledger-text', (e) => e.textContent));
  assert.ok(Math.abs(ledger.start + ledger.luck + ledger.skill - (won ? 1 : 0)) < 1e-12, JSON.stringify(ledger));
  assert.equal(await page.$eval('#a-ledger svg', (e) => e.dataset.strategy), 'planner');
  // As `raven --game annulus play` plays and sums the same challenge, to its printed digit.
  const played = execFileSync(raven, ['--game', 'annulus', 'play', '--strategy', 'planner', '--players', '2'], { encoding: 'utf8' });
  const printedAs = (re) => Number(re.exec(played)[1]);
  assert.equal(Number((100 * ledger.start).toFixed(1)), printedAs(/at the start\s+(-?[\d.]+)/));
  assert.equal(Number((100 * ledger.luck).toFixed(1)), printedAs(/\n\s+luck\s+([+-][\d.]+)/));
  assert.equal(Number((100 * ledger.skill).toFixed(1)), printedAs(/\n\s+decisions\s+([+-][\d.]+)/));
  assert.equal(won, /\nSUCCESS/.test(played));
  const job = await page.evaluate(() => Number(document.querySelector('#a-quality').dataset.job));
  await page.select('#a-preset', 'advanced');
  const advanced = await qualityCells(job);
  sameQuality(advanced, quality(['--rules', 'advanced']), 'advanced');
  const moved = advanced.filter((c) => normal.find((p) => p.strategy === c.strategy && p.figure === c.figure).value !== c.value);
  assert.ok(moved.length > advanced.length / 2, `${moved.length} of ${advanced.length} figures moved`);
});
