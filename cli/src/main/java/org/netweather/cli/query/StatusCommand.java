package org.netweather.cli.query;

import io.grpc.StatusRuntimeException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netweather.api.v1.Registration;
import org.netweather.cli.ConnectionOptions;
import org.netweather.cli.output.JsonWriter;
import org.netweather.cli.output.Output;
import org.netweather.client.DaemonHealth;
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nws status}: every registered daemon, what its health service says, and whether it speaks
 * TLS with the identity its certificate proves.
 */
@Command(
    name = "status",
    description = "List every registered daemon with its health, TLS and certified identity.")
public class StatusCommand implements Callable<Integer> {
  @Mixin ConnectionOptions connection;
  @Spec CommandSpec spec;

  @Option(names = "--json", description = "Print a JSON document.")
  boolean json;

  @Override
  public Integer call() {
    try (NetWeatherClient client = connection.open()) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (Registration r : client.search("")) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", r.getName());
        row.put("kind", r.getKind());
        row.put("address", r.getAddress());
        DaemonHealth h = health(client, r.getAddress());
        row.put("health", h == null ? unreachable.get(r.getAddress()) : h.status().name());
        row.put("tls", h != null && h.tls());
        row.put("identity", h == null ? "" : h.identity());
        row.put("expires_ms", r.getExpiresMs());
        rows.add(row);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(JsonWriter.write(Map.of("daemons", rows)));
      } else {
        Output.Table t = new Output.Table("NAME", "KIND", "ADDRESS", "HEALTH", "TLS", "IDENTITY");
        rows.forEach(
            r ->
                t.row(
                    r.get("name"),
                    r.get("kind"),
                    r.get("address"),
                    r.get("health"),
                    Boolean.TRUE.equals(r.get("tls")) ? "yes" : "no",
                    r.get("identity")));
        t.print(out);
      }
      out.flush();
      return 0;
    }
  }

  private final Map<String, String> unreachable = new java.util.HashMap<>();

  private DaemonHealth health(NetWeatherClient client, String address) {
    try {
      return client.identifiedHealth(address, Duration.ofSeconds(2));
    } catch (StatusRuntimeException e) {
      unreachable.put(address, "UNREACHABLE (" + e.getStatus().getCode() + ")");
      return null;
    }
  }
}
