package org.netweather.sensor.daemon;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.LongSupplier;
import org.netweather.sensor.Reading;
import org.netweather.sensor.spool.Spool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Writes readings to the spool (durably), notes what a full spool dropped, asks for delivery. */
final class Recorder {
  private static final Logger log = LoggerFactory.getLogger(Recorder.class);

  private final Spool spool;
  private final Runnable nudge;
  private final LongSupplier clockMs;
  private final SensorMetrics metrics;

  Recorder(Spool spool, Runnable nudge, LongSupplier clockMs, SensorMetrics metrics) {
    this.spool = spool;
    this.nudge = nudge;
    this.clockMs = clockMs;
    this.metrics = metrics;
  }

  void record(String series, Reading reading) {
    try {
      spool.append(series, clockMs.getAsLong(), reading.value());
      metrics.spoolDropped(spool.dropped());
      log.debug(
          "{} = {} {} ({} bytes)", series, reading.value(), reading.unit(), reading.bytesSpent());
    } catch (IOException e) {
      throw new UncheckedIOException("spooling " + series + " failed", e);
    }
    nudge.run();
  }
}
