package org.netweather.runtime.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The type of a setting: how its value is read from a flag's text and from a YAML node, and how it
 * is shown. Parse failures throw {@link IllegalArgumentException} with a short reason; the caller
 * adds the key and the source.
 */
public final class ValueType<T> {
  public static final ValueType<Integer> INT =
      scalar(
          "integer",
          "N",
          text -> {
            try {
              return Integer.valueOf(text.strip());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("must be an integer, got '" + text + "'");
            }
          });
  public static final ValueType<Long> LONG =
      scalar(
          "integer",
          "N",
          text -> {
            try {
              return Long.valueOf(text.strip().replace("_", ""));
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("must be an integer, got '" + text + "'");
            }
          });
  public static final ValueType<Double> DECIMAL =
      scalar(
          "number",
          "X",
          text -> {
            try {
              double d = Double.parseDouble(text.strip());
              if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new NumberFormatException();
              }
              return d;
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException("must be a number, got '" + text + "'");
            }
          });
  public static final ValueType<Boolean> BOOLEAN =
      scalar(
          "boolean",
          "true|false",
          text -> {
            return switch (text.strip()) {
              case "true" -> true;
              case "false" -> false;
              default ->
                  throw new IllegalArgumentException("must be true or false, got '" + text + "'");
            };
          });
  public static final ValueType<String> TEXT = scalar("string", "TEXT", text -> text);

  /** A list of strings: a YAML sequence, or comma-separated text on a flag. */
  public static final ValueType<List<String>> TEXT_LIST =
      new ValueType<>(
          "list of strings",
          "A,B,...",
          ValueType::splitCommas,
          ValueType::listFromYaml,
          list -> String.join(",", list));

  private final String name;
  private final String label;
  private final Function<String, T> fromText;
  private final Function<JsonNode, T> fromYaml;
  private final Function<T, String> show;

  private ValueType(
      String name,
      String label,
      Function<String, T> fromText,
      Function<JsonNode, T> fromYaml,
      Function<T, String> show) {
    this.name = name;
    this.label = label;
    this.fromText = fromText;
    this.fromYaml = fromYaml;
    this.show = show;
  }

  private static <T> ValueType<T> scalar(String name, String label, Function<String, T> parse) {
    return new ValueType<>(
        name,
        label,
        parse,
        node -> {
          if (!node.isValueNode()) {
            throw new IllegalArgumentException(
                "must be "
                    + withArticle(name)
                    + ", got "
                    + (node.isArray() ? "a list" : "a mapping"));
          }
          return parse.apply(node.asText());
        },
        String::valueOf);
  }

  /** {@code integer} as {@code an integer}, {@code string} as {@code a string}. */
  static String withArticle(String name) {
    return ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name;
  }

  /** The type's name in the configuration reference, e.g. {@code integer}. */
  public String name() {
    return name;
  }

  /** The placeholder for a flag's value in help, e.g. {@code N}. */
  public String label() {
    return label;
  }

  /** The value of a flag's text. */
  public T fromText(String text) {
    return fromText.apply(text);
  }

  /** The value of a YAML node (never a YAML null: that is reported before). */
  public T fromYaml(JsonNode node) {
    return fromYaml.apply(node);
  }

  /** The value as it would be written on a flag. */
  public String show(T value) {
    return show.apply(value);
  }

  private static List<String> splitCommas(String text) {
    List<String> out = new ArrayList<>();
    Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(out::add);
    return List.copyOf(out);
  }

  private static List<String> listFromYaml(JsonNode node) {
    if (node.isValueNode()) {
      return splitCommas(node.asText());
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException("must be a list of strings, got a mapping");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isValueNode() || item.isNull()) {
        throw new IllegalArgumentException("must be a list of strings, got an item that is not");
      }
      out.add(item.asText());
    }
    return List.copyOf(out);
  }
}
