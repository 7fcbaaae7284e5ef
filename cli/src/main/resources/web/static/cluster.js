// The cluster page: renders a snapshot into the host table and the three matrices (bandwidth,
// latency, connect time) with units, threshold colours and each value's age, then keeps them
// current from the server-sent events of the proxy's snapshot stream.
(function () {
  const U = window.NwsUnits;
  const clusterNode = document.getElementById('cluster');
  const cluster = clusterNode.textContent;
  const api = '/api/cluster/' + encodeURIComponent(cluster);

  function escapeHtml(s) {
    return String(s === undefined || s === null ? '' : s)
      .replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  }
  function seriesLink(name, label) {
    return '<a href="/series/' + encodeURIComponent(name) + '">' + label + '</a>';
  }
  // Proto3 JSON leaves out zeros: a forecast present with value 0 has a method but no value.
  function has(f) { return !!f && (f.value !== undefined || f.method !== undefined); }
  function val(f) { return Number(f.value || 0); }
  function ageOf(f) { return Number(f.ageMs || 0); }
  function unit(resource) { return U.resource(resource).unit || ''; }
  function title(f, resource) {
    return escapeHtml(f.method) + ', MAE ' + U.format(f.mae, unit(resource)) + ', measured ' +
      U.age(ageOf(f)) + ' before the snapshot' + (f.stale ? ' (stale)' : '');
  }

  function matrix(id, hosts, pairs, field, resource) {
    const table = document.getElementById(id);
    let html = '<thead><tr><th>src \\ dst</th>' + hosts.map(h => '<th>' + escapeHtml(h) + '</th>').join('') + '</tr></thead><tbody>';
    for (const src of hosts) {
      html += '<tr><th>' + escapeHtml(src) + '</th>';
      for (const dst of hosts) {
        if (src === dst) { html += '<td class="self"></td>'; continue; }
        const pair = pairs.find(p => p.src === src && p.dst === dst);
        const f = pair && pair[field];
        const at = ' data-src="' + escapeHtml(src) + '" data-dst="' + escapeHtml(dst) + '"';
        if (!has(f)) {
          html += '<td class="missing"' + at + '>–</td>';
        } else {
          const state = U.state(resource, val(f));
          html += '<td class="' + (f.stale ? 'stale' : 'value') + ' ' + state + '"' + at +
            ' data-value="' + val(f) + '" data-state="' + state + '" title="' + title(f, resource) + '">' +
            seriesLink(resource + ':' + src + '->' + dst, U.format(val(f), unit(resource))) +
            '<small>' + U.age(ageOf(f)) + ' ago</small></td>';
        }
      }
      html += '</tr>';
    }
    table.innerHTML = html + '</tbody>';
  }

  function hostCell(f, resource, host) {
    if (!has(f)) return '<td class="missing">–</td><td>–</td>';
    const state = U.state(resource, val(f));
    return '<td class="' + (f.stale ? 'stale ' : '') + state + '" data-value="' + val(f) + '" title="' +
      title(f, resource) + '">' + seriesLink(resource + ':' + host, U.format(val(f), unit(resource))) +
      '</td><td>' + U.format(f.mae, unit(resource)) + '</td>';
  }

  function render(s) {
    document.getElementById('status').innerHTML = '';
    const hostNames = (s.hosts || []).map(h => h.host);
    (s.pairs || []).forEach(p => { if (!hostNames.includes(p.src)) hostNames.push(p.src); if (!hostNames.includes(p.dst)) hostNames.push(p.dst); });
    hostNames.sort();
    const taken = document.getElementById('taken');
    taken.textContent = 'snapshot taken ' + (s.takenMs ? U.utc(s.takenMs) : '?') + ', ' +
      U.plural(hostNames.length, 'host') + ', ' + U.plural((s.pairs || []).length, 'measured path');
    taken.dataset.takenMs = s.takenMs || '';
    const hosts = (s.hosts || []).slice().sort((a, b) => a.host < b.host ? -1 : 1);
    document.querySelector('#hosts tbody').innerHTML = hosts.map(h => {
      const cpu = h.cpuAvailability, mem = h.memoryFree;
      const ages = [cpu, mem].filter(has).map(ageOf);
      return '<tr data-host="' + escapeHtml(h.host) + '"><td>' + escapeHtml(h.host) + '</td>' +
        hostCell(cpu, 'cpu.availability', h.host) + hostCell(mem, 'memory.free', h.host) +
        '<td class="age">' + (ages.length ? U.age(Math.min.apply(null, ages)) + ' ago' : '–') + '</td></tr>';
    }).join('');
    document.getElementById('no-hosts').hidden = hosts.some(h => has(h.cpuAvailability) || has(h.memoryFree));
    const pairs = s.pairs || [];
    document.getElementById('no-pairs').hidden = pairs.length > 0;
    if (hostNames.length > 1) { // the clique command with this cluster's own hosts
      document.querySelector('#no-pairs pre').textContent = 'nws clique create ' + cluster +
        ' --members ' + hostNames.join(',') + ' --nameserver ' + clusterNode.dataset.nameserver;
    }
    matrix('bandwidth', hostNames, pairs, 'bandwidth', 'tcp.bandwidth');
    matrix('latency', hostNames, pairs, 'latency', 'tcp.latency');
    matrix('connect', hostNames, pairs, 'connect', 'tcp.connect');
  }

  function down(message) {
    document.getElementById('status').innerHTML = '<p class="down">' + escapeHtml(message) + '</p>';
  }

  document.getElementById('legend').innerHTML =
    '<p>Colours on fixed thresholds (<code>nws web --threshold RESOURCE=WARNING,CRITICAL</code>):</p>' +
    U.legend('tcp.bandwidth', 'bandwidth') + U.legend('tcp.latency', 'latency') +
    U.legend('tcp.connect', 'connect time') + U.legend('cpu.availability', 'CPU available') +
    U.legend('memory.free', 'free memory') +
    '<div class="legend-row"><span class="cell stale">stale</span> older than its series\' staleness bound ' +
    '<span class="cell missing">–</span> no forecast; times are ages of the last measurement</div>';

  fetch(api).then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(t); }))
    .then(render)
    .catch(e => { document.getElementById('taken').textContent = 'no snapshot'; down(e.message); });
  const events = new EventSource(api + '/events');
  events.addEventListener('snapshot', e => render(JSON.parse(e.data)));
})();
