package org.netweather.sensor.clique;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Hosts running {@link CliqueRegistry}s on one fake clock, passing tokens to each other directly
 * and recording every experiment as an interval of fake time.
 */
final class FakeCliqueNetwork {

  /** One experiment: {@code host} probed {@code peer} for {@code clique} in [start, end). */
  record Probe(String clique, String host, String peer, long start, long end) {}

  final FakeCliqueScheduler clock = new FakeCliqueScheduler();
  final Map<String, CliqueRegistry> hosts = new HashMap<>();
  final Set<String> dead = new HashSet<>();
  final Set<String> silent = new HashSet<>();
  final List<Probe> probes = new ArrayList<>();

  /** Every experiment begun, finished or not, as a probe with end = -1. */
  final List<Probe> attempts = new ArrayList<>();

  final List<String> passes = new ArrayList<>();
  Duration experimentLength = Duration.ofSeconds(1);

  CliqueRegistry add(String host) {
    CliqueRegistry r =
        new CliqueRegistry(
            host,
            clock,
            (member, token) -> send(host, member, token),
            (clique, peer) -> experiment(clique, host, peer),
            clock::nowMillis,
            CliqueOptions.defaults());
    hosts.put(host, r);
    return r;
  }

  private CompletableFuture<PassOutcome> send(String from, String to, CliqueToken token) {
    if (dead.contains(from)) {
      return new CompletableFuture<>();
    }
    passes.add(from + "->" + to + "#" + token.instance() + "." + token.sequence());
    if (silent.contains(to)) {
      // Never answers: the sender's pass time-out has to skip it.
      return new CompletableFuture<>();
    }
    if (dead.contains(to) || !hosts.containsKey(to)) {
      return CompletableFuture.completedFuture(PassOutcome.UNREACHABLE);
    }
    return hosts.get(to).receive(token).thenApply(PassOutcome::of);
  }

  private CompletableFuture<Void> experiment(String clique, String host, String peer) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    if (dead.contains(host)) {
      return done;
    }
    long start = clock.nanoTime();
    attempts.add(new Probe(clique, host, peer, start, -1));
    long length = dead.contains(peer) ? Duration.ofDays(1).toNanos() : experimentLength.toNanos();
    clock.schedule(
        () -> {
          if (!done.isDone() && !dead.contains(host)) {
            probes.add(new Probe(clique, host, peer, start, clock.nanoTime()));
            done.complete(null);
          }
        },
        length);
    return done;
  }

  /** Kills a host: it stops answering and its registry stops acting. */
  void kill(String host) {
    dead.add(host);
    hosts.get(host).close();
  }

  void assertNoOverlapWithin(String clique) {
    List<Probe> ps = probes.stream().filter(p -> p.clique().equals(clique)).toList();
    for (int i = 0; i < ps.size(); i++) {
      for (int j = i + 1; j < ps.size(); j++) {
        Probe a = ps.get(i);
        Probe b = ps.get(j);
        assertTrue(a.end() <= b.start() || b.end() <= a.start(), "overlap: " + a + " and " + b);
      }
    }
  }
}
