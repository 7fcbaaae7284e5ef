// The cluster page: renders a snapshot into the host table and the two matrices, then keeps
// them current from the server-sent events of the proxy's snapshot stream.
(function () {
  const cluster = document.getElementById('cluster').textContent;
  const api = '/api/cluster/' + encodeURIComponent(cluster);

  function text(x) { return x === undefined || x === null ? '' : String(x); }
  function fmt(v, digits) { return v === undefined ? '–' : Number(v).toPrecision(digits || 3); }
  function seriesLink(name, label) {
    return '<a href="/series/' + encodeURIComponent(name) + '">' + label + '</a>';
  }
  function escapeHtml(s) {
    return text(s).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  }

  // Colour by value within the matrix's own range: low red, high green (latency: reversed).
  function colour(v, lo, hi, lowIsGood) {
    if (hi <= lo) return 'hsl(120,55%,80%)';
    let x = (v - lo) / (hi - lo);
    if (lowIsGood) x = 1 - x;
    return 'hsl(' + Math.round(120 * x) + ',60%,78%)';
  }

  function matrix(id, hosts, pairs, field, resource, lowIsGood) {
    const table = document.getElementById(id);
    const values = pairs.map(p => p[field]).filter(f => f && f.value !== undefined).map(f => f.value);
    const lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
    let html = '<thead><tr><th>src \\ dst</th>' + hosts.map(h => '<th>' + escapeHtml(h) + '</th>').join('') + '</tr></thead><tbody>';
    for (const src of hosts) {
      html += '<tr><th>' + escapeHtml(src) + '</th>';
      for (const dst of hosts) {
        if (src === dst) { html += '<td class="self"></td>'; continue; }
        const pair = pairs.find(p => p.src === src && p.dst === dst);
        const f = pair && pair[field];
        if (!f || f.value === undefined) {
          html += '<td class="missing" data-src="' + escapeHtml(src) + '" data-dst="' + escapeHtml(dst) + '">–</td>';
        } else {
          const cls = f.stale ? 'stale' : 'value';
          html += '<td class="' + cls + '" data-src="' + escapeHtml(src) + '" data-dst="' + escapeHtml(dst) +
            '" data-value="' + f.value + '" style="background-color:' + colour(f.value, lo, hi, lowIsGood) + '" title="' +
            escapeHtml(f.method) + ', MAE ' + fmt(f.mae) + '">' +
            seriesLink(resource + ':' + src + '->' + dst, fmt(f.value)) + '</td>';
        }
      }
      html += '</tr>';
    }
    table.innerHTML = html + '</tbody>';
  }

  function render(s) {
    const hostNames = (s.hosts || []).map(h => h.host);
    (s.pairs || []).forEach(p => { if (!hostNames.includes(p.src)) hostNames.push(p.src); if (!hostNames.includes(p.dst)) hostNames.push(p.dst); });
    hostNames.sort();
    const taken = s.takenMs ? new Date(Number(s.takenMs)).toISOString() : '?';
    document.getElementById('taken').textContent = 'snapshot taken ' + taken + ', ' + hostNames.length + ' hosts';
    document.getElementById('taken').dataset.takenMs = text(s.takenMs);
    const body = document.querySelector('#hosts tbody');
    body.innerHTML = (s.hosts || []).slice().sort((a, b) => a.host < b.host ? -1 : 1).map(h => {
      const cpu = h.cpuAvailability || {}, mem = h.memoryFree || {};
      return '<tr data-host="' + escapeHtml(h.host) + '"><td>' + escapeHtml(h.host) + '</td><td class="' + (cpu.stale ? 'stale' : '') + '">' +
        seriesLink('cpu.availability:' + h.host, fmt(cpu.value)) + '</td><td>' + fmt(cpu.mae, 2) +
        '</td><td class="' + (mem.stale ? 'stale' : '') + '">' + seriesLink('memory.free:' + h.host, fmt(mem.value, 5)) +
        '</td><td>' + fmt(mem.mae, 2) + '</td></tr>';
    }).join('');
    matrix('bandwidth', hostNames, s.pairs || [], 'bandwidth', 'tcp.bandwidth', false);
    matrix('latency', hostNames, s.pairs || [], 'latency', 'tcp.latency', true);
  }

  fetch(api).then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(t); }))
    .then(render)
    .catch(e => { document.getElementById('taken').textContent = 'no snapshot: ' + e.message; });
  const events = new EventSource(api + '/events');
  events.addEventListener('snapshot', e => render(JSON.parse(e.data)));
})();
