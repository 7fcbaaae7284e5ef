package org.netweather.sensor.daemon;

import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;
import org.netweather.client.Filters;
import org.netweather.runtime.Addresses;

/**
 * Where other hosts' sensors are: their control address and probe address, from their registrations
 * ({@code kind=sensor}, attributes {@code host} and {@code probe}).
 *
 * <p>It holds the members of this host's cliques ({@link #refresh(Collection)}, on every clique
 * change) and looks up any other host on a miss. It never loads every sensor: at 10 000 hosts a
 * full listing on each clique change would cost the nameserver 10 000 registrations times 10 000
 * sensors at a cold start.
 */
final class PeerDirectory {
  /** One sensor's addresses. */
  record Peer(String host, String control, InetSocketAddress probe) {}

  /** Hosts asked for in one search; the filter stays a few KiB. */
  private static final int HOSTS_PER_SEARCH = 64;

  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final Map<String, Peer> peers = new ConcurrentHashMap<>();

  PeerDirectory(Channel nameserver) {
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
  }

  /**
   * Reloads the registrations of these hosts (the members of this host's cliques) and forgets any
   * other; keeps the old view if the nameserver is down.
   */
  void refresh(Collection<String> hosts) {
    try {
      Map<String, Peer> fresh = new HashMap<>();
      List<String> all = new ArrayList<>(new TreeSet<>(hosts));
      for (int i = 0; i < all.size(); i += HOSTS_PER_SEARCH) {
        for (Peer p : search(all.subList(i, Math.min(all.size(), i + HOSTS_PER_SEARCH)))) {
          fresh.put(p.host(), p);
        }
      }
      peers.keySet().retainAll(fresh.keySet());
      peers.putAll(fresh);
    } catch (StatusRuntimeException e) {
      // Keep what we knew.
    }
  }

  private List<Peer> search(List<String> hosts) {
    StringBuilder filter = new StringBuilder("(&(kind=sensor)(|");
    for (String h : hosts) {
      filter.append("(host=").append(Filters.escape(h)).append(')');
    }
    filter.append("))");
    List<Peer> found = new ArrayList<>();
    String token = "";
    do { // the nameserver answers in pages
      SearchResponse page =
          nameserver
              .withDeadlineAfter(3, TimeUnit.SECONDS)
              .search(
                  SearchRequest.newBuilder()
                      .setFilter(filter.toString())
                      .setPageToken(token)
                      .build());
      for (Registration r : page.getRegistrationsList()) {
        String host = r.getAttributesOrDefault("host", "");
        String probe = r.getAttributesOrDefault("probe", "");
        if (host.isEmpty() || probe.isEmpty() || !hosts.contains(host)) {
          continue;
        }
        try {
          Addresses.HostPort hp = Addresses.parse("probe", probe);
          found.add(new Peer(host, r.getAddress(), new InetSocketAddress(hp.host(), hp.port())));
        } catch (IllegalArgumentException e) {
          // a registration with a bad probe address is no peer of ours
        }
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    return found;
  }

  Optional<Peer> find(String host) {
    Peer p = peers.get(host);
    if (p == null) {
      try {
        for (Peer found : search(List.of(host))) {
          peers.put(found.host(), found);
          p = found;
        }
      } catch (StatusRuntimeException e) {
        // unknown for now
      }
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
