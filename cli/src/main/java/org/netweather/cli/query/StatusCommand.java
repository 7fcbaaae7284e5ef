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
import org.netweather.client.NetWeatherClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nws status}: every registered daemon and what its health service says. */
@Command(name = "status", description = "List every registered daemon with its health.")
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
        row.put("health", health(client, r.getAddress()));
        row.put("expires_ms", r.getExpiresMs());
        rows.add(row);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(JsonWriter.write(Map.of("daemons", rows)));
      } else {
        Output.Table t = new Output.Table("NAME", "KIND", "ADDRESS", "HEALTH");
        rows.forEach(r -> t.row(r.get("name"), r.get("kind"), r.get("address"), r.get("health")));
        t.print(out);
      }
      out.flush();
      return 0;
    }
  }

  private static String health(NetWeatherClient client, String address) {
    try {
      return client.health(address, Duration.ofSeconds(2)).name();
    } catch (StatusRuntimeException e) {
      return "UNREACHABLE (" + e.getStatus().getCode() + ")";
    }
  }
}
