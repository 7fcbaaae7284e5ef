package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The always-on registry that starts one {@link SwapManager} per application and points tools
 * at it (Sievert and Casanova, TR CS2003-0735, §3). Transport-free: {@link SwapDispatcherServer}
 * serves it over TCP and {@link #handle} is the whole protocol, so tests call it directly.
 *
 * <pre>
 *   START app policy active host1,host2,...  → OK
 *   STATUS [app]                             → one line per application, then END
 *   FORCE app out in                         → OK (applied at the next swap point)
 *   FINISH app                               → OK
 *   errors                                   → ERR message
 * </pre>
 */
public final class SwapDispatcher {
  /** The dispatcher's well-known port (beside the sensor's 8060 and the forecaster's 8070). */
  public static final int DEFAULT_PORT = 8065;

  private final Map<String, SwapManager> managers = new ConcurrentHashMap<>();

  /** Starts (or replaces) the manager of {@code application}. */
  public SwapManager start(String application, List<String> hosts, int active,
      SwapPolicy policy, double cooldownFactor) {
    SwapManager m = new SwapManager(application, hosts, active, policy, cooldownFactor);
    managers.put(application, m);
    return m;
  }

  /** Registers a manager the application built itself (in-JVM use). */
  public void adopt(SwapManager manager) {
    managers.put(manager.application(), manager);
  }

  public SwapManager manager(String application) {
    SwapManager m = managers.get(application);
    if (m == null) {
      throw new IllegalArgumentException("no application '" + application + "'");
    }
    return m;
  }

  /** One request line in, the reply lines out (without the END marker for STATUS). */
  public List<String> handle(String line) {
    String[] w = line.trim().split("\\s+");
    try {
      switch (w[0].toUpperCase(java.util.Locale.ROOT)) {
        case "START" -> {
          need(w, 5);
          SwapPolicy p = switch (w[2]) {
            case "naive" -> new NaivePolicy(false);
            case "naive_corr" -> new NaivePolicy(true);
            case "fph" -> new FphPolicy(FphParameters.defaults());
            default -> throw new IllegalArgumentException("unknown policy '" + w[2] + "'");
          };
          start(w[1], List.of(w[4].split(",")), Integer.parseInt(w[3]), p,
              FphParameters.defaults().cooldown());
          return List.of("OK");
        }
        case "STATUS" -> {
          List<String> out = new ArrayList<>();
          for (SwapManager m : managers.values()) {
            if (w.length < 2 || m.application().equals(w[1])) {
              out.add(status(m));
            }
          }
          if (w.length >= 2 && out.isEmpty()) {
            throw new IllegalArgumentException("no application '" + w[1] + "'");
          }
          return out;
        }
        case "FORCE" -> {
          need(w, 4);
          manager(w[1]).force(w[2], w[3]);
          return List.of("OK");
        }
        case "FINISH" -> {
          need(w, 2);
          if (managers.remove(w[1]) == null) {
            throw new IllegalArgumentException("no application '" + w[1] + "'");
          }
          return List.of("OK");
        }
        default -> throw new IllegalArgumentException("unknown request '" + w[0] + "'");
      }
    } catch (IllegalArgumentException e) {
      return List.of("ERR " + e.getMessage());
    }
  }

  private static void need(String[] w, int n) {
    if (w.length < n) {
      throw new IllegalArgumentException(w[0] + ": expected " + (n - 1) + " arguments");
    }
  }

  /** {@code app policy=P root=H ranks=0:h1,1:h2 swaps=N last=OUT->IN}. */
  static String status(SwapManager m) {
    StringBuilder ranks = new StringBuilder();
    m.ranks().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e ->
        ranks.append(ranks.length() == 0 ? "" : ",").append(e.getKey()).append(':')
            .append(e.getValue()));
    List<SwapManager.Event> log = m.log();
    String last = log.isEmpty() ? "-" : log.get(log.size() - 1).out() + "->"
        + log.get(log.size() - 1).in();
    return m.application() + " policy=" + m.policyName() + " root=" + m.root() + " ranks="
        + ranks + " swaps=" + log.size() + " last=" + last;
  }
}
