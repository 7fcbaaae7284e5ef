package org.netweather.cli.web;

/** The cluster page's frame; cluster.js fills it from the snapshot and its live updates. */
final class ClusterView {
  private ClusterView() {}

  static String render(String cluster) {
    String c = Html.escape(cluster);
    return Html.page(
        "cluster " + cluster,
        "<h1>Cluster <span id=\"cluster\">"
            + c
            + "</span></h1><p id=\"taken\" class=\"muted\">loading…</p>"
            + "<h2>Hosts</h2><table id=\"hosts\"><thead><tr><th>host</th>"
            + "<th>CPU availability</th><th>± MAE</th><th>free memory (MiB)</th><th>± MAE</th>"
            + "</tr></thead><tbody></tbody></table>"
            + "<h2>Bandwidth (Mbit/s)</h2><table id=\"bandwidth\" class=\"matrix\"></table>"
            + "<h2>Latency (ms)</h2><table id=\"latency\" class=\"matrix\"></table>"
            + "<p class=\"legend\"><span class=\"cell stale\">stale</span> older than its"
            + " series' staleness bound <span class=\"cell missing\">–</span> no forecast</p>",
        "/static/cluster.js");
  }
}
