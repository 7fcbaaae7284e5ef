// Numbers as an operator reads them: a unit scaled to the value (7.7 Gbit/s, 38 µs, 3.1 GiB,
// 83 %), thousands grouped, never an exponent; colours on each resource's fixed thresholds; times
// in UTC. The page's settings (units, physical ranges, thresholds) come from the model's resource
// catalogue through the JSON island #settings.
(function () {
  const settingsNode = document.getElementById('settings');
  const settings = settingsNode ? JSON.parse(settingsNode.textContent) : { resources: {} };

  // Each unit's larger and smaller steps, in the catalogue's unit.
  const SCALES = {
    'Mbit/s': [[1e6, 'Tbit/s'], [1e3, 'Gbit/s'], [1, 'Mbit/s'], [1e-3, 'kbit/s'], [0, 'bit/s', 1e-6]],
    'ms': [[1e3, 's'], [0.1, 'ms', 1], [0, 'µs', 1e-3]],
    'MiB': [[1024 * 1024, 'TiB'], [1024, 'GiB'], [1, 'MiB'], [0, 'KiB', 1 / 1024]],
  };

  function grouped(x, decimals) {
    return new Intl.NumberFormat('en-US', {
      minimumFractionDigits: 0, maximumFractionDigits: decimals,
    }).format(x);
  }

  // Two significant digits below 10, one decimal below 100, none above: 0.42, 7.7, 55.3, 5,530.
  function plain(x) {
    const a = Math.abs(x);
    if (a === 0) return '0';
    if (a >= 100) return grouped(x, 0);
    if (a >= 10) return grouped(x, 1);
    if (a >= 1) return grouped(x, 1);
    return grouped(x, Math.min(6, 1 - Math.floor(Math.log10(a))));
  }

  // A value of `unit` as text with a unit, e.g. format(7720, 'Mbit/s') is "7.7 Gbit/s".
  function format(v, unit) {
    if (v === undefined || v === null || v === '' || !isFinite(Number(v))) return '–';
    const x = Number(v);
    if (x === 0) return '0' + (unit === 'fraction' ? ' %' : unit ? ' ' + unit : '');
    if (unit === 'fraction') {
      const p = x * 100;
      return (Math.abs(p) >= 10 || p === 0 ? grouped(p, 0) : plain(p)) + ' %';
    }
    const scales = SCALES[unit];
    if (!scales) return plain(x) + (unit ? ' ' + unit : '');
    for (const [from, name, divisor] of scales) {
      if (Math.abs(x) >= from) return plain(x / (divisor || from || 1)) + ' ' + name;
    }
    return plain(x) + ' ' + unit;
  }

  function resource(id) { return settings.resources[id] || {}; }

  // MaDDash-style: critical below warning means low values are the bad ones.
  function state(id, v) {
    const r = resource(id);
    if (r.warning === undefined || v === undefined || v === null) return '';
    const x = Number(v);
    if (r.critical < r.warning) return x <= r.critical ? 'critical' : x <= r.warning ? 'warning' : 'good';
    return x >= r.critical ? 'critical' : x >= r.warning ? 'warning' : 'good';
  }

  // The legend line of one resource: what each colour means, in its unit.
  function legend(id, label) {
    const r = resource(id);
    if (r.warning === undefined) return '';
    const low = r.critical < r.warning;
    const u = r.unit;
    const good = (low ? '> ' : '< ') + format(r.warning, u);
    const warn = (low ? '≤ ' : '≥ ') + format(r.warning, u);
    const crit = (low ? '≤ ' : '≥ ') + format(r.critical, u);
    return '<div class="legend-row" data-resource="' + id + '"><b>' + label + '</b> ' +
      '<span class="cell good">good ' + good + '</span>' +
      '<span class="cell warning">warning ' + warn + '</span>' +
      '<span class="cell critical">critical ' + crit + '</span></div>';
  }

  function pad(n) { return String(n).padStart(2, '0'); }

  // 2026-11-26 16:18:25 UTC
  function utc(ms) {
    const d = new Date(Number(ms));
    return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ' +
      pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes()) + ':' + pad(d.getUTCSeconds()) + ' UTC';
  }

  // 45 s, 3 min, 2 h 10 min, 4 d
  function age(ms) {
    if (ms === undefined || ms === null || ms === '') return '–';
    const s = Math.max(0, Math.round(Number(ms) / 1000));
    if (s < 90) return s + ' s';
    const m = Math.round(s / 60);
    if (m < 90) return m + ' min';
    const h = Math.floor(m / 60);
    if (h < 48) return h + ' h ' + (m % 60) + ' min';
    return Math.round(h / 24) + ' d';
  }

  function plural(n, noun) { return n + ' ' + noun + (n === 1 ? '' : 's'); }

  window.NwsUnits = { settings, resource, format, state, legend, utc, age, plural, pad };
})();
