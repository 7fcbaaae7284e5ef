package org.netweather.scheduler.swap;

/**
 * Removes our own process from a host's load before judging the host (docs/schedulers/swapping.md,
 * "Our policy" step 1).
 *
 * <p>The paper's manager compared 1/loadavg across hosts, but an active host's load average
 * includes the application's own process, so whichever host was active looked loaded and the
 * process bounced between idle hosts (the "hot potato", W1). The availability our process gets is
 * 1/(1 + bg) with bg = loadavg on an inactive host and max(0, loadavg − 1) on an active one.
 */
public final class SelfLoad {
  private SelfLoad() {}

  /** Background run-queue length behind a load-average reading. */
  public static double background(double loadAverage, boolean active) {
    return active ? Math.max(0, loadAverage - 1) : Math.max(0, loadAverage);
  }

  /** The CPU fraction our process gets (or would get) there. */
  public static double availability(double loadAverage, boolean active) {
    return 1 / (1 + background(loadAverage, active));
  }
}
