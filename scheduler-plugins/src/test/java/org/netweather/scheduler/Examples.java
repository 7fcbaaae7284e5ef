package org.netweather.scheduler;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository's {@code examples/} directory from wherever the tests run. */
public final class Examples {
  private Examples() {}

  /** {@code examples/RELATIVE}, searching upwards from the working directory. */
  public static Path path(String relative) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("examples").resolve(relative);
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(
        "examples/" + relative + " not found above " + Path.of("").toAbsolutePath());
  }
}
