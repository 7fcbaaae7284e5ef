package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The always-on registry that starts one {@link SwapManager} per application and points tools at it
 * (O. Sievert, H. Casanova, "MPI Process Swapping: Architecture and Experimental Verification",
 * Technical Report CS2003-0735, University of California, San Diego, 2003, §3;
 * docs/schedulers/swapping.md). Transport-free: applications register in process, and {@link
 * SwapDispatcherService} serves the tools' side (status, forced swaps) over gRPC.
 */
public final class SwapDispatcher {
  /** The dispatcher's well-known port (beside the sensor's 8060 and the forecaster's 8070). */
  public static final int DEFAULT_PORT = 8065;

  private final Map<String, SwapManager> managers = new ConcurrentHashMap<>();

  /** Starts (or replaces) the manager of {@code application}. */
  public SwapManager start(
      String application,
      List<String> hosts,
      int active,
      SwapPolicy policy,
      double cooldownFactor) {
    SwapManager m = new SwapManager(application, hosts, active, policy, cooldownFactor);
    managers.put(application, m);
    return m;
  }

  /** Registers a manager the application built itself (in-JVM use). */
  public void adopt(SwapManager manager) {
    managers.put(manager.application(), manager);
  }

  public SwapManager manager(String application) {
    return find(application)
        .orElseThrow(() -> new IllegalArgumentException("no application '" + application + "'"));
  }

  /** The manager of {@code application}, if it runs. */
  public Optional<SwapManager> find(String application) {
    return Optional.ofNullable(managers.get(application));
  }

  /** Every application's manager, ordered by application name. */
  public List<SwapManager> managers() {
    List<SwapManager> all = new ArrayList<>(managers.values());
    all.sort(Comparator.comparing(SwapManager::application));
    return all;
  }

  /** Forgets {@code application}: it has finished. */
  public void finish(String application) {
    if (managers.remove(application) == null) {
      throw new IllegalArgumentException("no application '" + application + "'");
    }
  }
}
