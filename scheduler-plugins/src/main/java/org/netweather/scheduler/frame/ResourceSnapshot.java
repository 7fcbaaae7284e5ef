package org.netweather.scheduler.frame;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An immutable view of one cluster's resources at one moment, in SI units (see the package
 * documentation), with the application parameters that came with it.
 *
 * <p>Hosts are indexed 0..size()-1 in input order. Pair data is held in dense n×n arrays rather
 * than one object per pair: a 1 000-host cluster has a million ordered pairs, and the Jacobi
 * chaining step reads every one of them.
 *
 * <pre>{@code
 * ResourceSnapshot s = ResourceSnapshot.builder("lab")
 *     .host(HostResources.of("a", 1.0, 1 << 30, Map.of("secondsPerPoint", 1e-6)))
 *     .host(HostResources.of("b", 0.5, 1 << 30, Map.of("secondsPerPoint", 1e-6)))
 *     .link("a", "b", Estimate.of(1.25e6), Estimate.UNKNOWN)
 *     .build();
 * }</pre>
 */
public final class ResourceSnapshot {
  private final String cluster;
  private final long takenMs;
  private final List<HostResources> hosts;
  private final Map<String, Integer> index;
  private final Map<String, Double> parameters;
  private final double[] bandwidth;
  private final double[] bandwidthError;
  private final double[] latency;
  private final double[] latencyError;
  private final BitSet stale;

  private ResourceSnapshot(Builder b) {
    this.cluster = b.cluster;
    this.takenMs = b.takenMs;
    this.hosts = List.copyOf(b.hosts);
    this.index = Map.copyOf(b.index);
    this.parameters = Map.copyOf(b.parameters);
    b.ensureMatrices();
    // Copies, so a builder used again cannot change a snapshot already handed out.
    this.bandwidth = b.bandwidth.clone();
    this.bandwidthError = b.bandwidthError.clone();
    this.latency = b.latency.clone();
    this.latencyError = b.latencyError.clone();
    this.stale = (BitSet) b.stale.clone();
  }

  public static Builder builder(String cluster) {
    return new Builder(cluster);
  }

  public String cluster() {
    return cluster;
  }

  /** When the snapshot was taken, Unix epoch milliseconds (0 when unknown). */
  public long takenMs() {
    return takenMs;
  }

  public int size() {
    return hosts.size();
  }

  public List<HostResources> hosts() {
    return hosts;
  }

  public HostResources host(int i) {
    return hosts.get(i);
  }

  /** The index of the host called {@code name}, or -1. */
  public int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  /** Snapshot-level application parameters (e.g. problem size). */
  public Map<String, Double> parameters() {
    return parameters;
  }

  public double parameter(String key, double fallback) {
    Double v = parameters.get(key);
    return v == null ? fallback : v;
  }

  /**
   * Forecast bandwidth from {@code src} to {@code dst} in bytes/s; NaN when there is no current
   * forecast (missing or stale), which schedulers must treat as "cannot communicate".
   */
  public double bandwidth(int src, int dst) {
    int k = src * hosts.size() + dst;
    return stale.get(2 * k) ? Double.NaN : bandwidth[k];
  }

  /** Forecast round-trip latency in seconds; NaN when there is no current forecast. */
  public double latency(int src, int dst) {
    int k = src * hosts.size() + dst;
    return stale.get(2 * k + 1) ? Double.NaN : latency[k];
  }

  /** The pair's forecasts with their errors, or empty when the pair has no data at all. */
  public Optional<LinkResources> link(int src, int dst) {
    int k = src * hosts.size() + dst;
    if (Double.isNaN(bandwidth[k]) && Double.isNaN(latency[k])) {
      return Optional.empty();
    }
    return Optional.of(
        new LinkResources(
            hosts.get(src).name(),
            hosts.get(dst).name(),
            new Estimate(bandwidth[k], bandwidthError[k], stale.get(2 * k)),
            new Estimate(latency[k], latencyError[k], stale.get(2 * k + 1))));
  }

  /**
   * This snapshot with each host replaced by {@code change} applied to it (which must keep its
   * name), pairs and parameters unchanged: e.g. CPU forecasts over a job's horizon in place of the
   * next measurement's.
   */
  public ResourceSnapshot withHosts(java.util.function.UnaryOperator<HostResources> change) {
    Builder b = builder(cluster).takenMs(takenMs).parameters(parameters);
    for (HostResources h : hosts) {
      HostResources changed = change.apply(h);
      if (!changed.name().equals(h.name())) {
        throw new IllegalArgumentException(
            "a host keeps its name: " + h.name() + " became " + changed.name());
      }
      b.host(changed);
    }
    for (int i = 0; i < hosts.size(); i++) {
      for (int j = 0; j < hosts.size(); j++) {
        if (i != j) {
          link(i, j).ifPresent(l -> b.link(l.src(), l.dst(), l.bandwidth(), l.latency()));
        }
      }
    }
    return b.build();
  }

  /** A snapshot holding only the hosts at {@code indices}, in that order, with their pairs. */
  public ResourceSnapshot subset(int[] indices) {
    Builder b = builder(cluster).takenMs(takenMs).parameters(parameters);
    for (int i : indices) {
      b.host(hosts.get(i));
    }
    for (int i : indices) {
      for (int j : indices) {
        if (i != j) {
          link(i, j).ifPresent(l -> b.link(l.src(), l.dst(), l.bandwidth(), l.latency()));
        }
      }
    }
    return b.build();
  }

  /**
   * Collects hosts, then pairs. Hosts must all be added before the first pair, because pair storage
   * is sized by the host count.
   */
  public static final class Builder {
    private final String cluster;
    private long takenMs;
    private final List<HostResources> hosts = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Double> parameters = new TreeMap<>();
    private double[] bandwidth;
    private double[] bandwidthError;
    private double[] latency;
    private double[] latencyError;
    private BitSet stale;

    private Builder(String cluster) {
      this.cluster = cluster == null ? "" : cluster;
    }

    public Builder takenMs(long ms) {
      this.takenMs = ms;
      return this;
    }

    public Builder parameter(String key, double value) {
      parameters.put(key, value);
      return this;
    }

    public Builder parameters(Map<String, Double> values) {
      parameters.putAll(values);
      return this;
    }

    public Builder host(HostResources host) {
      if (bandwidth != null) {
        throw new IllegalStateException("add every host before the first pair");
      }
      if (index.putIfAbsent(host.name(), hosts.size()) != null) {
        throw new IllegalArgumentException("host '" + host.name() + "' appears twice");
      }
      hosts.add(host);
      return this;
    }

    /** Sets the pair src→dst; bandwidth in bytes/s, latency in seconds (round trip). */
    public Builder link(String src, String dst, Estimate bw, Estimate lat) {
      int i = require(src);
      int j = require(dst);
      if (i == j) {
        throw new IllegalArgumentException("pair " + src + "->" + dst + " joins a host to itself");
      }
      ensureMatrices();
      int k = i * hosts.size() + j;
      bandwidth[k] = bw.value();
      bandwidthError[k] = bw.error();
      latency[k] = lat.value();
      latencyError[k] = lat.error();
      stale.set(2 * k, bw.stale());
      stale.set(2 * k + 1, lat.stale());
      return this;
    }

    /** Sets both directions of a pair to the same fresh bandwidth (bytes/s), latency unknown. */
    public Builder symmetricBandwidth(String a, String b, double bytesPerSecond) {
      link(a, b, Estimate.of(bytesPerSecond), Estimate.UNKNOWN);
      return link(b, a, Estimate.of(bytesPerSecond), Estimate.UNKNOWN);
    }

    /** Whether src→dst has been set. */
    boolean hasLink(String src, String dst) {
      if (bandwidth == null) {
        return false;
      }
      int k = require(src) * hosts.size() + require(dst);
      return !Double.isNaN(bandwidth[k]) || !Double.isNaN(latency[k]);
    }

    private int require(String name) {
      Integer i = index.get(name);
      if (i == null) {
        throw new IllegalArgumentException("unknown host '" + name + "'");
      }
      return i;
    }

    private void ensureMatrices() {
      if (bandwidth == null) {
        int n = hosts.size() * hosts.size();
        bandwidth = nan(n);
        bandwidthError = nan(n);
        latency = nan(n);
        latencyError = nan(n);
        stale = new BitSet(2 * n);
      }
    }

    private static double[] nan(int n) {
      double[] a = new double[n];
      Arrays.fill(a, Double.NaN);
      return a;
    }

    public ResourceSnapshot build() {
      return new ResourceSnapshot(this);
    }
  }
}
