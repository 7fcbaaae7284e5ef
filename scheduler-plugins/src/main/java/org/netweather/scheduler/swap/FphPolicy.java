package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.List;

/**
 * Swaps a bottleneck host for a better idle one only when forecasts say the swap repays its cost
 * several times over: Forecast-Payback with Hysteresis (FPH).
 *
 * <pre>
 * docs/schedulers/swapping.md, "Our policy" (our policy; Sievert and Casanova, HPDC'03, evaluated
 * payback-style
 * policies in simulation, so we claim no novelty):
 *   1. self-load correction: forecasts f_h are of speed × 1/(1 + bg_h), bg without our process
 *   2. forecast, not last sample; candidates judged by f − z·e (e = forecast MAE)
 *   3. w = argmin_active f, c = argmax_eligible idle (f − z·e);
 *      T = W / min_active f + comm, T_new the same with w replaced by c, Δ = T − T_new
 *   4. C = t_fixed + state / bw(w→c); H = min(R, τ/T_new), τ = min(τ_w, τ_c);
 *      swap iff Δ > θ·T and Δ·H > κ·C                                ({@link PaybackGate})
 *   5. the host swapped out may not return for cd·C                     ({@link Cooldown})
 *   6. repeat within the epoch while a swap qualifies
 * On identical hosts Δ ≈ 0 < θ·T, so hot-potato swaps cannot happen.
 * </pre>
 */
public final class FphPolicy implements SwapPolicy {
  private final FphParameters p;

  public FphPolicy(FphParameters parameters) {
    this.p = parameters;
  }

  @Override
  public String name() {
    return "fph";
  }

  @Override
  public List<Swap> decide(Epoch epoch) {
    List<HostView> hosts = new ArrayList<>(epoch.hosts());
    boolean[] active = new boolean[hosts.size()];
    for (int i = 0; i < hosts.size(); i++) {
      active[i] = hosts.get(i).active();
    }
    PaybackGate gate = new PaybackGate(p.theta(), p.kappa());
    List<Swap> out = new ArrayList<>();
    List<String> taken = new ArrayList<>();
    while (true) {
      int w = -1;
      for (int i = 0; i < hosts.size(); i++) {
        if (active[i] && (w < 0 || hosts.get(i).forecast() < hosts.get(w).forecast())) {
          w = i;
        }
      }
      int c = -1;
      for (int i = 0; i < hosts.size(); i++) {
        HostView h = hosts.get(i);
        if (!active[i]
            && !taken.contains(h.name())
            && epoch.cooldown().eligible(h.name(), epoch.now())
            && (c < 0 || conservative(h) > conservative(hosts.get(c)))) {
          c = i;
        }
      }
      if (w < 0 || c < 0) {
        return out;
      }
      double slowest = hosts.get(w).forecast();
      double next = conservative(hosts.get(c));
      for (int i = 0; i < hosts.size(); i++) {
        if (active[i] && i != w) {
          next = Math.min(next, hosts.get(i).forecast());
        }
      }
      double tCur = epoch.work() / Math.max(slowest, 1e-12) + epoch.comm();
      double tNew = epoch.work() / Math.max(next, 1e-12) + epoch.comm();
      double delta = tCur - tNew;
      double cost = epoch.swapCost(hosts.get(w).name(), hosts.get(c).name());
      double tau = Math.min(hosts.get(w).persistence(), hosts.get(c).persistence());
      double horizon = tau / tNew;
      if (!gate.accept(delta, tCur, epoch.remainingIterations(), horizon, cost)) {
        return out;
      }
      out.add(new Swap(hosts.get(w).name(), hosts.get(c).name()));
      taken.add(hosts.get(c).name());
      taken.add(hosts.get(w).name());
      active[w] = false;
      active[c] = true;
      // The swapped-in host now counts with its conservative rate for later swaps this epoch.
      HostView in = hosts.get(c);
      hosts.set(
          c,
          new HostView(in.name(), true, in.loadAverage(), conservative(in), 0, in.persistence()));
    }
  }

  private double conservative(HostView h) {
    return h.forecast() - p.z() * h.error();
  }
}
