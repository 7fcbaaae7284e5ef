package org.netweather.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A daemon's YAML config file, whatever it holds: reading it gives the values or a {@link
 * ConfigException} naming the file, never another exception, and a value read is one its setting
 * accepts. Seeds in {@code YamlConfigFuzzTestInputs/}; {@code benchmarks/fuzz} fuzzes longer.
 */
class YamlConfigFuzzTest {
  private static final Setting<Integer> PORT = DaemonSettings.port(8050, "gRPC port.");
  private static final Setting<Long> MAX_AGE =
      Setting.longInteger("rawMaxAgeSeconds", 0, "Age.").atLeast(0);
  private static final Setting<Double> FACTOR =
      Setting.decimal("staleFactor", 3.0, "Factor.").rule("greater than 0", v -> v > 0);
  private static final Setting<Boolean> ANYONE = Setting.bool("probeFromAnyone", false, "Anyone.");
  private static final Setting<String> NAMESERVER = DaemonSettings.nameserver();
  private static final Setting<List<String>> HOSTS = Setting.list("hosts", List.of(), "Hosts.");
  private static final ConfigSchema SCHEMA =
      ConfigSchema.of("sample", PORT, MAX_AGE, FACTOR, ANYONE, NAMESERVER, HOSTS);
  private static Path dir;

  @BeforeAll
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("yaml-fuzz");
  }

  @AfterAll
  static void removeDir() throws IOException {
    Files.deleteIfExists(dir.resolve("c.yaml"));
    Files.deleteIfExists(dir);
  }

  @FuzzTest
  void read(byte[] data) throws IOException {
    Path file = Files.write(dir.resolve("c.yaml"), data);
    ConfigValues values;
    try {
      values = ConfigValues.builder(SCHEMA).file(file).build();
    } catch (ConfigException e) {
      assertNotNull(e.getMessage());
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
      return;
    }
    int port = values.get(PORT);
    assertTrue(port >= 0 && port <= 65_535, "port " + port);
    assertTrue(values.get(MAX_AGE) >= 0);
    assertTrue(values.get(FACTOR) > 0);
    assertNotNull(values.get(ANYONE));
    assertNotNull(values.get(NAMESERVER));
    for (String host : values.get(HOSTS)) {
      assertNotNull(host);
    }
    assertEquals(SCHEMA.settings().size(), values.values().size());
  }
}
