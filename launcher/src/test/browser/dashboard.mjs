// Drives Debian's Chromium through playwright-core against a running dashboard:
//   node dashboard.mjs BASE_URL CLUSTER HOSTS(a,b,c) SERIES OUT_DIR PUT_COMMAND...
// Checks each page loads without console errors, the matrices have one cell per ordered pair with
// the expected values and marks, the series page draws history and band from the real data, and
// a new measurement (PUT_COMMAND, run here) reaches the open cluster page within seconds.
// Saves a screenshot per page in OUT_DIR. Exit status 0 when every check passes.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';

const [base, cluster, hostList, series, out, ...put] = process.argv.slice(2);
const hosts = hostList.split(',');
const failures = [];
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures.push(what); }

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
const errors = [];
page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', e => errors.push(String(e)));

// Site
await page.goto(base + '/');
check(await page.locator('#clusters a', { hasText: cluster }).count() === 1, 'site lists cluster ' + cluster);
check(await page.locator('#daemons tbody tr').count() >= 4, 'site lists the daemons');
check(await page.locator('#daemons td.bad').count() === 0, 'every daemon is healthy');
await page.screenshot({ path: out + '/site.png', fullPage: true });

// Cluster
await page.goto(base + '/cluster/' + cluster);
await page.waitForSelector('#bandwidth td', { timeout: 15000 });
const pairs = hosts.length * (hosts.length - 1);
const cells = await page.locator('#bandwidth td[data-src]').count();
check(cells === pairs, `bandwidth matrix has one cell per ordered pair (${cells} of ${pairs})`);
const valued = await page.locator('#bandwidth td.value, #bandwidth td.stale').count();
const missing = await page.locator('#bandwidth td.missing').count();
check(valued === pairs - 1 && missing === 1, `all pairs but one have a value (${valued}), the last is marked missing (${missing})`);
const first = await page.locator(`#bandwidth td[data-src="${hosts[0]}"][data-dst="${hosts[1]}"]`).getAttribute('data-value');
check(await page.locator('#bandwidth td.stale').count() === 1, 'the pair measured minutes ago is marked stale');
check(Math.abs(Number(first) - 100) < 1e-6, `${hosts[0]}->${hosts[1]} reads 100 (${first})`);
check(await page.locator('#hosts tbody tr').count() === hosts.length, 'host table has every host');
await page.screenshot({ path: out + '/cluster.png', fullPage: true });

// Live update: a new bandwidth measurement reaches the open page.
const t0 = Date.now();
execFileSync(put[0], put.slice(1), { stdio: 'inherit' }); // a whole nws process: about a second
let updated = false;
while (Date.now() - t0 < 15000) {
  const v = await page.locator(`#bandwidth td[data-src="${hosts[0]}"][data-dst="${hosts[1]}"]`).getAttribute('data-value');
  if (Math.abs(Number(v) - 100) > 1e-6) { updated = true; break; }
  await page.waitForTimeout(250);
}
check(updated, `a new measurement reached the open page ${((Date.now() - t0) / 1000).toFixed(1)} s after nws put started`);
await page.screenshot({ path: out + '/cluster-updated.png', fullPage: true });

// Series
await page.goto(base + '/series/' + encodeURIComponent(series));
await page.waitForSelector('#chart canvas', { timeout: 15000 });
const points = Number(await page.locator('#chart').getAttribute('data-points'));
check(points >= 20, `series chart drawn from ${points} measurements`);
// The band: uPlot paints it translucent red; count such pixels on the canvas.
const banded = await page.evaluate(() => {
  const c = document.querySelector('#chart canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 235 && d[i + 2] < 235 && d[i] - d[i + 2] > 8) n++;
  return n;
});
check(banded > 200, `forecast band painted (${banded} pixels)`);
check(await page.locator('#methods li').count() >= 1, 'method changes listed');
await page.screenshot({ path: out + '/series.png', fullPage: true });

check(errors.length === 0, 'no console errors' + (errors.length ? ': ' + errors.join(' | ') : ''));
await browser.close();
process.exit(failures.length ? 1 : 0);
