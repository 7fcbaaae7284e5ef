package org.netweather.benchmarks.site;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.ClusterSnapshot;
import org.netweather.api.v1.GetSnapshotRequest;
import org.netweather.api.v1.HostSnapshot;
import org.netweather.api.v1.ProxyGrpc;

/**
 * Watches a proxy's snapshot for testbed/faults: asks the proxy directly (not through the
 * nameserver, which may be the daemon being stalled) for its cluster's snapshot every 500 ms until
 * {@code STOP_FILE} exists, and notes every answer that lacks one of the expected hosts. Prints
 * {@code snapshot: P answers, F failed calls, hosts missing from M answers} and the first absences;
 * exit 0 when every answer held every host (and there was one), 1 otherwise.
 *
 * <pre>
 *   java -cp ... org.netweather.benchmarks.site.SnapshotPoll HOST:PORT STOP_FILE HOST...
 * </pre>
 */
public final class SnapshotPoll {
  private SnapshotPoll() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: SnapshotPoll PROXY_HOST:PORT STOP_FILE HOST...");
      System.exit(2);
    }
    Path stop = Path.of(args[1]);
    Set<String> expected = Set.copyOf(List.of(args).subList(2, args.length));
    ManagedChannel channel = NettyChannelBuilder.forTarget(args[0]).usePlaintext().build();
    int answers = 0;
    int failed = 0;
    int lacking = 0;
    List<String> notes = new ArrayList<>();
    while (!Files.exists(stop)) {
      try {
        ClusterSnapshot s =
            ProxyGrpc.newBlockingStub(channel)
                .withDeadlineAfter(5, TimeUnit.SECONDS)
                .getSnapshot(GetSnapshotRequest.getDefaultInstance());
        answers++;
        Set<String> missing = new HashSet<>(expected);
        for (HostSnapshot h : s.getHostsList()) {
          missing.remove(h.getHost());
        }
        if (!missing.isEmpty()) {
          lacking++;
          if (notes.size() < 10) {
            notes.add(Instant.now() + " without " + missing);
          }
        }
      } catch (StatusRuntimeException e) {
        failed++;
        if (notes.size() < 10) {
          notes.add(Instant.now() + " " + e.getStatus().getCode());
        }
      }
      Thread.sleep(500);
    }
    channel.shutdownNow();
    System.out.printf(
        "snapshot: %d answers, %d failed calls, hosts missing from %d answers%n",
        answers, failed, lacking);
    notes.forEach(n -> System.out.println("snapshot:   " + n));
    System.exit(answers > 0 && lacking == 0 ? 0 : 1);
  }
}
