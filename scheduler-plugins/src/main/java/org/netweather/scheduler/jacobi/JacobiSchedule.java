package org.netweather.scheduler.jacobi;

import java.util.List;
import java.util.Map;

/**
 * What {@link JacobiScheduler} decided: the strips, in order, and how it got there.
 *
 * @param size N
 * @param hosts hosts in strip order; empty when no candidate was feasible
 * @param widths columns per strip, summing to N
 * @param stripSeconds predicted iteration time of each strip with its whole-column width
 * @param predictedSeconds predicted iteration time: the slowest strip; NaN when infeasible
 * @param balancedSeconds T of the real-valued balance before rounding; NaN when infeasible
 * @param locus where the resource list starts; null when no host was usable
 * @param list the resource list (strip order of every candidate is a prefix of it)
 * @param candidates every candidate tried, in order
 * @param excluded hosts left out before selection, with the reason
 */
public record JacobiSchedule(
    int size,
    List<String> hosts,
    List<Integer> widths,
    List<Double> stripSeconds,
    double predictedSeconds,
    double balancedSeconds,
    String locus,
    List<String> list,
    List<Candidate> candidates,
    Map<String, String> excluded) {

  public JacobiSchedule {
    hosts = List.copyOf(hosts);
    widths = List.copyOf(widths);
    stripSeconds = List.copyOf(stripSeconds);
    list = List.copyOf(list);
    candidates = List.copyOf(candidates);
    excluded = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(excluded));
  }

  public boolean feasible() {
    return !hosts.isEmpty();
  }

  /**
   * One candidate resource set.
   *
   * @param k how many hosts of the list it started from
   * @param hosts the hosts actually used, in strip order (the capped solver may drop some)
   * @param balancedSeconds T of the real-valued balance (reported even when rejected)
   * @param predictedSeconds slowest strip after rounding; NaN when rejected
   * @param verdict "ok", "ok (...)" or why it was rejected
   */
  public record Candidate(
      int k, List<String> hosts, double balancedSeconds, double predictedSeconds, String verdict) {
    public boolean accepted() {
      return !Double.isNaN(predictedSeconds);
    }
  }
}
