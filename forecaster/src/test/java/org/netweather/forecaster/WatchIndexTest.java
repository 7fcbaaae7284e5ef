package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.SeriesPattern;

class WatchIndexTest {
  private final SeriesForecasts forecasts = new SeriesForecasts(BatteryLayout.standard());
  private final WatchIndex index = new WatchIndex();

  /** Records what it is offered. */
  private static final class Recorder implements WatchIndex.Watcher {
    final List<String> added = new ArrayList<>();
    final List<String> forgotten = new ArrayList<>();
    int flushes;

    @Override
    public void add(SeriesForecasts.Series series) {
      added.add(series.name());
    }

    @Override
    public void flush() {
      flushes++;
    }

    @Override
    public void forget(SeriesForecasts.Series series) {
      forgotten.add(series.name());
    }
  }

  private static List<SeriesPattern> patterns(String... p) {
    return java.util.Arrays.stream(p).map(SeriesPattern::parse).toList();
  }

  private void measure(long ts, String... series) {
    PointBatch b = new PointBatch();
    for (String s : series) {
      b.startSeries(s);
      b.add(ts, 1.0);
    }
    forecasts.apply(b);
  }

  @Test
  void updates_goToTheWatchersWhosePatternsMatch_onceEach_withOneFlushPerUpdate() {
    forecasts.addListener(index);
    Recorder alpha = new Recorder();
    Recorder all = new Recorder();
    index.subscribe(patterns("*:alpha", "*:alpha->*", "cpu.availability:alpha"), alpha);
    index.subscribe(patterns("*"), all);

    measure(1, "cpu.availability:alpha", "tcp.latency:alpha->beta", "cpu.availability:beta");

    assertEquals(List.of("cpu.availability:alpha", "tcp.latency:alpha->beta"), alpha.added);
    assertEquals(3, all.added.size());
    assertEquals(1, alpha.flushes);
    assertEquals(1, all.flushes);
  }

  @Test
  void aWatcherThatComesOrGoes_isSeenByTheNextUpdateOfEverySeries() {
    forecasts.addListener(index);
    Recorder first = new Recorder();
    index.subscribe(patterns("*:alpha"), first);
    measure(1, "cpu.availability:alpha"); // cached: first only

    Recorder late = new Recorder();
    index.subscribe(patterns("cpu.*"), late);
    measure(2, "cpu.availability:alpha");
    assertEquals(List.of("cpu.availability:alpha"), late.added);

    index.cancel(first);
    measure(3, "cpu.availability:alpha");
    assertEquals(2, first.added.size(), "nothing after cancel");
    assertEquals(2, late.added.size());
    assertEquals(1, index.watcherCount());
  }

  @Test
  void deletion_isToldToTheWatchersOfThatSeries() {
    forecasts.addListener(index);
    Recorder alpha = new Recorder();
    Recorder beta = new Recorder();
    index.subscribe(patterns("*:alpha"), alpha);
    index.subscribe(patterns("*:beta"), beta);
    measure(1, "memory.free:alpha", "memory.free:beta");

    forecasts.delete("memory.free:alpha");

    assertEquals(List.of("memory.free:alpha"), alpha.forgotten);
    assertEquals(List.of(), beta.forgotten);
  }
}
