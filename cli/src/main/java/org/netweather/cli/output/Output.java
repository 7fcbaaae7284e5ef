package org.netweather.cli.output;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Prints what commands produce: proto3 JSON documents, or aligned text tables. */
public final class Output {
  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().alwaysPrintFieldsWithNoPresence().preservingProtoFieldNames();

  private Output() {}

  /** The proto3 JSON form of {@code message} (field names as in the .proto). */
  public static String json(MessageOrBuilder message) {
    try {
      return JSON.print(message);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A text table whose columns are as wide as their widest cell. */
  public static final class Table {
    private final List<String[]> rows = new ArrayList<>();

    public Table(String... header) {
      rows.add(header);
    }

    public Table row(Object... cells) {
      String[] r = new String[cells.length];
      for (int i = 0; i < cells.length; i++) {
        r[i] = String.valueOf(cells[i]);
      }
      rows.add(r);
      return this;
    }

    public void print(PrintWriter out) {
      int cols = rows.get(0).length;
      int[] w = new int[cols];
      for (String[] r : rows) {
        for (int i = 0; i < cols && i < r.length; i++) {
          w[i] = Math.max(w[i], r[i].length());
        }
      }
      for (String[] r : rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < r.length; i++) {
          sb.append(r[i]);
          if (i < r.length - 1) {
            sb.append(" ".repeat(w[i] - r[i].length() + 2));
          }
        }
        out.println(sb.toString().stripTrailing());
      }
      out.flush();
    }
  }

  /** A number without a spurious fraction, e.g. 940 rather than 940.0. */
  public static String number(double v) {
    if (Double.isNaN(v)) {
      return "-"; // not known yet, e.g. a forecast's error before its second measurement
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    String s = String.format(java.util.Locale.ROOT, "%.6g", v);
    int e = s.indexOf('e');
    String mantissa = e < 0 ? s : s.substring(0, e);
    if (mantissa.indexOf('.') >= 0) { // trailing zeros of the mantissa only, never the exponent's
      mantissa = mantissa.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return e < 0 ? mantissa : mantissa + s.substring(e);
  }
}
