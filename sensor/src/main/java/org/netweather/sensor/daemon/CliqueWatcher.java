package org.netweather.sensor.daemon;

import io.grpc.Channel;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.ListCliquesRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.sensor.clique.CliqueConfig;
import org.netweather.sensor.clique.CliqueRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this host's clique memberships in step with the cliques the nameserver lists for it:
 * joins new ones, re-joins changed ones, leaves deleted ones.
 */
final class CliqueWatcher {
  private static final Logger log = LoggerFactory.getLogger(CliqueWatcher.class);

  private final String self;
  private final NameserverGrpc.NameserverBlockingStub nameserver;
  private final CliqueRegistry registry;
  private final PeerDirectory peers;
  private final Map<String, Clique> joined = new HashMap<>();

  CliqueWatcher(String self, Channel nameserver, CliqueRegistry registry, PeerDirectory peers) {
    this.self = self;
    this.nameserver = NameserverGrpc.newBlockingStub(nameserver);
    this.registry = registry;
    this.peers = peers;
  }

  synchronized void poll() {
    Map<String, Clique> now = new HashMap<>();
    try {
      for (Clique c : nameserver.withDeadlineAfter(3, TimeUnit.SECONDS)
          .listCliques(ListCliquesRequest.newBuilder().setHost(self).build())
          .getCliquesList()) {
        now.put(c.getName(), c);
      }
    } catch (StatusRuntimeException e) {
      return; // keep the cliques we are in while the nameserver is away
    }
    peers.refresh();
    for (String name : joined.keySet().toArray(new String[0])) {
      if (!now.containsKey(name)) {
        log.info("leaving clique {}", name);
        registry.leave(name);
        joined.remove(name);
      }
    }
    for (Clique c : now.values()) {
      if (!c.equals(joined.get(c.getName()))) {
        log.info("joining clique {} with {} every {} s", c.getName(), c.getMembersList(),
            c.getPeriodSeconds());
        registry.join(new CliqueConfig(c.getName(), c.getMembersList(),
            Duration.ofSeconds(c.getPeriodSeconds())));
        joined.put(c.getName(), c);
      }
    }
  }
}
