package org.netweather.scheduler.swap;

import java.util.List;
import java.util.function.ToDoubleBiFunction;

/** Decides, at one epoch, which active hosts to swap out and for which inactive ones. */
public interface SwapPolicy {
  String name();

  /** The swaps to make now, in order; an empty list keeps the current set. */
  List<Swap> decide(Epoch epoch);

  /** One swap: the process on {@code out} moves its state to the idle one on {@code in}. */
  record Swap(String out, String in) {}

  /**
   * Everything a policy may use at an epoch.
   *
   * @param now seconds since the application started
   * @param remainingIterations R
   * @param work W, seconds per iteration on a dedicated unit-speed host
   * @param comm communication seconds per iteration
   * @param stateBytes bytes moved by a swap
   * @param fixedCost t_fixed, seconds a swap costs besides moving the state
   * @param bandwidth forecast bytes/s between two hosts
   * @param cooldown when each host may next be swapped in
   */
  record Epoch(
      double now,
      List<HostView> hosts,
      long remainingIterations,
      double work,
      double comm,
      double stateBytes,
      double fixedCost,
      ToDoubleBiFunction<String, String> bandwidth,
      Cooldown cooldown) {
    public Epoch {
      hosts = List.copyOf(hosts);
    }

    /** t_fixed + stateBytes / bw(out → in). */
    public double swapCost(String out, String in) {
      double bw = bandwidth.applyAsDouble(out, in);
      return fixedCost + (bw > 0 ? stateBytes / bw : Double.POSITIVE_INFINITY);
    }
  }
}
