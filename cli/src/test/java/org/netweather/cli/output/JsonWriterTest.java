package org.netweather.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** JSON keeps "not known yet" (null) apart from "not finite" (a string). */
class JsonWriterTest {
  @Test
  void write_nanInfinityAndFinite_areNullStringAndNumber() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("unknown", Double.NaN);
    m.put("huge", Double.POSITIVE_INFINITY);
    m.put("tiny", Double.NEGATIVE_INFINITY);
    m.put("max", 1e308);
    m.put("none", null);
    assertEquals(
        "{\n"
            + "  \"unknown\": null,\n"
            + "  \"huge\": \"Infinity\",\n"
            + "  \"tiny\": \"-Infinity\",\n"
            + "  \"max\": 1.0E308,\n"
            + "  \"none\": null\n"
            + "}",
        JsonWriter.write(m));
  }
}
