package org.netweather.cli.daemon;

/** Runs one daemon in the foreground: closes it on Ctrl-C or SIGTERM, waits until it stops. */
final class Foreground {
  private Foreground() {}

  /** Closes the daemon, then what it was using; failures are printed, not thrown. */
  static void closeBoth(AutoCloseable daemon, AutoCloseable after) {
    for (AutoCloseable c : new AutoCloseable[] {daemon, after}) {
      try {
        c.close();
      } catch (Exception e) {
        System.err.println("*** closing: " + e);
      }
    }
  }

  /** Blocks until the daemon has stopped. */
  interface Waiter {
    void await() throws InterruptedException;
  }

  /**
   * Prints {@code banner} (with where its metrics are served), then blocks until the daemon has
   * stopped; on shutdown closes the daemon, then its metrics endpoint. Returns exit status 0.
   */
  static int run(
      String name, Waiter awaitTermination, Runnable close, MetricsPort metrics, String banner)
      throws InterruptedException {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  System.err.println("*** " + name + " shutting down");
                  close.run();
                  metrics.close();
                },
                name + "-shutdown"));
    System.err.println(banner + metrics.banner());
    awaitTermination.await();
    return 0;
  }
}
