package org.netweather.cli.web;

import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;
import org.netweather.client.DaemonHealth;
import org.netweather.client.NetWeatherClient;

/**
 * The site page: every cluster with a proxy, every clique, and every registered daemon with its
 * health; where something is missing, the command that adds it.
 */
final class SiteView {
  private SiteView() {}

  static String render(NetWeatherClient client) {
    String nameserver = client.nameserver();
    // One health check, not retried, first: a nameserver that is down is reported at once rather
    // than after the retries of every call up to the deadline.
    DaemonDownException.calling(
        "nameserver", nameserver, () -> client.health(nameserver, Duration.ofSeconds(2)));
    List<Registration> all =
        DaemonDownException.calling("nameserver", nameserver, () -> client.search(""));
    List<Clique> cliques =
        DaemonDownException.calling("nameserver", nameserver, () -> client.cliques(""));
    TreeMap<String, Integer> clusters = new TreeMap<>();
    TreeSet<String> sensors = new TreeSet<>();
    for (Registration r : all) {
      String cluster = r.getAttributesOrDefault("cluster", "");
      if (r.getKind().equals("proxy") && !cluster.isEmpty()) {
        clusters.putIfAbsent(cluster, 0);
      }
      if (r.getKind().equals("sensor")) {
        sensors.add(r.getName());
      }
    }
    for (Registration r : all) {
      String cluster = r.getAttributesOrDefault("cluster", "");
      if (r.getKind().equals("sensor") && clusters.containsKey(cluster)) {
        clusters.merge(cluster, 1, Integer::sum);
      }
    }
    StringBuilder b = new StringBuilder("<h1>Site</h1><p id=\"summary\" class=\"muted\">");
    b.append(plural(all.size(), "daemon"))
        .append(", ")
        .append(plural(sensors.size(), "host"))
        .append(" with a sensor, ")
        .append(plural(clusters.size(), "cluster"))
        .append(", ")
        .append(plural(cliques.size(), "clique"))
        .append("; nameserver ")
        .append(Html.escape(nameserver))
        .append("</p>");

    b.append("<h2>Clusters</h2><ul id=\"clusters\">");
    clusters.forEach(
        (c, n) ->
            b.append("<li><a href=\"/cluster/")
                .append(Html.segment(c))
                .append("\">")
                .append(Html.escape(c))
                .append("</a> <span class=\"muted\">")
                .append(plural(n, "sensor"))
                .append("</span></li>"));
    b.append("</ul>");
    if (clusters.isEmpty()) {
      b.append(
          hint(
              "no-clusters",
              "No cluster has a proxy yet, so there is no cluster page. Start one for a group of"
                  + " hosts (<code>nws up</code> runs one for cluster <code>local</code>):",
              "nws proxy --cluster NAME --hosts H1,H2 --nameserver " + nameserver));
    }
    if (sensors.isEmpty()) {
      b.append(
          hint(
              "no-sensors",
              "No sensor is registered, so nothing is measured. Start one on each host:",
              "nws sensor --host NAME --cluster CLUSTER --nameserver " + nameserver));
    }

    b.append("<h2>Cliques</h2>");
    if (cliques.isEmpty()) {
      b.append(
          hint(
              "no-cliques",
              "No clique yet: the network between hosts (bandwidth, latency, connect time) is"
                  + " measured only among the members of a clique. Create one with the hosts'"
                  + " sensor names:",
              "nws clique create NAME --members H1,H2,H3 --nameserver " + nameserver));
    } else {
      b.append("<table id=\"cliques\"><thead><tr><th>name</th><th>members</th><th>period</th>")
          .append("</tr></thead><tbody>");
      for (Clique c : cliques) {
        b.append("<tr><td>")
            .append(Html.escape(c.getName()))
            .append("</td><td>")
            .append(Html.escape(String.join(", ", c.getMembersList())))
            .append("</td><td>")
            .append(c.getPeriodSeconds())
            .append(" s</td></tr>");
      }
      b.append("</tbody></table>");
    }

    b.append("<h2>Daemons</h2><table id=\"daemons\"><thead><tr><th>name</th><th>kind</th>")
        .append("<th>address</th><th>health</th><th>TLS identity</th></tr></thead><tbody>");
    for (Registration r : all) {
      String health;
      String identity = "";
      String css;
      try {
        DaemonHealth h = client.identifiedHealth(r.getAddress(), Duration.ofSeconds(2));
        health = h.status().name();
        identity = h.tls() ? h.identity() : "plaintext";
        css = h.status().name().equals("SERVING") ? "ok" : "bad";
      } catch (StatusRuntimeException e) {
        health = "UNREACHABLE (" + e.getStatus().getCode() + ")";
        css = "bad";
      }
      b.append("<tr><td>")
          .append(Html.escape(r.getName()))
          .append("</td><td>")
          .append(Html.escape(r.getKind()))
          .append("</td><td>")
          .append(Html.escape(r.getAddress()))
          .append("</td><td class=\"")
          .append(css)
          .append("\">")
          .append(Html.escape(health))
          .append("</td><td>")
          .append(Html.escape(identity))
          .append("</td></tr>");
    }
    return Html.page("site", b.append("</tbody></table>").toString());
  }

  /** {@code 1 host}, {@code 2 hosts}, {@code 0 hosts}. */
  static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  /** An empty state: what is missing, and the command that adds it. */
  static String hint(String id, String text, String command) {
    return "<div class=\"hint\" id=\""
        + id
        + "\"><p>"
        + text
        + "</p><pre>"
        + Html.escape(command)
        + "</pre></div>";
  }
}
