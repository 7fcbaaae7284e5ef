package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One application's swap manager: which host holds each rank, where the active root is, the policy,
 * the cooldowns and the log of swaps.
 *
 * <pre>
 * Sievert and Casanova, TR CS2003-0735, §3 (docs/schedulers/swapping.md, "Architecture"): the
 * active root asks at each
 * swap point; a decision "swap a ↔ b" goes to the handler of the <em>current</em> active root,
 * and when the root's own host is swapped out the root pointer moves to the host that took
 * rank 0 (W4: 0 → 1 → N).
 * </pre>
 *
 * <p>Thread-safety: all methods are synchronized; the dispatcher and the application's swap points
 * may call from different threads.
 */
public final class SwapManager {
  private final String application;
  private final SwapPolicy policy;
  private final double cooldownFactor;
  private final Cooldown cooldown = new Cooldown();
  private final Map<Integer, String> rankHost = new LinkedHashMap<>();
  private final List<String> hosts;
  private final List<Event> log = new ArrayList<>();
  private SwapPolicy.Swap forced;

  /** A swap that happened, and who was told about it. */
  public record Event(
      double time, String out, String in, int rank, String toldRoot, boolean forced) {}

  /** Ranks 0..p−1 start on the first p of {@code hosts}. */
  public SwapManager(
      String application,
      List<String> hosts,
      int active,
      SwapPolicy policy,
      double cooldownFactor) {
    if (active < 1 || active > hosts.size()) {
      throw new IllegalArgumentException(
          "need 1 <= active <= hosts, got " + active + " of " + hosts.size());
    }
    this.application = application;
    this.hosts = List.copyOf(hosts);
    this.policy = policy;
    this.cooldownFactor = cooldownFactor;
    for (int r = 0; r < active; r++) {
      rankHost.put(r, hosts.get(r));
    }
  }

  public String application() {
    return application;
  }

  public synchronized String root() {
    return rankHost.get(0);
  }

  public synchronized Map<Integer, String> ranks() {
    return Map.copyOf(rankHost);
  }

  public synchronized boolean isActive(String host) {
    return rankHost.containsValue(host);
  }

  public List<String> hosts() {
    return hosts;
  }

  public String policyName() {
    return policy.name();
  }

  public synchronized List<Event> log() {
    return List.copyOf(log);
  }

  /** Queues a swap to make at the next swap point, whatever the policy thinks. */
  public synchronized void force(String out, String in) {
    if (!isActive(out) || isActive(in) || !hosts.contains(in)) {
      throw new IllegalArgumentException(
          "force: " + out + " must be active and " + in + " an idle host of " + application);
    }
    forced = new SwapPolicy.Swap(out, in);
  }

  /**
   * A swap point of the active root at {@code epoch.now()}: applies the forced swap or the
   * policy's, records them, and returns them as (rank, out, in) for the handlers.
   */
  public synchronized List<Event> swapPoint(SwapPolicy.Epoch epoch) {
    List<SwapPolicy.Swap> swaps = new ArrayList<>();
    boolean wasForced = forced != null;
    if (forced != null) {
      swaps.add(forced);
      forced = null;
    } else {
      swaps.addAll(policy.decide(epoch));
    }
    List<Event> done = new ArrayList<>();
    for (SwapPolicy.Swap s : swaps) {
      Integer rank = null;
      for (Map.Entry<Integer, String> e : rankHost.entrySet()) {
        if (e.getValue().equals(s.out())) {
          rank = e.getKey();
        }
      }
      if (rank == null || rankHost.containsValue(s.in())) {
        continue; // the policy raced with a forced swap; skip what no longer applies
      }
      String told = root();
      rankHost.put(rank, s.in());
      cooldown.swappedOut(s.out(), epoch.now(), epoch.swapCost(s.out(), s.in()), cooldownFactor);
      Event ev = new Event(epoch.now(), s.out(), s.in(), rank, told, wasForced);
      log.add(ev);
      done.add(ev);
    }
    return done;
  }

  /** The cooldown state the epochs of this manager must carry. */
  public Cooldown cooldown() {
    return cooldown;
  }
}
