package org.netweather.cli.query;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.netweather.api.v1.MissingDaemon;
import org.netweather.api.v1.Registration;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.client.DaemonHealth;
import org.netweather.client.NetWeatherClient;
import org.netweather.client.TransportFailures;
import org.netweather.runtime.Daemon;
import org.netweather.runtime.NamedThreadFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nws status}: every daemon the site expects, what its health service says, and whether it
 * speaks TLS with the identity its certificate proves. Expected means registered now, registered
 * before and gone (the nameserver keeps those a while, see {@code ListMissing}), or a host named in
 * a clique or in a proxy's host list without a sensor. Fit for a health check: the exit status is
 * {@value #ALL_SERVING} only when every one of them answers SERVING.
 */
@Command(
    name = "status",
    description = {
      "List every daemon the site expects with its state (SERVING, NOT_SERVING, UNREACHABLE or"
          + " MISSING), the reason, TLS and certified identity.",
      "Daemons that advertise their metrics endpoint also show what damage cost them (damaged"
          + " series and reads, journal records lost, spool measurements dropped) and, for"
          + " sensors, the clock offset, flagged past "
          + StatusCommand.CLOCK_BOUND_SECONDS
          + " s; only non-zero counts in the table, all in --json.",
      "Exit status: 0 every daemon is serving; 3 one or more is not serving, unreachable or"
          + " missing; 1 the nameserver could not be asked; 2 bad usage. Damage and clock offsets"
          + " alone do not change it."
    })
public class StatusCommand implements Callable<Integer> {
  /** Every daemon answered SERVING. */
  public static final int ALL_SERVING = 0;

  /** At least one daemon is not serving, unreachable or missing. */
  public static final int DAEMON_DOWN = 3;

  static final String SERVING = "SERVING";
  static final String UNREACHABLE = "UNREACHABLE";
  static final String MISSING = "MISSING";

  private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);

  /** Past this offset a sensor stamps with the site's time instead of its own (its SiteClock). */
  static final int CLOCK_BOUND_SECONDS = 30;

  /** Endpoints read at once: a site of hundreds of sensors must not open hundreds of sockets. */
  private static final int METRICS_READERS = 8;

  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(
      names = "--json",
      description =
          "Print a JSON document: {\"daemons\": [{name, kind, address, state, reason, last_seen_ms,"
              + " last_seen, health, tls, identity, expires_ms, metrics, metrics_error,"
              + " clock_offset_seconds, clock_flagged}], \"down\": N}; metrics holds the damage"
              + " counts (null when the daemon advertises no endpoint).")
  boolean json;

  Clock clock = Clock.systemUTC();

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      List<Registration> live = client.search("");
      List<Map<String, Object>> rows = new ArrayList<>();
      for (Registration r : live) {
        rows.add(liveRow(client, r));
      }
      readMetrics(live, rows);
      for (MissingDaemon m : missing(client)) {
        rows.add(missingRow(m));
      }
      for (ExpectedSensors.Expected e :
          ExpectedSensors.without(live, missingNames(rows), client.cliques(""))) {
        Map<String, Object> row = row(e.name(), "sensor", "");
        row.put("state", MISSING);
        row.put("reason", e.reason());
        rows.add(row);
      }
      long down = rows.stream().filter(r -> !SERVING.equals(r.get("state"))).count();
      print(rows, down);
      return down == 0 ? ALL_SERVING : DAEMON_DOWN;
    }
  }

  private Map<String, Object> liveRow(NetWeatherClient client, Registration r) {
    Map<String, Object> row = row(r.getName(), r.getKind(), r.getAddress());
    try {
      DaemonHealth h = client.identifiedHealth(r.getAddress(), HEALTH_TIMEOUT);
      String state = h.status().name();
      row.put("state", state);
      row.put("reason", state.equals(SERVING) ? "" : "its health service answers " + state);
      row.put("last_seen_ms", clock.millis());
      row.put("health", state);
      row.put("tls", h.tls());
      row.put("identity", h.identity());
    } catch (StatusRuntimeException e) {
      row.put("state", UNREACHABLE);
      row.put(
          "reason",
          "does not answer at "
              + r.getAddress()
              + ": "
              + TransportFailures.describe(e.getStatus(), r.getAddress(), connection.plaintext())
              + "; its lease runs until "
              + Instant.ofEpochMilli(r.getExpiresMs()));
      row.put("health", "UNREACHABLE (" + e.getStatus().getCode() + ")");
    }
    row.put("expires_ms", r.getExpiresMs());
    return row;
  }

  private static Map<String, Object> missingRow(MissingDaemon m) {
    Registration r = m.getRegistration();
    Map<String, Object> row = row(r.getName(), r.getKind(), r.getAddress());
    row.put("state", MISSING);
    Instant last = Instant.ofEpochMilli(m.getLastSeenMs());
    row.put(
        "reason",
        m.getReason().equals("unregistered")
            ? "unregistered at " + last + " (stopped)"
            : m.getReason()
                + " at "
                + Instant.ofEpochMilli(r.getExpiresMs())
                + "; last heartbeat "
                + last);
    row.put("last_seen_ms", m.getLastSeenMs());
    row.put("last_seen", last.toString());
    row.put("expires_ms", r.getExpiresMs());
    return row;
  }

  private static Map<String, Object> row(String name, String kind, String address) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("name", name);
    row.put("kind", kind);
    row.put("address", address);
    row.put("state", "");
    row.put("reason", "");
    row.put("last_seen_ms", null);
    row.put("last_seen", "");
    row.put("health", MISSING);
    row.put("tls", false);
    row.put("identity", "");
    row.put("expires_ms", null);
    row.put("metrics", null);
    row.put("metrics_error", null);
    row.put("clock_offset_seconds", null);
    row.put("clock_flagged", false);
    return row;
  }

  /**
   * Reads the metrics of every serving daemon that advertises an endpoint, a few at a time, each
   * within {@link #HEALTH_TIMEOUT}; a failure is shown on its row, never fails the command.
   */
  private void readMetrics(List<Registration> live, List<Map<String, Object>> rows) {
    DaemonMetrics reader = new DaemonMetrics(HEALTH_TIMEOUT);
    Map<Integer, Future<Map<String, Object>>> pending = new LinkedHashMap<>();
    ExecutorService pool =
        Executors.newFixedThreadPool(METRICS_READERS, new NamedThreadFactory("status-metrics"));
    try {
      for (int i = 0; i < live.size(); i++) {
        Registration r = live.get(i);
        String address = r.getAttributesOrDefault(Daemon.METRICS, "");
        if (!address.isEmpty() && SERVING.equals(rows.get(i).get("state"))) {
          String label = r.getAttributesOrDefault(Daemon.METRICS_DAEMON, r.getKind());
          pending.put(i, pool.submit(() -> reader.read(address, label)));
        }
      }
      for (int i = 0; i < live.size(); i++) {
        Map<String, Object> row = rows.get(i);
        Future<Map<String, Object>> f = pending.get(i);
        if (f != null) {
          try {
            row.put("metrics", f.get());
          } catch (ExecutionException e) {
            row.put(
                "metrics_error",
                "metrics unreachable at "
                    + live.get(i).getAttributesOrDefault(Daemon.METRICS, "")
                    + ": "
                    + why(e.getCause()));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            row.put("metrics_error", "metrics not read: interrupted");
          }
        }
        clock(live.get(i), row);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * The failure's own words, or its kind when it has none (a refused connection often has none).
   */
  private static String why(Throwable t) {
    String m = t.getMessage();
    return m == null || m.isBlank() ? t.getClass().getSimpleName() : m;
  }

  /**
   * A sensor's clock offset: from its metrics, else from its registration (which says it while the
   * sensor corrects its stamps); flagged past the bound.
   */
  private static void clock(Registration r, Map<String, Object> row) {
    Double offset = null;
    if (row.get("metrics") instanceof Map<?, ?> m
        && m.get("clock_offset_seconds") instanceof Double d) {
      offset = d;
    } else if (!r.getAttributesOrDefault("clock_offset_ms", "").isEmpty()) {
      try {
        offset = Long.parseLong(r.getAttributesOrDefault("clock_offset_ms", "")) / 1000.0;
      } catch (NumberFormatException e) {
        offset = null; // an attribute this version cannot read: show nothing rather than fail
      }
    }
    row.put("clock_offset_seconds", offset);
    row.put("clock_flagged", offset != null && Math.abs(offset) > CLOCK_BOUND_SECONDS);
  }

  /** The non-zero damage counts and a flagged clock offset, for the table; - when none. */
  static String notesCell(Map<String, Object> r) {
    List<String> notes = new ArrayList<>();
    if (r.get("metrics_error") != null) {
      notes.add("metrics unreachable");
    }
    if (r.get("metrics") instanceof Map<?, ?> m) {
      for (String key : DaemonMetrics.DAMAGE.values().stream().sorted().toList()) {
        if (m.get(key) instanceof Long n && n != 0) {
          notes.add(key.replace('_', ' ') + " " + n);
        }
      }
    }
    if (Boolean.TRUE.equals(r.get("clock_flagged"))) {
      notes.add(
          String.format(
              Locale.ROOT,
              "clock offset %+.1f s (past %d s)",
              (Double) r.get("clock_offset_seconds"),
              CLOCK_BOUND_SECONDS));
    }
    return notes.isEmpty() ? "-" : String.join(", ", notes);
  }

  /** The nameserver's missing daemons; none from a nameserver older than ListMissing. */
  private static List<MissingDaemon> missing(NetWeatherClient client) {
    try {
      return client.registry().missing();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
        return List.of();
      }
      throw e;
    }
  }

  private static List<String> missingNames(List<Map<String, Object>> rows) {
    return rows.stream().map(r -> String.valueOf(r.get("name"))).toList();
  }

  /** yes or no for a daemon that answered; - where nothing answered to tell. */
  private static String tlsCell(Map<String, Object> r) {
    if (!String.valueOf(r.get("health")).equals(r.get("state")) || MISSING.equals(r.get("state"))) {
      return "-";
    }
    return Boolean.TRUE.equals(r.get("tls")) ? "yes" : "no";
  }

  private void print(List<Map<String, Object>> rows, long down) {
    for (Map<String, Object> r : rows) {
      if (r.get("last_seen_ms") instanceof Long ms
          && String.valueOf(r.get("last_seen")).isEmpty()) {
        r.put("last_seen", Instant.ofEpochMilli(ms).toString());
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("daemons", rows);
      doc.put("down", down);
      out.println(JsonWriter.write(doc));
    } else {
      Output.Table t =
          new Output.Table(
              "NAME",
              "KIND",
              "ADDRESS",
              "STATE",
              "TLS",
              "IDENTITY",
              "LAST SEEN",
              "DAMAGE/CLOCK",
              "REASON");
      rows.forEach(
          r ->
              t.row(
                  r.get("name"),
                  r.get("kind"),
                  r.get("address").toString().isEmpty() ? "-" : r.get("address"),
                  r.get("state"),
                  tlsCell(r),
                  r.get("identity"),
                  r.get("last_seen"),
                  notesCell(r),
                  r.get("reason")));
      t.print(out);
      if (down > 0) {
        out.println(down + (down == 1 ? " daemon is" : " daemons are") + " not serving");
      }
    }
    out.flush();
  }
}
