// The series page: history with the forecast made for each point and its interval as a
// band, the absolute error of each forecast, and when the serving method changed.
(function () {
  const name = document.getElementById('series').textContent;
  let charts = [];

  function draw(d) {
    charts.forEach(c => c.destroy());
    const width = Math.min(1000, window.innerWidth - 40);
    const main = new uPlot({
      width: width, height: 360,
      series: [
        {},
        { label: 'measured', stroke: '#1f77b4', width: 2 },
        { label: 'forecast', stroke: '#d62728', dash: [6, 4] },
        { label: Math.round(d.coverage * 100) + ' % low', stroke: 'rgba(214,39,40,0.3)' },
        { label: Math.round(d.coverage * 100) + ' % high', stroke: 'rgba(214,39,40,0.3)' },
      ],
      bands: [{ series: [4, 3], fill: 'rgba(214,39,40,0.12)' }],
      axes: [{}, { label: d.unit }],
    }, [d.t, d.value, d.forecast, d.lower, d.upper], document.getElementById('chart'));
    const errors = new uPlot({
      width: width, height: 200,
      series: [{}, { label: '|measured − forecast|', stroke: '#555' }],
      axes: [{}, { label: d.unit }],
    }, [d.t, d.error], document.getElementById('errors'));
    charts = [main, errors];
    document.getElementById('methods').innerHTML = d.methods.map(m =>
      '<li>' + new Date(m.t * 1000).toISOString() + ': ' + m.method + '</li>').join('');
    document.getElementById('chart').dataset.points = d.t.length;
  }

  function load() {
    const since = document.getElementById('since').value;
    fetch('/api/series/' + encodeURIComponent(name) + '?since=' + since)
      .then(r => r.ok ? r.json() : r.text().then(t => { throw new Error(t); }))
      .then(draw)
      .catch(e => { document.getElementById('chart').textContent = 'no data: ' + e.message; });
  }
  document.getElementById('since').addEventListener('change', load);
  load();
})();
