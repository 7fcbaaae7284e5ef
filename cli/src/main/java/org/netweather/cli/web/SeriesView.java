package org.netweather.cli.web;

/** The series page's frame; series.js draws it with uPlot from /api/series. */
final class SeriesView {
  private SeriesView() {}

  static String render(String series, DashboardSettings settings) {
    return Html.page(
        series,
        ClusterView.settings(settings)
            + "<h1 id=\"series\">"
            + Html.escape(series)
            + "</h1><div id=\"headline\" class=\"headline\">loading…</div>"
            + "<p>Range: <select id=\"since\"><option>1h</option><option selected>6h</option>"
            + "<option>1d</option><option>7d</option></select> <span class=\"muted\">times in"
            + " UTC; drag on a chart to zoom, double-click to reset</span></p>"
            + "<div id=\"chart\"></div><h2>Absolute error of each forecast</h2>"
            + "<div id=\"errors\"></div><h2>Methods serving the forecast</h2>"
            + "<ul id=\"methods\"></ul>",
        "/static/vendor/uPlot.iife.min.js",
        "/static/units.js",
        "/static/series.js");
  }
}
