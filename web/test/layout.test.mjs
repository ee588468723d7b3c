// The explorer's layout, both games' views, at the widths a designer opens it at, from a
// phone (390 px, the controls stacked above the results) to a wide screen (1920 px): with
// every number on the page (the widest tables drawn), no control of the rules and strategies
// panel lies on the results, none leaves its panel, and nothing makes the page scroll
// sideways.
//
// Environment: as explorer.test.mjs (RAVEN_EXPLORER, CHROMIUM, CARGO_TARGET_DIR).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const target = path.resolve(root, process.env.CARGO_TARGET_DIR || 'target');
const page_file = path.resolve(process.env.RAVEN_EXPLORER || path.join(target, 'raven-explorer.html'));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const url = pathToFileURL(page_file).href;

const WIDTHS = [390, 1280, 1400, 1920];

let browser;
let page;

before(async () => {
  browser = await puppeteer.launch({ executablePath: chromium, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
});

after(async () => {
  if (browser) await browser.close();
});

async function waitDone() {
  await page.waitForFunction(() => {
    const t = window.ravenTimings.filter((x) => x.kind === 'curves' || x.kind === 'sweep');
    const last = t[t.length - 1];
    return last && last.done !== null && document.body.dataset.state === 'done';
  }, { timeout: 240000, polling: 100 });
}

// The boxes at the current width: each control of the panel that overlaps a box of the
// shown results, each control that leaves the panel, and the page's scroll width.
async function faults() {
  return page.evaluate(() => {
    const visible = (e) => {
      const r = e.getBoundingClientRect();
      if (!e.checkVisibility()) return null;
      return r.width > 0 && r.height > 0 ? r : null;
    };
    const name = (e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.split(' ').join('.')}` : ''} '${(e.textContent || e.value || '').trim().slice(0, 30)}'`;
    const panel = document.getElementById('controls');
    const box = panel.getBoundingClientRect();
    const controls = [...panel.querySelectorAll('input, select, button, label, textarea, summary, legend')]
      .map((e) => [e, visible(e)]).filter(([, r]) => r);
    const results = [...document.querySelectorAll('main > section:not([hidden])')]
      .flatMap((s) => [s, ...s.querySelectorAll('*')]).map((e) => [e, visible(e)]).filter(([, r]) => r);
    const overlaps = [];
    for (const [c, a] of controls) {
      for (const [r, b] of results) {
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 0.5 && h > 0.5) {
          overlaps.push(`${name(c)} on ${name(r)}`);
          break;
        }
      }
    }
    const outside = controls.filter(([, a]) => a.left < box.left - 0.5 || a.right > box.right + 0.5).map(([c]) => name(c));
    return { overlaps, outside, scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth };
  });
}

async function checkWidths(label) {
  for (const width of WIDTHS) {
    await page.setViewport({ width, height: 900 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const f = await faults();
    assert.deepEqual(f.overlaps, [], `${label} at ${width} px: controls on the results`);
    assert.deepEqual(f.outside, [], `${label} at ${width} px: controls outside their panel`);
    assert.ok(f.scrollWidth <= f.innerWidth, `${label} at ${width} px: the page is ${f.scrollWidth} px wide`);
  }
}

test('no control lies on the results, from 390 to 1920 px wide', async () => {
  await page.setViewport({ width: 1400, height: 900 });
  await page.goto(url);
  await waitDone();
  await checkWidths('curves');
});

test('a changed design, more strategies and their changes keep off the controls too', async () => {
  await page.goto('about:blank');
  await page.goto(`${url}#discovered-penalty=2&side-challenges=1&strategy=tuned&strategy=medic-main&strategy=side-maximiser&strategy=no-first-aid`);
  await waitDone();
  // The change against the printed game beside each headline number, computed last.
  await page.waitForFunction(() => {
    const d = [...document.querySelectorAll('#headline .delta')];
    return d.length && d.every((x) => x.textContent !== '…');
  }, { timeout: 240000, polling: 100 });
  await checkWidths('changed design');
});

test('the sweep keeps its controls off its chart at every width', async () => {
  await page.goto('about:blank');
  await page.goto(`${url}#mode=sweep&param=run-challenges=3..5&param=threshold=4..5&stealth=8,10`);
  await waitDone();
  await checkWidths('sweep');
});

test('the Annulus view, its strategy file box open, keeps its controls off its results', async () => {
  await page.goto('about:blank');
  await page.goto(`${url}#game=annulus&wrap=yes&strategy=planner&strategy=naive&strategy=closest-first`);
  await waitDone();
  await page.evaluate(() => { document.getElementById('a-add-strategy').open = true; });
  await checkWidths('annulus');
});

test('the Annulus sweep keeps its controls off its chart at every width', async () => {
  await page.goto('about:blank');
  await page.goto(`${url}#game=annulus&mode=sweep&param=target=2..12&players=1,2`);
  await waitDone();
  await checkWidths('annulus sweep');
});
