// Drives Debian's Chromium through playwright-core against running dashboards:
//   node dashboard.mjs CONFIG_JSON
// CONFIG_JSON: {base, cluster, hosts: [..], cpuSeries, newSeries, emptyBase, emptyCluster,
//               downBase, downAddress, out, put: [command, args...]}
// Checks each state an operator meets (a healthy site, its cluster page, a series page, a new
// pair's page, an empty site, a site whose nameserver is down) on what the page says: units and no
// exponents, threshold colours with their legend, bands within the resource's range, one time zone
// and labels that do not overlap, empty states naming the command to run, the down page naming
// the address. A new measurement (the put command, run here) must reach the open cluster page.
// Saves a screenshot of each state in `out`. Exit status 0 when every check passes.
import { chromium } from 'playwright-core';
import { execFileSync } from 'node:child_process';

const c = JSON.parse(process.argv[2]);
const hosts = c.hosts;
const failures = [];
function check(ok, what) { console.log((ok ? 'ok   ' : 'FAIL ') + what); if (!ok) failures.push(what); }

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, timezoneId: 'America/Los_Angeles' });
const errors = [];
let collecting = true; // a down site's failed loads are expected console errors
page.on('console', m => { if (collecting && m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', e => errors.push(String(e)));
const body = async () => page.locator('body').innerText();
// 7.72e+3, 1.0E7: a number in exponent notation anywhere on the page.
const exponent = /\d(\.\d+)?[eE][+-]?\d/;

// ---- healthy site
await page.goto(c.base + '/');
check(await page.locator('#clusters a', { hasText: c.cluster }).count() === 1, 'site lists cluster ' + c.cluster);
check(await page.locator('#daemons tbody tr').count() >= 4, 'site lists the daemons');
check(await page.locator('#daemons td.bad').count() === 0, 'every daemon is healthy');
const summary = await page.locator('#summary').innerText();
check(/\b1 cluster\b/.test(summary) && /\b1 clique\b/.test(summary), `summary counts in the singular: ${summary}`);
check(await page.locator('#cliques tbody tr').count() === 1, 'the clique is listed');
await page.screenshot({ path: c.out + '/site.png', fullPage: true });

// ---- cluster page
await page.goto(c.base + '/cluster/' + c.cluster);
await page.waitForSelector('#bandwidth td', { timeout: 15000 });
const pairs = hosts.length * (hosts.length - 1);
const cells = await page.locator('#bandwidth td[data-src]').count();
check(cells === pairs, `bandwidth matrix has one cell per ordered pair (${cells} of ${pairs})`);
const valued = await page.locator('#bandwidth td.value, #bandwidth td.stale').count();
const missing = await page.locator('#bandwidth td.missing').count();
check(valued === pairs - 1 && missing === 1, `all pairs but one have a value (${valued}), the last is marked missing (${missing})`);
check(await page.locator('#bandwidth td.stale').count() === 1, 'the pair measured minutes ago is marked stale');
const cell = page.locator(`#bandwidth td[data-src="${hosts[0]}"][data-dst="${hosts[1]}"]`);
const first = await cell.getAttribute('data-value');
check(Math.abs(Number(first) - 5530) < 1e-6, `${hosts[0]}->${hosts[1]} holds 5530 Mbit/s (${first})`);
const firstText = await cell.locator('a').innerText();
check(firstText === '5.5 Gbit/s', `${hosts[0]}->${hosts[1]} reads "5.5 Gbit/s" ("${firstText}")`);
check(await cell.getAttribute('data-state') === 'good', 'a healthy 5.5 Gbit/s link is coloured good, though it is the slowest but one');
const slow = page.locator(`#bandwidth td[data-src="${hosts[1]}"][data-dst="${hosts[0]}"]`);
check(await slow.getAttribute('data-state') === 'critical', `an 8 Mbit/s link is critical (${await slow.innerText()})`);
check(/ago$/.test((await cell.locator('small').innerText()).trim()), 'each cell shows its measurement age');
const connectCells = await page.locator('#connect td.value, #connect td.stale').count();
check(connectCells === pairs - 1, `connect-time matrix filled (${connectCells})`);
const latencyText = await page.locator(`#latency td[data-src="${hosts[0]}"][data-dst="${hosts[1]}"] a`).innerText();
check(/^[\d.,]+ (ms|µs)$/.test(latencyText), `latency carries its unit ("${latencyText}")`);
const cpuText = await page.locator(`#hosts tr[data-host="${hosts[0]}"] td`).nth(1).innerText();
check(/^\d+ %$/.test(cpuText), `CPU availability as a percentage ("${cpuText}")`);
const memText = await page.locator(`#hosts tr[data-host="${hosts[0]}"] td`).nth(3).innerText();
check(/^[\d.,]+ (MiB|GiB)$/.test(memText), `free memory with its unit ("${memText}")`);
check(await page.locator('#hosts td.age').first().innerText().then(t => /ago$/.test(t)), 'host rows show the measurement age');
for (const r of ['tcp.bandwidth', 'tcp.latency', 'tcp.connect', 'cpu.availability', 'memory.free']) {
  check(await page.locator(`#legend .legend-row[data-resource="${r}"] .cell`).count() === 3, `legend explains ${r}'s colours`);
}
const taken = await page.locator('#taken').innerText();
check(taken.includes(' UTC') && taken.includes(`${hosts.length} hosts`), `snapshot time in UTC and a host count ("${taken}")`);
check(!exponent.test(await body()), 'no number in exponent notation on the cluster page');
check(await page.locator('#no-pairs').isHidden() && await page.locator('#no-hosts').isHidden(), 'no empty-state hint on a measured cluster');
await page.screenshot({ path: c.out + '/cluster.png', fullPage: true });

// ---- live update: a new bandwidth measurement reaches the open page.
const p0 = Date.now();
execFileSync(c.put[0], c.put.slice(1), { stdio: 'inherit' }); // a whole nws process
const putSeconds = ((Date.now() - p0) / 1000).toFixed(1);
const t0 = Date.now(); // the put is stored: from here on it is the page's delay
let updated = false;
while (Date.now() - t0 < 15000) {
  const v = await cell.getAttribute('data-value');
  if (Math.abs(Number(v) - 5530) > 1e-6) { updated = true; break; }
  await page.waitForTimeout(250);
}
check(updated, `a new measurement reached the open page ${((Date.now() - t0) / 1000).toFixed(1)} s after nws put returned (it ran ${putSeconds} s)`);
await page.screenshot({ path: c.out + '/cluster-updated.png', fullPage: true });

// ---- series page (a CPU fraction that climbs to 1)
await page.goto(c.base + '/series/' + encodeURIComponent(c.cpuSeries));
await page.waitForSelector('#chart canvas', { timeout: 15000 });
const points = Number(await page.locator('#chart').getAttribute('data-points'));
check(points >= 20, `series chart drawn from ${points} measurements`);
// The band: uPlot paints it translucent red; count such pixels on the canvas.
const banded = await page.evaluate(() => {
  const cv = document.querySelector('#chart canvas');
  const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] > 200 && d[i + 1] < 235 && d[i + 2] < 235 && d[i] - d[i + 2] > 8) n++;
  return n;
});
check(banded > 200, `forecast band painted (${banded} pixels)`);
const band = await page.evaluate(async s => {
  const d = await (await fetch('/api/series/' + encodeURIComponent(s) + '?since=6h')).json();
  const lo = d.lower.filter(x => x !== null), hi = d.upper.filter(x => x !== null);
  return { lo: Math.min(...lo), hi: Math.max(...hi) };
}, c.cpuSeries);
check(band.lo >= 0 && band.hi <= 1, `CPU band within [0, 1] ([${band.lo}, ${band.hi}])`);
const yTop = await page.evaluate(() => window.NwsCharts[0].scales.y.max);
check(yTop <= 1, `value axis ends within the fraction's range (${yTop})`);
const next = await page.locator('#next-value').innerText();
check(/^\d+ %$/.test(next), `headline: next value with its unit ("${next}")`);
const headline = await page.locator('#headline').innerText();
check(/\d+ % interval \d+ % – \d+ %/.test(headline) && /method \S+/.test(headline) && /last measured .+ ago/.test(headline),
  `headline has interval, method and age ("${headline.replace(/\n/g, ' ')}")`);
check(await page.locator('#methods li').count() >= 1, 'method changes listed');
const axis = await page.evaluate(() => {
  const u = window.NwsCharts[0];
  const all = u.axes[0]._values || [];
  const keep = all.map((l, i) => l !== null ? i : -1).filter(i => i >= 0);
  const labels = keep.map(i => all[i]);
  const splits = keep.map(i => u.axes[0]._splits[i]);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = u.axes[0].font ? u.axes[0].font[0] : '12px system-ui';
  let overlaps = 0;
  for (let i = 1; i < splits.length; i++) {
    const gap = u.valToPos(splits[i], 'x') - u.valToPos(splits[i - 1], 'x');
    const need = (ctx.measureText(labels[i]).width + ctx.measureText(labels[i - 1]).width) / 2;
    if (gap < need) overlaps++;
  }
  return { labels, overlaps };
});
check(axis.labels.length >= 2 && axis.labels.every(l => /^(\d\d-\d\d )?\d\d:\d\d(:\d\d)?$/.test(l)),
  `time labels are 24-hour UTC (${axis.labels.join(' ')})`);
check(axis.overlaps === 0, `time labels do not overlap (${axis.overlaps} overlaps)`);
const methods = await page.locator('#methods').innerText();
check(methods.includes(' UTC'), 'method changes are in UTC too');
check(!/\b(am|pm)\b/i.test(await body()), 'no 12-hour local time on the series page');
check(!exponent.test(await body()), 'no number in exponent notation on the series page');
await page.screenshot({ path: c.out + '/series-cpu.png', fullPage: true });

// ---- a new pair's page: one measurement
await page.goto(c.base + '/series/' + encodeURIComponent(c.newSeries));
await page.waitForSelector('#chart canvas', { timeout: 15000 });
const span = await page.evaluate(() => window.NwsCharts[0].scales.x.max - window.NwsCharts[0].scales.x.min);
check(span > 0 && span <= 3600, `a single point gets a small window, not years (${span} s)`);
check(await page.locator('#no-errors').count() === 1, 'the error chart says why it is empty');
const newInterval = await page.locator('#next-interval').innerText();
check(/not known yet/.test(newInterval), `a lone point's interval says it is not known yet ("${newInterval}")`);
const newNext = await page.locator('#next-value').innerText();
check(/ (Mbit|Gbit)\/s$/.test(newNext), `new pair's headline has its unit ("${newNext}")`);
await page.screenshot({ path: c.out + '/series-new-pair.png', fullPage: true });

// ---- an empty site: a nameserver and a proxy, nothing measured
await page.goto(c.emptyBase + '/');
const emptyText = await body();
check(await page.locator('#no-sensors pre').innerText().then(t => t.startsWith('nws sensor --host')), 'empty site: how to start a sensor');
check(await page.locator('#no-cliques pre').innerText().then(t => t.startsWith('nws clique create')), 'empty site: how to create a clique');
check(/\b0 hosts\b/.test(emptyText) && /\b1 cluster\b/.test(emptyText) && !/\b1 (host|cluster|clique|daemon)s\b/.test(emptyText),
  'empty site: counts in correct plurals');
await page.screenshot({ path: c.out + '/site-empty.png', fullPage: true });
await page.goto(c.emptyBase + '/cluster/' + c.emptyCluster);
await page.waitForFunction(() => document.getElementById('taken').textContent.startsWith('snapshot'), null, { timeout: 15000 });
check(await page.locator('#no-pairs').isVisible(), 'empty cluster: says to create a clique');
check(await page.locator('#no-pairs pre').innerText().then(t => t.startsWith('nws clique create ' + c.emptyCluster)), 'empty cluster: the clique command names the cluster');
check(await page.locator('#no-hosts').isVisible(), 'empty cluster: says to start a sensor');
await page.screenshot({ path: c.out + '/cluster-empty.png', fullPage: true });

// ---- the site with its nameserver down
collecting = false;
const down = await page.goto(c.downBase + '/');
check(down.status() === 503, `site down answers 503 (${down.status()})`);
const downText = await body();
check(downText.includes('The nameserver is down') && downText.includes(c.downAddress),
  `the down page names the nameserver and ${c.downAddress}`);
check(!downText.startsWith('UNAVAILABLE'), 'not a bare gRPC message');
await page.screenshot({ path: c.out + '/site-down.png', fullPage: true });
const downCluster = await page.goto(c.downBase + '/cluster/' + c.cluster);
await page.waitForSelector('#status .down', { timeout: 15000 });
check((await page.locator('#status').innerText()).includes(c.downAddress), 'the cluster page, too, names the address it tried');

check(errors.length === 0, 'no console errors' + (errors.length ? ': ' + errors.join(' | ') : ''));
await browser.close();
process.exit(failures.length ? 1 : 0);
