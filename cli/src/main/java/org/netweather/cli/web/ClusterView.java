package org.netweather.cli.web;

/**
 * The cluster page's frame; cluster.js fills it from the snapshot and its live updates, with units
 * and threshold colours from the settings embedded in the page.
 */
final class ClusterView {
  private ClusterView() {}

  static String render(String cluster, String nameserver, DashboardSettings settings) {
    String c = Html.escape(cluster);
    String ns = Html.escape(nameserver);
    return Html.page(
        "cluster " + cluster,
        settings(settings)
            + "<h1>Cluster <span id=\"cluster\" data-nameserver=\""
            + ns
            + "\">"
            + c
            + "</span></h1><p id=\"taken\" class=\"muted\">loading…</p>"
            + "<div id=\"status\"></div>"
            + "<h2>Hosts</h2><div id=\"no-hosts\" class=\"hint\" hidden><p>No host of this cluster"
            + " has reported yet. Start a sensor on each host, in this cluster:</p><pre>nws sensor"
            + " --host NAME --cluster "
            + c
            + " --nameserver "
            + ns
            + "</pre></div>"
            + "<table id=\"hosts\"><thead><tr><th>host</th><th>CPU available</th><th>± MAE</th>"
            + "<th>free memory</th><th>± MAE</th><th>measured</th></tr></thead><tbody></tbody>"
            + "</table>"
            + "<div id=\"no-pairs\" class=\"hint\" hidden><p>No path between this cluster's hosts"
            + " has been measured yet. Bandwidth, latency and connect time are measured only"
            + " among the members of a clique; create one with the hosts' sensor names:</p>"
            + "<pre>nws clique create "
            + c
            + " --members H1,H2,H3 --nameserver "
            + ns
            + "</pre></div>"
            + "<h2>Bandwidth</h2><table id=\"bandwidth\" class=\"matrix\"></table>"
            + "<h2>Latency</h2><table id=\"latency\" class=\"matrix\"></table>"
            + "<h2>Connect time</h2><table id=\"connect\" class=\"matrix\"></table>"
            + "<div id=\"legend\" class=\"legend\"></div>",
        "/static/units.js",
        "/static/cluster.js");
  }

  /** The settings as a JSON island the page's scripts read. */
  static String settings(DashboardSettings settings) {
    // JSON of numbers and fixed names: nothing in it can close the script element.
    return "<script id=\"settings\" type=\"application/json\">" + settings.json() + "</script>";
  }
}
