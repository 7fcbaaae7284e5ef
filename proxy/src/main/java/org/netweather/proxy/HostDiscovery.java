package org.netweather.proxy;

import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;

/**
 * Finds the hosts of a cluster: those configured, plus every sensor registered with {@code
 * cluster=NAME} (its {@code host} attribute). Hosts are listed in name order.
 */
final class HostDiscovery {
  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final String cluster;
  private final List<String> configured;

  HostDiscovery(Channel nameserver, String cluster, List<String> configured) {
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
    this.cluster = cluster;
    this.configured = List.copyOf(configured);
  }

  /** The current hosts; on a nameserver failure, just the configured ones plus {@code known}. */
  List<String> hosts(List<String> known) {
    TreeSet<String> out = new TreeSet<>(configured);
    try {
      String token = "";
      do { // the nameserver answers in pages
        SearchResponse page =
            nameserver
                .withDeadlineAfter(3, TimeUnit.SECONDS)
                .search(
                    SearchRequest.newBuilder()
                        .setFilter("(&(kind=sensor)(cluster=" + cluster + "))")
                        .setPageToken(token)
                        .build());
        for (Registration r : page.getRegistrationsList()) {
          String host = r.getAttributesOrDefault("host", "");
          if (!host.isEmpty()) {
            out.add(host);
          }
        }
        token = page.getNextPageToken();
      } while (!token.isEmpty());
    } catch (StatusRuntimeException e) {
      out.addAll(known);
    }
    return List.copyOf(out);
  }
}
