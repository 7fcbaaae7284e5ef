package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.SeriesPattern;

class SeriesForecastsTest {
  private static final BatteryLayout LAYOUT = BatteryLayout.standard().withBurnIn(20);
  private static final String[] SERIES = {
    "cpu.availability:a", "cpu.availability:b", "tcp.latency:a->b"
  };

  @Test
  void batches_giveTheSameForecastsAsPointByPoint_includingOverlapsAndBadValues() {
    SeriesForecasts byPoint = new SeriesForecasts(LAYOUT);
    SeriesForecasts byBatch = new SeriesForecasts(LAYOUT);
    Random rnd = new Random(7);
    long[] next = new long[SERIES.length];
    int fedByPoint = 0;
    int fedByBatch = 0;
    for (int round = 0; round < 150; round++) {
      PointBatch batch = new PointBatch();
      for (int e = 0; e < 1 + rnd.nextInt(6); e++) {
        int s = rnd.nextInt(SERIES.length);
        batch.startSeries(SERIES[s]);
        // Some entries restart a little in the past, as a resumed stream does.
        long t = Math.max(1, next[s] - (rnd.nextInt(4) == 0 ? 3 : 0));
        for (int i = 0; i < 1 + rnd.nextInt(5); i++, t++) {
          double v = rnd.nextInt(30) == 0 ? Double.NaN : Math.sin(t * 0.3) + rnd.nextGaussian();
          batch.add(t, v);
          fedByPoint += byPoint.observe(SERIES[s], new long[] {t}, new double[] {v}, 1);
        }
        next[s] = Math.max(next[s], t);
      }
      fedByBatch += byBatch.apply(batch);
    }
    assertEquals(fedByPoint, fedByBatch);
    assertTrue(fedByBatch > 600, "enough points to get past the burn-in: " + fedByBatch);
    for (String s : SERIES) {
      assertEquals(byPoint.get(s).orElseThrow(), byBatch.get(s).orElseThrow(), s);
    }
  }

  @Test
  void listeners_hearEachChangedSeriesOncePerBatch() {
    SeriesForecasts forecasts = new SeriesForecasts(LAYOUT);
    List<List<String>> heard = new ArrayList<>();
    forecasts.addListener(
        (changed, n) -> {
          List<String> names = new ArrayList<>();
          for (int i = 0; i < n; i++) {
            names.add(changed[i].name());
          }
          heard.add(names);
        });
    PointBatch b = new PointBatch();
    b.startSeries(SERIES[0]);
    b.add(1, 1);
    b.add(2, 2);
    b.startSeries(SERIES[1]);
    b.add(1, 1);
    assertEquals(3, forecasts.apply(b));
    assertEquals(0, forecasts.apply(b), "nothing new the second time");
    assertEquals(List.of(List.of(SERIES[0], SERIES[1])), heard);
  }

  @Test
  void deletedSeries_loseTheirForecasts_andStartAfreshIfFedAgain() {
    SeriesForecasts forecasts = new SeriesForecasts(LAYOUT);
    List<String> deleted = new ArrayList<>();
    forecasts.addListener(
        new SeriesForecasts.Listener() {
          @Override
          public void updated(SeriesForecasts.Series[] changed, int n) {}

          @Override
          public void deleted(SeriesForecasts.Series series) {
            deleted.add(series.name());
          }
        });
    for (String s : SERIES) {
      forecasts.observe(s, new long[] {1, 2, 3}, new double[] {1, 2, 3}, 3);
    }
    PointBatch b = new PointBatch();
    b.deleted(SERIES[0]);
    b.deleted("cpu.availability:never-seen");
    forecasts.apply(b);

    assertEquals(List.of(SERIES[0]), deleted);
    assertFalse(forecasts.get(SERIES[0]).isPresent());
    assertEquals(2, forecasts.size());
    assertEquals(
        List.of(SERIES[1]),
        forecasts.matching(SeriesPattern.parse("cpu.*")).stream()
            .map(SeriesForecasts.Snapshot::series)
            .toList());

    // Points older than the deleted series' last one are new to the fresh battery.
    forecasts.observe(SERIES[0], new long[] {1}, new double[] {5}, 1);
    assertEquals(1, forecasts.get(SERIES[0]).orElseThrow().mse().count());
  }
}
