package org.netweather.nameserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * What reaches the nameserver from its journal and from callers: journal entries decode or throw
 * {@link IOException}, and an entry encoded decodes to itself; LDAP-style filters parse or throw
 * {@link IllegalArgumentException}, match without throwing, and their index lookup never misses a
 * registration they match. Seeds in {@code NameserverFuzzTestInputs/}; {@code benchmarks/fuzz}
 * fuzzes longer.
 */
class NameserverFuzzTest {

  @FuzzTest
  void journalEntry(byte[] data) throws IOException {
    JournalEntry entry;
    try {
      entry = JournalEntry.decode(new DataInputStream(new ByteArrayInputStream(data)));
    } catch (IOException e) {
      assertNotNull(e.getMessage() == null ? e.toString() : e.getMessage());
      return;
    }
    JournalEntry again =
        JournalEntry.decode(new DataInputStream(new ByteArrayInputStream(entry.encode())));
    assertEquals(entry, again);
  }

  @FuzzTest
  void filter(byte[] data) {
    // "FILTER\nkey=value\nkey=value...": the filter, then one registration's attributes.
    String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
    Map<String, String> attributes = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int eq = lines[i].indexOf('=');
      if (eq > 0) {
        attributes.put(lines[i].substring(0, eq), lines[i].substring(eq + 1));
      }
    }
    Filter f;
    try {
      f = Filter.parse(lines[0]);
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
      return;
    }
    boolean matches = f.matches(attributes);
    Set<String> candidates =
        f.candidates((k, v) -> v.equals(attributes.get(k)) ? Set.of("r") : Set.of());
    if (matches && candidates != null) {
      assertTrue(candidates.contains("r"), "the index missed a match of " + lines[0]);
    }
  }
}
