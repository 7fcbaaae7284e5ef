package org.netweather.sensor.clique;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The cliques this host belongs to, each with its own token: the daemon's entry point to the clique
 * protocol.
 *
 * <pre>{@code
 * ScheduledExecutorService cliqueThread = Executors.newSingleThreadScheduledExecutor(...);
 * CliqueRegistry cliques = new CliqueRegistry("alpha", CliqueScheduler.of(cliqueThread),
 *     grpcTokenSender, probeExperiments, System::currentTimeMillis, CliqueOptions.defaults());
 * cliques.join(new CliqueConfig("lan", List.of("alpha", "beta", "gamma"), Duration.ofSeconds(60)));
 * // in SensorControl.PassToken:
 * cliques.receive(CliqueTokens.fromProto(request)).thenAccept(verdict -> reply(verdict));
 * }</pre>
 *
 * <p>A host may be in several cliques; their tokens circulate independently, and probes of
 * different cliques may overlap, as in the original. A host handed the token of a clique it has not
 * joined, but whose member list names it, joins on the spot (so a clique created at one member
 * reaches the rest with its first token). A clique this host has left refuses tokens until it is
 * joined again.
 *
 * <p>Thread-safe: every change runs on the scheduler's thread.
 */
public final class CliqueRegistry implements AutoCloseable {

  private final String self;
  private final CliqueScheduler scheduler;
  private final TokenSender sender;
  private final CliqueExperiments experiments;
  private final LongSupplier wallMs;
  private final CliqueOptions options;
  private final Map<String, CliqueMember> cliques = new ConcurrentHashMap<>();

  /**
   * @param self this host's name as it appears in member lists
   * @param wallMs Unix epoch ms, stamped on tokens as they are passed
   */
  public CliqueRegistry(
      String self,
      CliqueScheduler scheduler,
      TokenSender sender,
      CliqueExperiments experiments,
      LongSupplier wallMs,
      CliqueOptions options) {
    this.self = self;
    this.scheduler = scheduler;
    this.sender = sender;
    this.experiments = experiments;
    this.wallMs = wallMs;
    this.options = options;
  }

  /**
   * Joins a clique, or takes a new member list or period for one already joined (applied at this
   * host's next turn, and carried to the others by the token).
   */
  public void join(CliqueConfig config) {
    scheduler.execute(
        () -> {
          CliqueMember existing = cliques.get(config.name());
          if (existing != null && existing.state() != CliqueMember.State.STOPPED) {
            existing.reconfigure(config);
            return;
          }
          CliqueToken lastSeen = existing == null ? null : existing.lastToken();
          CliqueMember m = newMember(config, lastSeen);
          cliques.put(config.name(), m);
          m.start();
        });
  }

  /** Leaves a clique; its later tokens are refused. */
  public void leave(String name) {
    scheduler.execute(
        () -> {
          CliqueMember m = cliques.get(name);
          if (m != null) {
            m.stop();
          }
        });
  }

  /** Handles a token handed to this host; the future completes with the answer for the sender. */
  public CompletableFuture<TokenVerdict> receive(CliqueToken token) {
    CompletableFuture<TokenVerdict> verdict = new CompletableFuture<>();
    scheduler.execute(
        () -> {
          try {
            verdict.complete(route(token));
          } catch (RuntimeException e) {
            verdict.completeExceptionally(e);
          }
        });
    return verdict;
  }

  private TokenVerdict route(CliqueToken token) {
    CliqueMember m = cliques.get(token.clique());
    if (m == null) {
      if (!token.members().contains(self)) {
        return TokenVerdict.NOT_MEMBER;
      }
      m = newMember(new CliqueConfig(token.clique(), token.members(), token.period()), null);
      cliques.put(token.clique(), m);
    }
    return m.onToken(token);
  }

  /** Names of the cliques this host takes part in now. */
  public List<String> cliques() {
    List<String> names = new ArrayList<>();
    cliques.forEach(
        (name, m) -> {
          if (m.state() != CliqueMember.State.STOPPED) {
            names.add(name);
          }
        });
    names.sort(null);
    return names;
  }

  /** A snapshot of every clique, taken on the scheduler's thread. */
  public CompletableFuture<List<CliqueStatus>> status() {
    CompletableFuture<List<CliqueStatus>> result = new CompletableFuture<>();
    scheduler.execute(
        () -> {
          List<CliqueStatus> all = new ArrayList<>();
          cliques.values().forEach(m -> all.add(m.status()));
          all.sort((a, b) -> a.name().compareTo(b.name()));
          result.complete(all);
        });
    return result;
  }

  /** Leaves every clique. */
  @Override
  public void close() {
    scheduler.execute(() -> cliques.values().forEach(CliqueMember::stop));
  }

  private CliqueMember newMember(CliqueConfig config, CliqueToken lastSeen) {
    return new CliqueMember(
        self, config, lastSeen, scheduler, sender, experiments, wallMs, options);
  }
}
