// The explorer's time to its first numbers, as a designer meets it: the page opened afresh
// (navigation to optimal play and the reference at stealth 10), then one control changed
// (`run-challenges=5` through the link), each page RUNS times in headless Chromium; prints
// every time and the medians, in milliseconds. Timings depend on what else the machine runs:
// compare pages in one run (they alternate load by load).
//
//   node web/bench.mjs [PAGE.html ...]     (default: $CARGO_TARGET_DIR or target/raven-explorer.html)
//
// Environment: RUNS (default 5), CHROMIUM (default /usr/bin/chromium).

import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import puppeteer from 'puppeteer-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pages = process.argv.slice(2);
if (!pages.length) pages.push(path.join(path.resolve(root, process.env.CARGO_TARGET_DIR || 'target'), 'raven-explorer.html'));
const runs = Number(process.env.RUNS || 5);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
const times = Object.fromEntries(pages.map((p) => [p, { load: [], change: [], curves: [] }]));
for (let run = 0; run < runs; run++) {
  for (const file of pages) {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path.resolve(file)).href);
    const done = (n) => page.waitForFunction((n) => {
      const t = window.ravenTimings.filter((x) => x.kind === 'curves');
      return t.length >= n && t[n - 1].done !== null;
    }, { timeout: 240000, polling: 20 }, n);
    await done(1);
    await page.evaluate(() => { location.hash = '#run-challenges=5'; });
    await done(2);
    const [load, change] = await page.evaluate(() => window.ravenTimings.filter((x) => x.kind === 'curves'));
    times[file].load.push(Math.round(load.first));
    times[file].change.push(Math.round(change.first - change.started));
    times[file].curves.push(Math.round(change.curves - change.started));
    await page.close();
  }
}
await browser.close();
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
for (const file of pages) {
  const t = times[file];
  console.log(`${file}\n  page load to first numbers: median ${median(t.load)} ms  ${JSON.stringify(t.load)}`
    + `\n  after a change, first numbers: median ${median(t.change)} ms  ${JSON.stringify(t.change)}`
    + `\n  after a change, the curves: median ${median(t.curves)} ms  ${JSON.stringify(t.curves)}`);
}
