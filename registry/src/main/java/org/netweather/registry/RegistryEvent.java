package org.netweather.registry;

/**
 * Something in the shared state changed, by this process or another: which area and which key (a
 * daemon or clique name, a cluster, a value's key, or {@code group/id} for a member). Events say
 * what to read again, not what it now holds.
 */
public record RegistryEvent(Area area, String key) {
  /** The parts of the shared state. */
  public enum Area {
    DAEMON,
    HOSTS,
    CLIQUE,
    VALUE,
    MEMBER
  }
}
