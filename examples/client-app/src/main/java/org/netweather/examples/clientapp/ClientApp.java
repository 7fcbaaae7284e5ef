package org.netweather.examples.clientapp;

import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.PairSnapshot;
import org.netweather.api.v1.ResourceForecast;
import org.netweather.client.NetWeatherClient;
import org.netweather.model.Resource;
import org.netweather.model.SeriesName;

/**
 * Prints the forecast of one series and the snapshot of one cluster, as a scheduler would read them
 * before placing work.
 *
 * <pre>
 * java -jar target/client-app-1.0.jar NAMESERVER SERIES [CLUSTER]
 * java -jar target/client-app-1.0.jar localhost:8090 cpu.availability:alpha
 * </pre>
 *
 * <p>Only the nameserver's address is needed: the client asks it where the forecaster and the
 * cluster's proxy are. Without CLUSTER the snapshot is that of the only cluster with a proxy.
 */
public final class ClientApp {
  private ClientApp() {}

  public static void main(String[] args) {
    if (args.length < 2 || args.length > 3) {
      System.err.println(
          "usage: client-app NAMESERVER SERIES [CLUSTER]"
              + "  (e.g. client-app localhost:8090 cpu.availability:alpha)");
      System.exit(2);
    }
    String nameserver = args[0];
    String problem = SeriesName.problem(args[1]);
    if (problem != null) {
      System.err.println("client-app: " + problem);
      System.exit(2);
    }
    SeriesName series = SeriesName.parse(args[1]);
    String cluster = args.length == 3 ? args[2] : null;

    // Every call gets this deadline, retries included; the client closes the channels it opened.
    try (NetWeatherClient nws =
        NetWeatherClient.forAddress(nameserver).deadline(Duration.ofSeconds(10)).build()) {
      Forecast f = nws.forecast(series.toString(), Criterion.CRITERION_MSE);
      System.out.printf(
          Locale.ROOT,
          "forecast %s: %s %s, %.0f %% interval [%s, %s], by %s after %d measurements%n",
          f.getSeries(),
          number(f.getValue()),
          Resource.unitOf(series.resource()),
          100 * f.getInterval().getConfidence(),
          number(f.getInterval().getLower()),
          number(f.getInterval().getUpper()),
          f.getMethod(),
          f.getCount());

      ClusterSnapshot snapshot = nws.snapshot(cluster);
      System.out.printf(
          Locale.ROOT,
          "cluster %s at %s: %d host(s), %d pair(s)%n",
          snapshot.getCluster(),
          Instant.ofEpochMilli(snapshot.getTakenMs()),
          snapshot.getHostsCount(),
          snapshot.getPairsCount());
      for (HostSnapshot h : snapshot.getHostsList()) {
        System.out.printf(
            Locale.ROOT,
            "  host %s: cpu.availability %s, memory.free %s%n",
            h.getHost(),
            show(h.hasCpuAvailability(), h.getCpuAvailability(), Resource.CPU_AVAILABILITY),
            show(h.hasMemoryFree(), h.getMemoryFree(), Resource.MEMORY_FREE));
      }
      for (PairSnapshot p : snapshot.getPairsList()) {
        System.out.printf(
            Locale.ROOT,
            "  pair %s->%s: tcp.bandwidth %s, tcp.latency %s%n",
            p.getSrc(),
            p.getDst(),
            show(p.hasBandwidth(), p.getBandwidth(), Resource.TCP_BANDWIDTH),
            show(p.hasLatency(), p.getLatency(), Resource.TCP_LATENCY));
      }
    } catch (StatusRuntimeException e) {
      // Failures arrive as gRPC statuses: UNAVAILABLE (nothing there), NOT_FOUND (no such series
      // or cluster), DEADLINE_EXCEEDED, FAILED_PRECONDITION (too few measurements yet), ...
      System.err.println(
          "client-app: "
              + nameserver
              + ": "
              + e.getStatus().getCode()
              + ": "
              + e.getStatus().getDescription());
      System.exit(1);
    }
  }

  private static String show(boolean present, ResourceForecast r, Resource resource) {
    if (!present) {
      return "none";
    }
    return String.format(
        Locale.ROOT,
        "%s %s (%s, measured %.1f s before%s)",
        number(r.getValue()),
        resource.unit(),
        r.getMethod(),
        r.getAgeMs() / 1000.0,
        r.getStale() ? ", STALE" : "");
  }

  /** Four significant digits, without an exponent for the megabits and mebibytes of a site. */
  private static String number(double v) {
    return Math.abs(v) >= 1000
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.4g", v);
  }
}
