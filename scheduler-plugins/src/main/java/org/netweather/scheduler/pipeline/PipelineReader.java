package org.netweather.scheduler.pipeline;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a filters file: the chain with each filter's tuning-run statistics (Table 1 names, seconds
 * and KB = 1000 bytes as in the paper), and the platform's shared segments.
 *
 * <pre>{@code
 * {
 *   "description": "optional",
 *   "filters": [                       source first
 *     { "name": "R", "pinned": ["r1", "r2"],         optional
 *       "maxCopies": 4,                              optional count cap
 *       "tTotal": 53.2312, "tWorkq": 0.0009, "tInit": 0.0172, "tProcess": 53.2118,
 *       "tRead": 34.3982, "tWrite": 0.4498, "tReadFirst": 0.27, "tCompute": 18.0936,
 *       "tWriteFirst": 0.2757, "tFinalize": 0.0005,
 *       "inBuffers": 2477, "inKB": 66411, "outBuffers": 2471, "outKB": 25514 }
 *   ],
 *   "segments": [ { "name": "wan", "mbps": 6, "from": ["r1"], "to": ["d1"] } ]
 * }
 * }</pre>
 *
 * Missing times default to 0 except tProcess and tCompute, which are required. Unknown keys are an
 * error naming each one.
 */
public final class PipelineReader {
  private static final Set<String> TOP = Set.of("description", "filters", "segments");
  private static final Set<String> FILTER =
      Set.of(
          "name",
          "pinned",
          "maxCopies",
          "tTotal",
          "tWorkq",
          "tInit",
          "tProcess",
          "tRead",
          "tWrite",
          "tReadFirst",
          "tCompute",
          "tWriteFirst",
          "tFinalize",
          "inBuffers",
          "inKB",
          "outBuffers",
          "outKB");
  private static final Set<String> SEGMENT = Set.of("name", "mbps", "from", "to");

  private PipelineReader() {}

  public static Pipeline read(Path file) {
    try {
      return parse(Files.readString(file), file.toString());
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          file + ": not UTF-8 text (a binary file?); expected a JSON pipeline");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage());
    }
  }

  public static Pipeline parse(String json, String source) {
    Struct.Builder b = Struct.newBuilder();
    try {
      JsonFormat.parser().merge(json, b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new IllegalArgumentException(source + ": not JSON: " + e.getMessage());
    }
    try {
      return pipeline(b.getFieldsMap(), source);
    } catch (IllegalArgumentException e) {
      // The model's own checks (a pipeline needs a filter, ...) name no file: name it here.
      throw e.getMessage() != null && e.getMessage().startsWith(source)
          ? e
          : new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static Pipeline pipeline(Map<String, Value> top, String source) {
    unknown(top, TOP, source, "");
    List<Filter> filters = new ArrayList<>();
    List<Value> fs = list(top, "filters", source);
    for (int i = 0; i < fs.size(); i++) {
      String at = "filters[" + i + "]";
      Map<String, Value> f = fs.get(i).getStructValue().getFieldsMap();
      unknown(f, FILTER, source, at + ".");
      String name = str(f, "name", source, at);
      FilterStats s =
          new FilterStats(
              name,
              num(f, "tTotal"),
              num(f, "tWorkq"),
              num(f, "tInit"),
              num(f, "tProcess"),
              num(f, "tRead"),
              num(f, "tWrite"),
              num(f, "tReadFirst"),
              num(f, "tCompute"),
              num(f, "tWriteFirst"),
              num(f, "tFinalize"),
              (long) num(f, "inBuffers"),
              1000 * num(f, "inKB"),
              (long) num(f, "outBuffers"),
              1000 * num(f, "outKB"));
      List<String> pinned = f.containsKey("pinned") ? strings(f.get("pinned")) : List.of();
      filters.add(new Filter(s, pinned, (int) num(f, "maxCopies")));
    }
    List<SharedSegment> segments = new ArrayList<>();
    if (top.containsKey("segments")) {
      List<Value> ss = top.get("segments").getListValue().getValuesList();
      for (int i = 0; i < ss.size(); i++) {
        String at = "segments[" + i + "]";
        Map<String, Value> s = ss.get(i).getStructValue().getFieldsMap();
        unknown(s, SEGMENT, source, at + ".");
        segments.add(
            new SharedSegment(
                str(s, "name", source, at),
                num(s, "mbps") * 125_000,
                new HashSet<>(strings(s.get("from"))),
                new HashSet<>(strings(s.get("to")))));
      }
    }
    return new Pipeline(filters, segments);
  }

  private static void unknown(Map<String, Value> m, Set<String> known, String source, String at) {
    List<String> bad =
        m.keySet().stream().filter(k -> !known.contains(k)).sorted().map(k -> at + k).toList();
    if (!bad.isEmpty()) {
      throw new IllegalArgumentException(source + ": unknown keys " + bad);
    }
  }

  private static List<Value> list(Map<String, Value> m, String key, String source) {
    if (!m.containsKey(key)) {
      throw new IllegalArgumentException(source + ": missing '" + key + "'");
    }
    return m.get(key).getListValue().getValuesList();
  }

  private static String str(Map<String, Value> m, String key, String source, String at) {
    if (!m.containsKey(key)) {
      throw new IllegalArgumentException(source + ": " + at + " has no '" + key + "'");
    }
    return m.get(key).getStringValue();
  }

  private static double num(Map<String, Value> m, String key) {
    return m.containsKey(key) ? m.get(key).getNumberValue() : 0;
  }

  private static List<String> strings(Value v) {
    return v == null
        ? List.of()
        : v.getListValue().getValuesList().stream().map(Value::getStringValue).toList();
  }
}
