package org.netweather.runtime.config;

/**
 * A configuration that cannot be used: an unknown key, a bad value, a file that cannot be read or
 * parsed. The message is one line naming the key and where the value came from; the command line
 * turns it into exit status 2.
 */
public final class ConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
