package org.netweather.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code nws --version}: the version and commit the build wrote into the launcher's jar ({@code
 * netweather-version.properties}, {@code netweather-git.properties}), "unknown" where they are
 * missing (e.g. run from a module's classes in a test).
 */
public final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    Properties version = load("/netweather-version.properties");
    Properties git = load("/netweather-git.properties");
    String commit = git.getProperty("git.commit.id.abbrev", "unknown");
    if ("true".equals(git.getProperty("git.dirty"))) {
      commit += " (with uncommitted changes)";
    }
    return new String[] {
      "NetWeather " + version.getProperty("version", "unknown"),
      "commit "
          + commit
          + (git.containsKey("git.commit.time") ? ", " + git.getProperty("git.commit.time") : ""),
      "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ")"
    };
  }

  private static Properties load(String resource) {
    Properties p = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream(resource)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // no such build information: reported as unknown
    }
    return p;
  }
}
