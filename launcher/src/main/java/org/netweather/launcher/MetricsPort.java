package org.netweather.launcher;

import java.io.IOException;
import java.util.concurrent.Callable;
import org.netweather.runtime.metrics.MetricsEndpoint;

/** The metrics endpoint of a process started from the command line; -1 means none. */
final class MetricsPort {
  private final MetricsEndpoint endpoint;

  private MetricsPort(MetricsEndpoint endpoint) {
    this.endpoint = endpoint;
  }

  static MetricsPort open(String option, int port) throws IOException {
    if (port < -1 || port > 65535) {
      throw new IllegalArgumentException(option + " must be a port, 0 for any or -1 for none: "
          + port);
    }
    return new MetricsPort(port < 0 ? null : MetricsEndpoint.start(port));
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
