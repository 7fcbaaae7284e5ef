package org.netweather.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.netweather.cli.daemon.ConfiguredCommand;
import org.netweather.runtime.config.Setting;

/** docs/configuration.md is what the settings' declarations say, every key of every daemon. */
class ConfigReferenceTest {
  private static Path doc() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("docs/ARCHITECTURE.md"))) {
        return dir.resolve("docs/configuration.md");
      }
    }
    throw new IllegalStateException("docs/ not found");
  }

  @Test
  void docsConfigurationMd_isUpToDate() throws Exception {
    String expected = ConfigReference.markdown();
    Path doc = doc();
    String actual = Files.exists(doc) ? Files.readString(doc) : "";
    if (!expected.equals(actual)) {
      // Beside the build's output, for copying over the stale one.
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target/configuration.md"), expected);
    }
    assertEquals(
        expected,
        actual,
        "docs/configuration.md is stale: run"
            + " `bin/nws config reference > docs/configuration.md` (or copy"
            + " cli/target/configuration.md)");
  }

  @Test
  void reference_hasEveryKeyOfEveryDaemon() {
    String md = ConfigReference.markdown();
    for (var daemon : ConfigCommand.daemons().values()) {
      ConfiguredCommand c = daemon.get();
      assertTrue(md.contains("## " + c.schema().name() + "\n"), c.schema().name());
      for (Setting<?> s : c.schema().settings()) {
        assertTrue(md.contains("| `" + s.key() + "` | `" + s.flag() + " "), s.key());
      }
    }
  }
}
