package org.netweather.registry;

/**
 * Told of changes to the shared state and of the registry's link to it. Called on the registry's
 * own thread, one call at a time; must not block.
 */
public interface RegistryListener {
  void onChange(RegistryEvent event);

  default void onState(RegistryState state) {}
}
