package org.netweather.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Config files are bounded: an overlong string or an oversized file is refused naming both. */
class YamlConfigFileTest {
  @TempDir Path dir;

  @Test
  void read_stringOverLimit_refusedNamingFileLineAndLimit() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("long.yaml"),
            "port: 8090\nname: " + "x".repeat(YamlConfigFile.MAX_STRING_CHARS + 1) + "\n");
    ConfigException e = assertThrows(ConfigException.class, () -> YamlConfigFile.read(file));
    assertTrue(e.getMessage().startsWith("config file " + file + ", line 2"), e.getMessage());
    assertTrue(
        e.getMessage().contains("longer than the " + YamlConfigFile.MAX_STRING_CHARS),
        e.getMessage());
  }

  @Test
  void read_fileOverLimit_refusedNamingFileAndLimit() throws Exception {
    // 30 MB in one string, as in the report that kept `nws config show` busy for minutes.
    Path file =
        Files.writeString(dir.resolve("huge.yaml"), "name: " + "x".repeat(30_000_000) + "\n");
    ConfigException e = assertThrows(ConfigException.class, () -> YamlConfigFile.read(file));
    assertTrue(
        e.getMessage().startsWith("config file " + file + ": 30000007 bytes"), e.getMessage());
    assertTrue(e.getMessage().contains(Integer.toString(YamlConfigFile.MAX_FILE_BYTES)));
  }

  @Test
  void read_stringAtLimit_read() throws Exception {
    String value = "x".repeat(YamlConfigFile.MAX_STRING_CHARS);
    Path file = Files.writeString(dir.resolve("ok.yaml"), "name: " + value + "\n");
    assertEquals(value, YamlConfigFile.read(file).entries().get("name").value().asText());
  }
}
