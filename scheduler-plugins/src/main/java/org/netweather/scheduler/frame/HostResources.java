package org.netweather.scheduler.frame;

import java.util.Map;

/**
 * One host's resources and application parameters.
 *
 * @param name the host name as NetWeather knows it
 * @param cpuAvailability fraction of one CPU a new process would get
 * @param memoryFree bytes a new process could use without paging
 * @param interferenceSend fraction of compute rate lost per MB/s this host sends
 * @param interferenceRecv fraction of compute rate lost per MB/s this host receives
 * @param parameters application parameters for this host (e.g. {@code secondsPerPoint})
 */
public record HostResources(
    String name,
    Estimate cpuAvailability,
    Estimate memoryFree,
    Estimate interferenceSend,
    Estimate interferenceRecv,
    Map<String, Double> parameters) {
  public HostResources {
    parameters = Map.copyOf(parameters);
  }

  /** A host with CPU and memory only, for tests and synthetic inputs. */
  public static HostResources of(
      String name, double cpu, double memoryBytes, Map<String, Double> parameters) {
    return new HostResources(
        name,
        Estimate.of(cpu),
        Estimate.of(memoryBytes),
        Estimate.UNKNOWN,
        Estimate.UNKNOWN,
        parameters);
  }

  /** The parameter {@code key}, or {@code fallback} when this host does not set it. */
  public double parameter(String key, double fallback) {
    Double v = parameters.get(key);
    return v == null ? fallback : v;
  }
}
