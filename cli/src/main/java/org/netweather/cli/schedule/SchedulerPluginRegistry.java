package org.netweather.cli.schedule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The scheduler plugins {@code nws schedule} offers: one provider per name, the available one of
 * highest priority.
 *
 * <pre>{@code
 * SchedulerPluginRegistry registry = SchedulerPluginRegistry.getDefaultRegistry();
 * registry.register(new MyPluginProvider());          // by hand, beside the ServiceLoader ones
 * registry.provider("jacobi").ifPresent(p -> ...);
 * }</pre>
 *
 * <p>Thread-safety: all methods are synchronized; the lists returned are copies.
 */
public final class SchedulerPluginRegistry {
  private static SchedulerPluginRegistry defaultRegistry;

  private final List<SchedulerPluginProvider> all = new ArrayList<>();
  private Map<String, SchedulerPluginProvider> effective = Map.of();

  /** An empty registry (tests and embedders); most callers want {@link #getDefaultRegistry}. */
  public SchedulerPluginRegistry() {}

  /**
   * Registers a provider. Ignored when it is unavailable; replaces a provider of the same name only
   * when its priority is strictly higher, so the first of equals stays.
   */
  public synchronized void register(SchedulerPluginProvider provider) {
    if (provider.name() == null || provider.name().isBlank()) {
      throw new IllegalArgumentException("a scheduler plugin needs a name: " + provider);
    }
    for (SchedulerPluginProvider p : all) {
      if (p.getClass() == provider.getClass() && p.name().equals(provider.name())) {
        return; // the same plugin found twice (by hand and by ServiceLoader)
      }
    }
    if (provider.isAvailable()) {
      all.add(provider);
      refresh();
    }
  }

  /** Removes a provider registered earlier; the next best of its name, if any, takes its place. */
  public synchronized void deregister(SchedulerPluginProvider provider) {
    all.remove(provider);
    refresh();
  }

  /** The effective providers, one per name, sorted by name. */
  public synchronized List<SchedulerPluginProvider> providers() {
    return List.copyOf(effective.values());
  }

  /** The effective provider called {@code name}. */
  public synchronized Optional<SchedulerPluginProvider> provider(String name) {
    return Optional.ofNullable(effective.get(name));
  }

  private void refresh() {
    Map<String, SchedulerPluginProvider> best = new java.util.TreeMap<>();
    for (SchedulerPluginProvider p : all) {
      SchedulerPluginProvider old = best.get(p.name());
      if (old == null || p.priority() > old.priority()) {
        best.put(p.name(), p);
      }
    }
    effective = new LinkedHashMap<>(best);
  }

  /**
   * The process-wide registry, filled on first use with every provider that {@link ServiceLoader}
   * finds. A provider that fails to load is skipped rather than taking every other plugin down with
   * it.
   */
  public static synchronized SchedulerPluginRegistry getDefaultRegistry() {
    if (defaultRegistry == null) {
      SchedulerPluginRegistry r = new SchedulerPluginRegistry();
      ServiceLoader<SchedulerPluginProvider> loader =
          ServiceLoader.load(
              SchedulerPluginProvider.class, SchedulerPluginRegistry.class.getClassLoader());
      var it = loader.iterator();
      while (true) {
        try {
          if (!it.hasNext()) {
            break;
          }
          r.register(it.next());
        } catch (ServiceConfigurationError e) {
          System.err.println(
              "nws: skipping a scheduler plugin that failed to load: " + e.getMessage());
        }
      }
      defaultRegistry = r;
    }
    return defaultRegistry;
  }
}
