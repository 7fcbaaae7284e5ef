package org.netweather.runtime.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One setting of a daemon, declared once: its key in the YAML file (the flag is derived from it,
 * {@code rawPoints} becomes {@code --raw-points}), its type, default, meaning and the rules its
 * value must keep. Immutable; the refining methods return a new setting.
 */
public final class Setting<T> {
  /** A rule a value must keep: a description for the reference and a check. */
  private record Rule<T>(String description, Function<T, String> problem) {}

  private final String key;
  private final ValueType<T> type;
  private final T defaultValue;
  private final String doc;
  private final String label;
  private final List<Rule<T>> rules;

  private Setting(
      String key,
      ValueType<T> type,
      T defaultValue,
      String doc,
      String label,
      List<Rule<T>> rules) {
    if (!key.matches("[a-z][A-Za-z0-9]*")) {
      throw new IllegalArgumentException("setting key '" + key + "' is not lowerCamelCase");
    }
    this.key = key;
    this.type = type;
    this.defaultValue = Objects.requireNonNull(defaultValue, key);
    this.doc = doc;
    this.label = label;
    this.rules = List.copyOf(rules);
  }

  public static <T> Setting<T> of(String key, ValueType<T> type, T defaultValue, String doc) {
    return new Setting<>(key, type, defaultValue, doc, type.label(), List.of());
  }

  public static Setting<Integer> integer(String key, int defaultValue, String doc) {
    return of(key, ValueType.INT, defaultValue, doc);
  }

  public static Setting<Long> longInteger(String key, long defaultValue, String doc) {
    return of(key, ValueType.LONG, defaultValue, doc);
  }

  public static Setting<Double> decimal(String key, double defaultValue, String doc) {
    return of(key, ValueType.DECIMAL, defaultValue, doc);
  }

  public static Setting<Boolean> bool(String key, boolean defaultValue, String doc) {
    return of(key, ValueType.BOOLEAN, defaultValue, doc);
  }

  public static Setting<String> text(String key, String defaultValue, String doc) {
    return of(key, ValueType.TEXT, defaultValue, doc);
  }

  public static Setting<List<String>> list(String key, List<String> defaultValue, String doc) {
    return of(key, ValueType.TEXT_LIST, List.copyOf(defaultValue), doc);
  }

  /** The same setting with the placeholder {@code label} for its flag's value. */
  public Setting<T> label(String label) {
    return new Setting<>(key, type, defaultValue, doc, label, rules);
  }

  /** The same setting whose values must satisfy {@code ok}, described as "must be ...". */
  public Setting<T> rule(String mustBe, Predicate<T> ok) {
    return check(mustBe, v -> ok.test(v) ? null : "must be " + mustBe + ", got " + type.show(v));
  }

  /**
   * The same setting with a check that returns what is wrong with a value, or null if nothing;
   * {@code described} says what it checks in the reference.
   */
  public Setting<T> check(String described, Function<T, String> problem) {
    List<Rule<T>> more = new ArrayList<>(rules);
    more.add(new Rule<>(described, problem));
    return new Setting<>(key, type, defaultValue, doc, label, more);
  }

  /** A numeric setting's lower bound. */
  public Setting<T> atLeast(long min) {
    return rule("at least " + min, v -> ((Number) v).doubleValue() >= min);
  }

  /** A numeric setting's bounds, both inclusive. */
  public Setting<T> between(long min, long max) {
    return rule(
        min + " to " + max,
        v -> {
          double d = ((Number) v).doubleValue();
          return d >= min && d <= max;
        });
  }

  public String key() {
    return key;
  }

  public ValueType<T> type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  /** What the setting means, one or two sentences. */
  public String doc() {
    return doc;
  }

  /** The placeholder for the flag's value in help, e.g. {@code HOST:PORT}. */
  public String label() {
    return label;
  }

  /** The command-line flag: the key in kebab case, e.g. {@code --metrics-port}. */
  public String flag() {
    StringBuilder b = new StringBuilder("--");
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isUpperCase(c)) {
        b.append('-').append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** The rules' descriptions joined, e.g. {@code 0 to 65535}; empty if there are none. */
  public String rules() {
    return String.join("; ", rules.stream().map(Rule::description).toList());
  }

  /** What is wrong with {@code value}, or null if nothing is. */
  public String problem(T value) {
    for (Rule<T> r : rules) {
      String p = r.problem().apply(value);
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  /** The value shown as on a flag; an empty string as {@code ""}. */
  public String show(Object value) {
    String s = type.show(cast(value));
    return s.isEmpty() ? "\"\"" : s;
  }

  @SuppressWarnings("unchecked")
  T cast(Object value) {
    return (T) value;
  }

  @Override
  public String toString() {
    return key;
  }
}
