package org.netweather.runtime.config;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The effective configuration of one daemon: a checked value for every setting of its schema and
 * where each came from. Immutable. Built from the defaults, then a file, then flags, each
 * overriding the one before.
 */
public final class ConfigValues {
  /** One value and its source. */
  public record Value(Setting<?> setting, Object value, Source source) {
    /** The value as written on a flag. */
    public String shown() {
      return setting.show(value);
    }
  }

  private final ConfigSchema schema;
  private final Map<String, Value> values;

  private ConfigValues(ConfigSchema schema, Map<String, Value> values) {
    this.schema = schema;
    this.values = values;
  }

  public static Builder builder(ConfigSchema schema) {
    return new Builder(schema);
  }

  public ConfigSchema schema() {
    return schema;
  }

  public <T> T get(Setting<T> setting) {
    return setting.cast(value(setting).value());
  }

  public Source source(Setting<?> setting) {
    return value(setting).source();
  }

  /** Every value in the schema's order. */
  public List<Value> values() {
    return List.copyOf(values.values());
  }

  /**
   * A copy with {@code setting} set to {@code value} by a program (tests, embedding).
   *
   * @throws ConfigException if the value breaks one of the setting's rules
   */
  public <T> ConfigValues with(Setting<T> setting, T value) {
    Builder b = new Builder(schema);
    b.values.putAll(values);
    return b.set(setting, value, Source.CODE).build();
  }

  private Value value(Setting<?> setting) {
    if (!schema.has(setting)) {
      throw new IllegalArgumentException(setting.key() + " is not a setting of " + schema);
    }
    return values.get(setting.key());
  }

  /** Layers values over the defaults; each {@code set} is checked at once. */
  public static final class Builder {
    private final ConfigSchema schema;
    private final Map<String, Value> values = new LinkedHashMap<>();
    private String prefix = "";

    private Builder(ConfigSchema schema) {
      this.schema = schema;
      for (Setting<?> s : schema.settings()) {
        values.put(s.key(), new Value(s, s.defaultValue(), Source.DEFAULT));
      }
    }

    /**
     * Names keys in errors as {@code prefix + key}, e.g. {@code memory-host.} for a section of the
     * file {@code nws up} reads.
     */
    public Builder keyPrefix(String prefix) {
      this.prefix = prefix;
      return this;
    }

    /** Sets every key of a daemon's own file; no file (null) leaves the defaults. */
    public Builder file(Path file) {
      if (file != null) {
        YamlConfigFile yaml = YamlConfigFile.read(file);
        entries(yaml.path(), yaml.entries());
      }
      return this;
    }

    /**
     * Sets the keys of {@code entries}, read from {@code file}.
     *
     * @throws ConfigException on an unknown key or a bad value, naming the key and the file
     */
    public Builder entries(Path file, Map<String, YamlConfigFile.Entry> entries) {
      for (YamlConfigFile.Entry e : entries.values()) {
        Setting<?> s =
            schema
                .find(e.key())
                .orElseThrow(
                    () ->
                        new ConfigException(
                            Source.fileAt(file.toString(), e.line())
                                + ": unknown key '"
                                + prefix
                                + e.key()
                                + "' (known keys: "
                                + schema.keys()
                                + ")"));
        Source source = Source.file(file, e.line());
        if (e.isSection()) {
          throw bad(
              s, source, "must be " + ValueType.withArticle(s.type().name()) + ", got a mapping");
        }
        if (e.value() == null || e.value().isNull()) {
          throw bad(s, source, "has no value");
        }
        setParsed(s, type -> type.fromYaml(e.value()), source);
      }
      return this;
    }

    /** Sets {@code setting} from a flag's text. */
    public Builder text(Setting<?> setting, String text, Source source) {
      return setParsed(setting, type -> type.fromText(text), source);
    }

    /** Sets {@code setting} to {@code value}, checking its rules. */
    public <T> Builder set(Setting<T> setting, T value, Source source) {
      if (!schema.has(setting)) {
        throw new IllegalArgumentException(setting.key() + " is not a setting of " + schema);
      }
      String problem = setting.problem(value);
      if (problem != null) {
        throw bad(setting, source, problem);
      }
      values.put(setting.key(), new Value(setting, value, source));
      return this;
    }

    private <T> Builder setParsed(
        Setting<T> setting, Function<ValueType<T>, T> parse, Source source) {
      T value;
      try {
        value = parse.apply(setting.type());
      } catch (IllegalArgumentException e) {
        throw bad(setting, source, e.getMessage());
      }
      return set(setting, value, source);
    }

    private ConfigException bad(Setting<?> setting, Source source, String problem) {
      return new ConfigException(source.errorPrefix(prefix + setting.key()) + ": " + problem);
    }

    public ConfigValues build() {
      return new ConfigValues(schema, Collections.unmodifiableMap(new LinkedHashMap<>(values)));
    }
  }
}
