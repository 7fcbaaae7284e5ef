package org.netweather.sensor.probe;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Options of a {@link ProbeServer}.
 *
 * @param bind address and port to listen on; port 0 picks a free one
 * @param receiveBufferBytes SO_RCVBUF of accepted connections; 0 (the default) leaves it to the
 *     kernel, because on Linux an explicit value turns receive-window auto-tuning off and is capped
 *     at {@code net.core.rmem_max}, while auto-tuning grows the window to {@code tcp_rmem}'s
 *     maximum (32 MiB here): the large window a long fat path needs
 * @param helloTimeout how long a new connection may take to send its hello (default 10 s)
 * @param idleTimeout how long a connection may stay silent before it is closed (default 10 min;
 *     latency connections stay open between probes)
 * @param minMarkInterval floor on the sink mark interval a client may ask for (default 1 ms)
 * @param maxSinkBytes bytes one sink connection may send before it is cut off (default 1 GiB)
 * @param maxSourceBytes bytes one source connection may ask for (default 1 GiB)
 * @param key the site's probe key: when set, only hellos sealed with it are served (default none)
 */
public record ProbeServerOptions(
    InetSocketAddress bind,
    int receiveBufferBytes,
    Duration helloTimeout,
    Duration idleTimeout,
    Duration minMarkInterval,
    long maxSinkBytes,
    long maxSourceBytes,
    ProbeKey key) {

  public ProbeServerOptions {
    if (receiveBufferBytes < 0) {
      throw new IllegalArgumentException("receiveBufferBytes must be >= 0");
    }
    if (minMarkInterval.isZero() || minMarkInterval.isNegative()) {
      throw new IllegalArgumentException("minMarkInterval must be positive");
    }
  }

  /** Defaults listening on {@code bind}. */
  public static ProbeServerOptions defaults(InetSocketAddress bind) {
    return new ProbeServerOptions(
        bind,
        0,
        Duration.ofSeconds(10),
        Duration.ofMinutes(10),
        Duration.ofMillis(1),
        1L << 30,
        1L << 30,
        null);
  }

  /** These options serving only hellos sealed with {@code key} (null: any hello). */
  public ProbeServerOptions withKey(ProbeKey key) {
    return new ProbeServerOptions(
        bind,
        receiveBufferBytes,
        helloTimeout,
        idleTimeout,
        minMarkInterval,
        maxSinkBytes,
        maxSourceBytes,
        key);
  }
}
