package org.netweather.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  /** A properties class shaped like the daemons' ones. */
  public static final class SampleProperties {
    public int port = 8050;
    public String dataDir = "nws-data";
  }

  @TempDir Path dir;

  @Test
  void load_noFile_givesDefaults() {
    assertEquals(8050, ConfigLoader.load(null, SampleProperties.class).port);
  }

  @Test
  void load_knownKeys_overrideDefaults() throws Exception {
    Path f = Files.writeString(dir.resolve("c.yaml"), "port: 9000\n");
    SampleProperties p = ConfigLoader.load(f, SampleProperties.class);
    assertEquals(9000, p.port);
    assertEquals("nws-data", p.dataDir);
  }

  @Test
  void load_unknownKey_namesIt() throws Exception {
    Path f = Files.writeString(dir.resolve("c.yaml"), "prot: 9000\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(f, SampleProperties.class));
    assertTrue(e.getMessage().contains("unknown key 'prot'"), e.getMessage());
  }

  @Test
  void load_badValueOrMissingFile_saysWhich() throws Exception {
    Path f = Files.writeString(dir.resolve("c.yaml"), "port: many\n");
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(f, SampleProperties.class)).getMessage().contains("c.yaml"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ConfigLoader.load(dir.resolve("none.yaml"), SampleProperties.class)).getMessage()
        .contains("cannot be read"));
  }
}
