package org.netweather.runtime.config;

import java.nio.file.Path;

/**
 * Where a configuration value came from, for error messages and {@code nws config show}.
 *
 * @param kind default, file, flag, derived from another setting, or set by a program
 * @param where the file, the flag, or what the value was derived from; empty otherwise
 * @param line the line in the file, 0 if unknown or not from a file
 */
public record Source(Kind kind, String where, int line) {
  /** The kinds of source. */
  public enum Kind {
    DEFAULT,
    FILE,
    FLAG,
    DERIVED,
    CODE
  }

  public static final Source DEFAULT = new Source(Kind.DEFAULT, "", 0);

  /** Set by a program (tests, embedding), not by a user. */
  public static final Source CODE = new Source(Kind.CODE, "", 0);

  public static Source file(Path file, int line) {
    return new Source(Kind.FILE, file.toString(), line);
  }

  public static Source flag(String flag) {
    return new Source(Kind.FLAG, flag, 0);
  }

  /** A value computed from another setting, e.g. by {@code nws up}. */
  public static Source derived(String from) {
    return new Source(Kind.DERIVED, from, 0);
  }

  /** How an error about {@code key} starts, e.g. {@code config file x.yaml, line 3: port}. */
  String errorPrefix(String key) {
    return switch (kind) {
      case FILE -> fileAt(where, line) + ": " + key;
      case FLAG -> key + " (" + where + ")";
      default -> key;
    };
  }

  /** {@code config file PATH} with the line (and column) when known. */
  static String fileAt(String file, int line) {
    return "config file " + file + (line > 0 ? ", line " + line : "");
  }

  @Override
  public String toString() {
    return switch (kind) {
      case DEFAULT -> "default";
      case CODE -> "set in code";
      case FILE -> "file " + where + (line > 0 ? ":" + line : "");
      case FLAG -> "flag " + where;
      case DERIVED -> where;
    };
  }
}
