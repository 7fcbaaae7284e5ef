package org.netweather.runtime.logging;

import ch.qos.logback.classic.pattern.ThrowableProxyConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.regex.Pattern;

/**
 * An event's exception on the event's own line: " | " and the exception with its first frames (as
 * many as the pattern asks for), each on the same line after " | "; nothing without an exception.
 * An operator's grep then finds one event per line.
 */
public final class OneLineThrowableConverter extends ThrowableProxyConverter {
  private static final Pattern BREAKS = Pattern.compile("\\s*[\\r\\n]+\\s*");

  @Override
  public String convert(ILoggingEvent event) {
    String full = super.convert(event);
    if (full.isBlank()) {
      return "";
    }
    return " | " + BREAKS.matcher(full.strip()).replaceAll(" | ");
  }
}
