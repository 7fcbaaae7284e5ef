package org.netweather.runtime.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every setting of one daemon, in the order the reference and {@code nws config show} use. */
public final class ConfigSchema {
  private final String name;
  private final Map<String, Setting<?>> settings = new LinkedHashMap<>();

  private ConfigSchema(String name, List<Setting<?>> settings) {
    this.name = name;
    for (Setting<?> s : settings) {
      if (this.settings.put(s.key(), s) != null) {
        throw new IllegalArgumentException(name + " declares " + s.key() + " twice");
      }
      String p = problem(s);
      if (p != null) {
        throw new IllegalStateException(name + "." + s.key() + " default " + p);
      }
    }
  }

  private static <T> String problem(Setting<T> s) {
    return s.problem(s.defaultValue());
  }

  /** {@code name} is the daemon's, e.g. {@code memory-host}. */
  public static ConfigSchema of(String name, Setting<?>... settings) {
    return new ConfigSchema(name, List.of(settings));
  }

  /** This schema with {@code more} settings after its own (e.g. those every daemon shares). */
  public ConfigSchema plus(List<Setting<?>> more) {
    List<Setting<?>> all = new java.util.ArrayList<>(settings.values());
    all.addAll(more);
    return new ConfigSchema(name, all);
  }

  public String name() {
    return name;
  }

  public List<Setting<?>> settings() {
    return List.copyOf(settings.values());
  }

  public Optional<Setting<?>> find(String key) {
    return Optional.ofNullable(settings.get(key));
  }

  /** Whether {@code setting} is this schema's (the very declaration, not one of the same key). */
  public boolean has(Setting<?> setting) {
    return settings.get(setting.key()) == setting;
  }

  /** The keys, comma-separated, for "known keys" in errors. */
  public String keys() {
    return String.join(", ", settings.keySet());
  }

  /** Every setting at its default. */
  public ConfigValues defaults() {
    return ConfigValues.builder(this).build();
  }

  @Override
  public String toString() {
    return name;
  }
}
