package org.netweather.cli.web;

import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import org.netweather.api.v1.Registration;
import org.netweather.client.DaemonHealth;
import org.netweather.client.NetWeatherClient;

/** The site page: every cluster with a proxy, and every registered daemon with its health. */
final class SiteView {
  private SiteView() {}

  static String render(NetWeatherClient client) {
    List<Registration> all = client.search("");
    TreeSet<String> clusters = new TreeSet<>();
    for (Registration r : all) {
      if (r.getKind().equals("proxy") && !r.getAttributesOrDefault("cluster", "").isEmpty()) {
        clusters.add(r.getAttributesOrDefault("cluster", ""));
      }
    }
    StringBuilder b = new StringBuilder("<h1>Site</h1><h2>Clusters</h2><ul id=\"clusters\">");
    for (String c : clusters) {
      b.append("<li><a href=\"/cluster/")
          .append(Html.segment(c))
          .append("\">")
          .append(Html.escape(c))
          .append("</a></li>");
    }
    if (clusters.isEmpty()) {
      b.append("<li class=\"missing\">no proxy is registered</li>");
    }
    b.append("</ul><h2>Daemons</h2><table id=\"daemons\"><thead><tr><th>name</th><th>kind</th>")
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
}
