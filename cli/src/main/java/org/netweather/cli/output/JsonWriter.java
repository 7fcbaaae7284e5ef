package org.netweather.cli.output;

import java.util.Collection;
import java.util.Map;

/**
 * Writes maps, lists, strings, numbers, booleans and null as JSON, for documents that are not one
 * proto message.
 *
 * <p>JSON has no NaN or infinity. NetWeather uses NaN for "not known yet" (a forecast's MSE before
 * its second measurement), written as {@code null}; an infinite number is known and not finite,
 * written as the string {@code "Infinity"} or {@code "-Infinity"}, the spelling proto3 JSON uses,
 * so that a reader never takes an overflow for a value still to come.
 */
public final class JsonWriter {
  private JsonWriter() {}

  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, 0);
    return sb.toString();
  }

  private static void write(StringBuilder sb, Object v, int depth) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append("{\n");
      int i = 0;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        indent(sb, depth + 1);
        string(sb, String.valueOf(e.getKey()));
        sb.append(": ");
        write(sb, e.getValue(), depth + 1);
        sb.append(++i < m.size() ? ",\n" : "\n");
      }
      indent(sb, depth);
      sb.append('}');
    } else if (v instanceof Collection<?> c) {
      if (c.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append("[\n");
      int i = 0;
      for (Object o : c) {
        indent(sb, depth + 1);
        write(sb, o, depth + 1);
        sb.append(++i < c.size() ? ",\n" : "\n");
      }
      indent(sb, depth);
      sb.append(']');
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d)) {
        sb.append("null");
      } else if (Double.isInfinite(d)) {
        sb.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
      } else {
        sb.append(d);
      }
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else {
      string(sb, v.toString());
    }
  }

  private static void indent(StringBuilder sb, int depth) {
    sb.append("  ".repeat(depth));
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
