package org.netweather.cli.daemon;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code nws up} prints once everything has started: one short block with where each daemon is
 * registered (what other hosts and {@code nws} dial), where metrics and the dashboard are served,
 * and how the addresses were chosen.
 */
final class UpBanner {
  private final UpPlan plan;
  private final List<String[]> rows = new ArrayList<>();
  private int metricsPort = -1;
  private int webPort = -1;

  UpBanner(UpPlan plan) {
    this.plan = plan;
  }

  void metrics(int port) {
    metricsPort = port;
  }

  void daemon(String name, int port) {
    rows.add(new String[] {name, address(port)});
  }

  void sensor(int port, int probePort) {
    rows.add(new String[] {"sensor", address(port) + " (probes on port " + probePort + ")"});
  }

  void web(int port) {
    webPort = port;
  }

  String render(AdvertisedAddress advertised) {
    StringBuilder b = new StringBuilder();
    b.append("NetWeather is up: host ")
        .append(plan.host())
        .append(", cluster ")
        .append(plan.cluster())
        .append(", data in ")
        .append(plan.dataDir())
        .append('\n');
    for (String[] r : rows) {
      b.append(String.format("  %-12s %s%n", r[0], r[1]));
    }
    if (webPort >= 0) {
      b.append(String.format("  %-12s http://%s/%n", "dashboard", address(webPort)));
    }
    if (metricsPort >= 0) {
      b.append(String.format("  %-12s http://%s/metrics%n", "metrics", address(metricsPort)));
    }
    b.append(
            plan.listenAll()
                ? "Listening on every interface; registered at "
                : "Listening on loopback only (--listen-all opens every port); registered at ")
        .append(advertised.address())
        .append(
            advertised.why().equals(AdvertisedAddress.GIVEN)
                ? " (" + AdvertisedAddress.GIVEN + ")"
                : " (" + advertised.why() + "; --advertise to change)")
        .append(". Ctrl-C stops it.\n");
    return b.toString();
  }

  private String address(int port) {
    String host = plan.advertised().address();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
