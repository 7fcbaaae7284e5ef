package org.netweather.clients.cli;

import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Registration;
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
    try (ConnectionOptions.Session s = connection.open()) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (Registration r : s.client().search("")) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", r.getName());
        row.put("kind", r.getKind());
        row.put("address", r.getAddress());
        row.put("health", health(s, r.getAddress()));
        row.put("expires_ms", r.getExpiresMs());
        rows.add(row);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(JsonWriter.write(Map.of("daemons", rows)));
      } else {
        Output.Table t = new Output.Table("NAME", "KIND", "ADDRESS", "HEALTH");
        rows.forEach(r -> t.row(r.get("name"), r.get("kind"), r.get("address"),
            r.get("health")));
        t.print(out);
      }
      out.flush();
      return 0;
    }
  }

  private static String health(ConnectionOptions.Session s, String address) {
    try {
      return HealthGrpc.newBlockingStub(s.client().channel(address))
          .withDeadlineAfter(2, TimeUnit.SECONDS)
          .check(HealthCheckRequest.getDefaultInstance()).getStatus().name();
    } catch (StatusRuntimeException e) {
      return "UNREACHABLE (" + e.getStatus().getCode() + ")";
    }
  }
}
