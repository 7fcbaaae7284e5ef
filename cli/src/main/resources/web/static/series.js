// The series page: a headline (the next value's forecast with its interval, the method serving it
// and the last measurement's age), then history with the forecast made for each point and its
// interval as a band, the absolute error of each forecast, and when the serving method changed.
// Times are UTC everywhere, values carry the resource's unit.
(function () {
  const U = window.NwsUnits;
  const name = document.getElementById('series').textContent;
  const resourceId = name.split(':')[0];
  const resource = U.resource(resourceId);
  const unit = resource.unit || '';
  // A single point, or a few seconds of them, get this much time around them, not years.
  const MIN_WINDOW_S = 600;
  let charts = [];

  function escapeHtml(s) {
    return String(s === undefined || s === null ? '' : s)
      .replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  }

  // One-line tick labels in UTC, as precise as the window needs.
  function timeTicks(u, splits) {
    const span = u.scales.x.max - u.scales.x.min;
    return splits.map(s => {
      if (s === null) return null; // a split uPlot filtered out
      const d = new Date(s * 1000);
      const hm = U.pad(d.getUTCHours()) + ':' + U.pad(d.getUTCMinutes());
      if (span > 2 * 86400) return U.pad(d.getUTCMonth() + 1) + '-' + U.pad(d.getUTCDate()) + ' ' + hm;
      if (span <= 900) return hm + ':' + U.pad(d.getUTCSeconds());
      return hm;
    });
  }

  // uPlot widens a lone point to 86 400 / ms (years, with seconds as timestamps): put a short
  // series in a window of its own; a zoom narrower than that window is left alone.
  function xRange(u, min, max) {
    const xs = u.data[0];
    if (min === null || max === null || xs.length === 0) return [min, max];
    const first = xs[0], last = xs[xs.length - 1];
    if (last - first >= MIN_WINDOW_S || max - min <= MIN_WINDOW_S) return [min, max];
    const mid = (first + last) / 2;
    return [mid - MIN_WINDOW_S / 2, mid + MIN_WINDOW_S / 2];
  }

  // The data's range with a margin, never beyond what the resource can physically be.
  function yRange(u, min, max) {
    if (min === null || max === null) return [0, 1];
    let [lo, hi] = uPlot.rangeNum(min, max, 0.1, true);
    if (resource.min !== undefined) lo = Math.max(lo, resource.min);
    if (resource.max !== undefined) hi = Math.min(hi, resource.max);
    if (!(hi > lo)) hi = lo + (Math.abs(lo) || 1) * 0.1;
    return [lo, hi];
  }

  function options(width, height, series, extra) {
    return Object.assign({
      width: width, height: height,
      tzDate: ts => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { x: { time: true, range: xRange }, y: { range: yRange } },
      series: [{ label: 'time (UTC)', value: (u, v) => v === null ? '--' : U.utc(v * 1000) }].concat(series),
      axes: [
        { label: 'time (UTC)', space: 80, values: timeTicks },
        { label: unit, size: 80, values: (u, splits) => splits.map(v => U.format(v, unit)) },
      ],
    }, extra || {});
  }

  function headline(d, since) {
    const h = document.getElementById('headline');
    const n = d.t.length;
    if (n === 0) {
      h.innerHTML = '<p class="hint">No measurement of this series in the last ' + escapeHtml(since) +
        '. Host series come from the host\'s sensor (<code>nws sensor --host NAME</code>), network' +
        ' series from a clique (<code>nws clique create NAME --members H1,H2</code>); pick a longer' +
        ' range, or check <code>nws status</code>.</p>';
      return;
    }
    const x = d.next;
    const pct = Math.round(x.coverage * 100);
    h.innerHTML =
      '<div><span class="big" id="next-value" data-value="' + x.value + '">' + U.format(x.value, unit) +
      '</span> next value, forecast</div>' +
      '<div>' + (x.lower === null || x.upper === null
        ? '<span id="next-interval">interval not known yet: it is calibrated on the errors of' +
          ' the first forecasts</span>'
        : pct + ' % interval <b id="next-interval">' + U.format(x.lower, unit) + ' – ' +
          U.format(x.upper, unit) + '</b>') + ' · method <code id="next-method">' + escapeHtml(x.method) +
      '</code> · last measured <b id="next-age" data-age-ms="' + x.ageMs + '">' + U.age(x.ageMs) +
      ' ago</b> (' + U.utc(x.lastMs) + ') · ' + U.plural(n, 'measurement') + ' in the last ' +
      escapeHtml(since) + '</div>';
  }

  function draw(d, since) {
    charts.forEach(c => c.destroy());
    charts = [];
    window.NwsCharts = charts; // the drawn charts, for the browser test to inspect
    headline(d, since);
    const chart = document.getElementById('chart');
    const errors = document.getElementById('errors');
    chart.innerHTML = '';
    errors.innerHTML = '';
    chart.dataset.points = d.t.length;
    if (d.t.length === 0) return;
    const width = Math.min(1000, window.innerWidth - 40);
    const pct = Math.round(d.coverage * 100) + ' %';
    const fmt = (u, v) => v === null ? '--' : U.format(v, unit);
    charts.push(new uPlot(options(width, 360, [
      { label: 'measured', stroke: '#1f77b4', width: 2, value: fmt },
      { label: 'forecast', stroke: '#d62728', dash: [6, 4], value: fmt },
      { label: pct + ' low', stroke: 'rgba(214,39,40,0.3)', value: fmt },
      { label: pct + ' high', stroke: 'rgba(214,39,40,0.3)', value: fmt },
    ], { bands: [{ series: [4, 3], fill: 'rgba(214,39,40,0.12)' }] }),
    [d.t, d.value, d.forecast, d.lower, d.upper], chart));
    if (d.error.some(e => e !== null)) {
      const errOptions = options(width, 200, [{ label: '|measured − forecast|', stroke: '#555', value: fmt }]);
      errOptions.scales.y = { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] };
      charts.push(new uPlot(errOptions, [d.t, d.error], errors));
    } else {
      errors.innerHTML = '<p class="hint" id="no-errors">No forecast error yet: each measurement is' +
        ' compared with the forecast made before it, so errors start with the second measurement.</p>';
    }
    document.getElementById('methods').innerHTML = d.methods.length === 0
      ? '<li class="muted">none yet: the first forecast is made for the second measurement</li>'
      : d.methods.map(m => '<li>' + U.utc(m.t * 1000) + ': ' + escapeHtml(m.method) + '</li>').join('');
  }

  function load() {
    const since = document.getElementById('since').value;
    fetch('/api/series/' + encodeURIComponent(name) + '?since=' + since)
      .then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(t); }))
      .then(d => draw(d, since))
      .catch(e => {
        document.getElementById('headline').innerHTML = '<p class="down">' + escapeHtml(e.message) + '</p>';
        document.getElementById('chart').textContent = '';
      });
  }
  document.getElementById('since').addEventListener('change', load);
  load();
})();
