package org.netweather.cli.web;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.netweather.cli.ConnectionOptions;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nws web [--port 8095] [--bind ADDR] [--threshold RESOURCE=WARNING,CRITICAL]...}: the
 * dashboard, in the foreground.
 */
@Command(
    name = "web",
    description =
        "Serve the dashboard (site, clusters with live matrices, series with forecast bands) in"
            + " the foreground, reading the site through the nameserver like nws does.")
public final class WebCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(
      names = "--port",
      defaultValue = "8095",
      paramLabel = "PORT",
      description = "HTTP port (default: ${DEFAULT-VALUE}; 0 picks a free one).")
  int port;

  @Option(
      names = "--bind",
      defaultValue = "127.0.0.1",
      paramLabel = "ADDR",
      description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every one).")
  String bind;

  @Option(
      names = "--threshold",
      paramLabel = "RESOURCE=WARNING,CRITICAL",
      description =
          "Colour thresholds of a resource in its unit, e.g. tcp.bandwidth=100,10 (Mbit/s) or"
              + " tcp.latency=5,50 (ms); critical below warning means low values are bad."
              + " Repeatable; docs/dashboard.md lists the defaults.")
  List<String> thresholds = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    DashboardSettings settings = DashboardSettings.defaults();
    for (String t : thresholds) {
      settings = settings.withThreshold(t);
    }
    NetWeatherClient client = connection.open();
    WebServer web = WebServer.start(client, bind, port, Clock.systemUTC(), settings);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  web.close();
                  client.close();
                },
                "web-shutdown"));
    spec.commandLine().getOut().println("dashboard at http://" + bind + ":" + web.port() + "/");
    spec.commandLine().getOut().flush();
    new CountDownLatch(1).await();
    return 0;
  }
}
