package org.netweather.runtime.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Marker;

/**
 * Folds repeated identical warnings and errors: the first of a kind (same logger, same message
 * template, same exception class) in a window is logged, the rest of the window only counted, and
 * the count is logged as "repeated N times in the last S s" when the kind next occurs after the
 * window or when {@link #flush} finds the window over. A peer that is down for an hour then costs
 * one line a minute, not one per retry. At most {@value #KINDS} kinds are tracked.
 *
 * <p>A marker, when the event has one, is part of the kind: a caller that fails against several
 * peers marks each event with the peer (say, {@code MarkerFactory.getDetachedMarker(address)}), so
 * one peer's failures do not hide another's, and the count names the peer it is about.
 */
public final class RepeatFilter extends TurboFilter {
  static final int KINDS = 1_000;

  private final long windowMs;
  private final LongSupplier clockMs;
  private final Map<String, Window> windows = new LinkedHashMap<>();
  private final ThreadLocal<Boolean> reporting = ThreadLocal.withInitial(() -> false);

  private static final class Window {
    final Logger logger;
    final String template;
    final String tag;
    long start;
    long suppressed;

    Window(Logger logger, String template, String tag, long start) {
      this.logger = logger;
      this.template = template;
      this.tag = tag;
      this.start = start;
    }
  }

  public RepeatFilter(long windowMs, LongSupplier clockMs) {
    this.windowMs = windowMs;
    this.clockMs = clockMs;
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (level == null || !level.isGreaterOrEqual(Level.WARN) || format == null || reporting.get()) {
      return FilterReply.NEUTRAL;
    }
    if (!logger.isEnabledFor(level)) {
      return FilterReply.NEUTRAL;
    }
    String tag = marker == null ? "" : marker.getName();
    String key =
        logger.getName()
            + '\u0000'
            + format
            + '\u0000'
            + (t == null ? "" : t.getClass().getName())
            + '\u0000'
            + tag;
    long now = clockMs.getAsLong();
    Window report = null;
    long count = 0;
    synchronized (windows) {
      Window w = windows.get(key);
      if (w != null && now - w.start < windowMs) {
        w.suppressed++;
        return FilterReply.DENY;
      }
      if (w != null) {
        report = w;
        count = w.suppressed;
        w.start = now;
        w.suppressed = 0;
      } else {
        if (windows.size() >= KINDS) {
          Iterator<Window> oldest = windows.values().iterator();
          oldest.next();
          oldest.remove();
        }
        windows.put(key, new Window(logger, format, tag, now));
      }
    }
    if (report != null && count > 0) {
      report(report, count);
    }
    return FilterReply.NEUTRAL;
  }

  /** Logs the counts of windows that have ended; the daemon calls it periodically. */
  public void flush() {
    long now = clockMs.getAsLong();
    Map<Window, Long> due = new LinkedHashMap<>();
    synchronized (windows) {
      for (Window w : windows.values()) {
        if (w.suppressed > 0 && now - w.start >= windowMs) {
          due.put(w, w.suppressed);
          w.suppressed = 0;
        }
      }
    }
    due.forEach(this::report);
  }

  private void report(Window w, long count) {
    reporting.set(true);
    try {
      w.logger.warn(
          "previous message repeated {} more times in the last {} s: {}{}",
          count,
          windowMs / 1000,
          w.tag.isEmpty() ? "" : "[" + w.tag + "] ",
          w.template);
    } finally {
      reporting.set(false);
    }
  }
}
