package org.netweather.sensor.daemon;

import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.runtime.Addresses;

/**
 * Where other hosts' sensors are: their control address and probe address, from their registrations
 * ({@code kind=sensor}, attributes {@code host} and {@code probe}). Refreshed on a miss and by
 * {@link #refresh()}.
 */
final class PeerDirectory {
  /** One sensor's addresses. */
  record Peer(String host, String control, InetSocketAddress probe) {}

  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final Map<String, Peer> peers = new ConcurrentHashMap<>();

  PeerDirectory(Channel nameserver) {
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
  }

  /** Reloads every sensor registration; keeps the old view if the nameserver is down. */
  void refresh() {
    try {
      Map<String, Peer> fresh = new ConcurrentHashMap<>();
      List<Registration> sensors = new ArrayList<>();
      String token = "";
      do { // the nameserver answers in pages
        SearchResponse page =
            nameserver
                .withDeadlineAfter(3, TimeUnit.SECONDS)
                .search(
                    SearchRequest.newBuilder()
                        .setFilter("(kind=sensor)")
                        .setPageToken(token)
                        .build());
        sensors.addAll(page.getRegistrationsList());
        token = page.getNextPageToken();
      } while (!token.isEmpty());
      for (Registration r : sensors) {
        String host = r.getAttributesOrDefault("host", "");
        String probe = r.getAttributesOrDefault("probe", "");
        if (host.isEmpty() || probe.isEmpty()) {
          continue;
        }
        Addresses.HostPort hp = Addresses.parse("probe", probe);
        fresh.put(
            host, new Peer(host, r.getAddress(), new InetSocketAddress(hp.host(), hp.port())));
      }
      peers.clear();
      peers.putAll(fresh);
    } catch (StatusRuntimeException | IllegalArgumentException e) {
      // Keep what we knew.
    }
  }

  Optional<Peer> find(String host) {
    Peer p = peers.get(host);
    if (p == null) {
      refresh();
      p = peers.get(host);
    }
    return Optional.ofNullable(p);
  }

  /** Whether a remote address belongs to a registered sensor (for the probe allow-list). */
  boolean isSensorAddress(InetSocketAddress remote) {
    if (remote.getAddress() == null) {
      return false;
    }
    if (remote.getAddress().isLoopbackAddress()) {
      return true;
    }
    for (Peer p : peers.values()) {
      if (remote.getAddress().equals(p.probe().getAddress())) {
        return true;
      }
    }
    return false;
  }
}
