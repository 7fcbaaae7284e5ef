package org.netweather.cli.daemon;

import java.io.IOException;
import java.net.BindException;
import java.util.concurrent.Callable;
import org.netweather.runtime.metrics.MetricsEndpoint;

/** The metrics endpoint of a process started from the command line; -1 means none. */
final class MetricsPort {
  private final MetricsEndpoint endpoint;

  private MetricsPort(MetricsEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** The endpoint on {@code port} of every interface; {@code option} names it in errors. */
  static MetricsPort open(String option, int port) throws IOException {
    return open(option, "", port);
  }

  /** The endpoint on {@code port} of {@code host} (empty: every interface). */
  static MetricsPort open(String option, String host, int port) throws IOException {
    if (port < -1 || port > 65535) {
      throw new IllegalArgumentException(
          option + " must be a port, 0 for any or -1 for none: " + port);
    }
    if (port < 0) {
      return new MetricsPort(null);
    }
    try {
      return new MetricsPort(MetricsEndpoint.start(host, port));
    } catch (IOException e) {
      if (e.getCause() instanceof BindException) {
        // A second daemon of a kind on one host meets the first one's default port.
        throw new IllegalStateException(
            "port "
                + port
                + " for metrics is already in use (by "
                + "another nws?); "
                + option
                + " picks another, -1 serves none");
      }
      throw e;
    }
  }

  /** Starts a daemon; if it cannot start, closes the endpoint before passing the failure on. */
  <T> T closeIfFails(Callable<T> start) throws Exception {
    try {
      return start.call();
    } catch (Exception e) {
      close();
      throw e;
    }
  }

  /** The bound port, or -1 when none is served. */
  int port() {
    return endpoint == null ? -1 : endpoint.port();
  }

  /** ", metrics on port N" for a banner, or nothing. */
  String banner() {
    return endpoint == null ? "" : ", metrics on port " + endpoint.port();
  }

  void close() {
    if (endpoint != null) {
      endpoint.close();
    }
  }
}
