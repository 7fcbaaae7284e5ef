package org.netweather.runtime.tls;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * How many connections a daemon's server accepts, how long a new one may take to become a gRPC
 * connection, and how many stream resets it takes on one. Every accepted connection costs a file
 * descriptor, and the daemon's store needs descriptors of its own (a memory-host's RocksDB files,
 * its archives, its checkpoint), so the defaults are derived from the process's descriptor limit
 * and leave a part of it to the store whatever callers do.
 *
 * @param maxConnections connections open at once from all addresses
 * @param maxConnectionsPerAddress connections open at once from one IP address; the excess is
 *     closed as soon as it is accepted, so one greedy caller cannot take the others' share
 * @param handshakeTimeout time a new connection has to finish the TLS handshake (if any) and send
 *     the HTTP/2 preface and settings; a connection that sends nothing is closed after it
 * @param maxResetsPerWindow RST_STREAM frames one connection may send per {@code resetWindow}
 *     before it is closed (HTTP/2 "rapid reset": each reset costs the server a call it set up)
 * @param resetWindow the window of {@code maxResetsPerWindow}
 */
public record ConnectionLimits(
    int maxConnections,
    int maxConnectionsPerAddress,
    Duration handshakeTimeout,
    int maxResetsPerWindow,
    Duration resetWindow) {

  /** The descriptor limit assumed when the platform does not tell. */
  static final long ASSUMED_DESCRIPTORS = 4096;

  /** Default time for a new connection to become a gRPC connection. */
  public static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * Default resets per window. A client cancelling calls sends one reset each; a thousand watches
   * cancelled at once stay well within this, a flood of resets does not.
   */
  public static final int MAX_RESETS_PER_WINDOW = 2000;

  public static final Duration RESET_WINDOW = Duration.ofSeconds(10);

  public ConnectionLimits {
    if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
      throw new IllegalArgumentException("connection limits must be at least 1");
    }
    if (maxConnectionsPerAddress > maxConnections) {
      maxConnectionsPerAddress = maxConnections;
    }
    if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
      throw new IllegalArgumentException("the handshake timeout must be positive");
    }
    if (maxResetsPerWindow < 1 || resetWindow.toSeconds() < 1) {
      throw new IllegalArgumentException("the reset limit needs at least 1 reset per 1 s");
    }
  }

  /** The defaults for this process's descriptor limit. */
  public static ConnectionLimits defaults() {
    return forDescriptors(descriptorLimit());
  }

  /**
   * The defaults for a process that may open {@code descriptors} files: a quarter of them (at least
   * 256) stay for the daemon's own files and outgoing channels, the rest may be connections, and a
   * quarter of those (between 16 and 1024) may come from one address.
   */
  public static ConnectionLimits forDescriptors(long descriptors) {
    long reserve = Math.max(256, descriptors / 4);
    int total = (int) Math.min(Integer.MAX_VALUE, Math.max(64, descriptors - reserve));
    int perAddress = Math.max(16, Math.min(1024, total / 4));
    return new ConnectionLimits(
        total, perAddress, HANDSHAKE_TIMEOUT, MAX_RESETS_PER_WINDOW, RESET_WINDOW);
  }

  /** A copy with other connection caps. */
  public ConnectionLimits withConnections(int total, int perAddress) {
    return new ConnectionLimits(
        total, perAddress, handshakeTimeout, maxResetsPerWindow, resetWindow);
  }

  /** A copy with another handshake timeout. */
  public ConnectionLimits withHandshakeTimeout(Duration timeout) {
    return new ConnectionLimits(
        maxConnections, maxConnectionsPerAddress, timeout, maxResetsPerWindow, resetWindow);
  }

  /** A copy with another limit on stream resets. */
  public ConnectionLimits withResets(int max, Duration window) {
    return new ConnectionLimits(
        maxConnections, maxConnectionsPerAddress, handshakeTimeout, max, window);
  }

  /** The process's limit on open files, or {@link #ASSUMED_DESCRIPTORS} if it cannot be read. */
  static long descriptorLimit() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      long max = unix.getMaxFileDescriptorCount();
      if (max > 0) {
        return max;
      }
    }
    return ASSUMED_DESCRIPTORS;
  }
}
