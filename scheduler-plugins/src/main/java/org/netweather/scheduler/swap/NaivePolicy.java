package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The paper's policy: performance = 1/load average of the latest sample; if the best inactive host
 * looks better than the worst active one, swap them (one swap per measurement).
 *
 * <pre>
 * Sievert and Casanova, "MPI Process Swapping", UCSD TR CS2003-0735, §4: no hysteresis, no
 * volatility model, no application information. With {@code selfCorrected} the load average of
 * an active host first loses our own process (docs/schedulers/swapping.md, "The simulator"), which
 * alone
 * removes the hot potato but still swaps on every noisy blip.
 * </pre>
 */
public final class NaivePolicy implements SwapPolicy {
  private final boolean selfCorrected;

  public NaivePolicy(boolean selfCorrected) {
    this.selfCorrected = selfCorrected;
  }

  @Override
  public String name() {
    return selfCorrected ? "naive_corr" : "naive";
  }

  private double performance(HostView h, boolean active) {
    double load = selfCorrected ? SelfLoad.background(h.loadAverage(), active) : h.loadAverage();
    return selfCorrected ? 1 / (1 + load) : 1 / Math.max(load, 1e-9);
  }

  @Override
  public List<Swap> decide(Epoch epoch) {
    List<HostView> active = new ArrayList<>();
    List<HostView> idle = new ArrayList<>();
    epoch.hosts().forEach(h -> (h.active() ? active : idle).add(h));
    active.sort(Comparator.comparingDouble(h -> performance(h, true)));
    idle.sort(Comparator.comparingDouble((HostView h) -> performance(h, false)).reversed());
    // One swap per new measurement, as the paper's manager did.
    if (!active.isEmpty()
        && !idle.isEmpty()
        && performance(idle.get(0), false) > performance(active.get(0), true)) {
      return List.of(new Swap(active.get(0).name(), idle.get(0).name()));
    }
    return List.of();
  }
}
