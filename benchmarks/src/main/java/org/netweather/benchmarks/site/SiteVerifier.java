package org.netweather.benchmarks.site;

import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netweather.api.v1.Criterion;
import org.netweather.api.v1.Forecast;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.SeriesSummary;
import org.netweather.client.NetWeatherClient;

/**
 * The end-of-run check that every acknowledged measurement is stored exactly once: every series'
 * count (ListSeries, asked per resource and per hundred source hosts to keep answers small) against
 * the acknowledged count, and a sample of series read back fully (Fetch) and compared point by
 * point, timestamps and values, with what was acknowledged.
 */
final class SiteVerifier {
  private static final int FORECAST_CHUNK = 5_000;

  /** What the check found. */
  record Result(
      long seriesStored,
      long pointsStored,
      long seriesMissing,
      long countMismatches,
      long unknownSeries,
      List<String> examples,
      int sampleSeries,
      long samplePoints,
      long sampleMissing,
      long sampleExtra,
      long sampleDuplicates,
      long sampleWrongValues,
      long forecastSeries,
      long forecastCount) {

    boolean exactlyOnce() {
      return seriesMissing == 0
          && countMismatches == 0
          && sampleMissing == 0
          && sampleExtra == 0
          && sampleDuplicates == 0
          && sampleWrongValues == 0;
    }
  }

  private final SitePlan plan;
  private final AckLedger ledger;
  private final ValueModel values;
  private final NetWeatherClient client;

  SiteVerifier(SitePlan plan, AckLedger ledger, ValueModel values, NetWeatherClient client) {
    this.plan = plan;
    this.ledger = ledger;
    this.values = values;
    this.client = client;
  }

  Result verify(List<Integer> sample) {
    Map<String, Long> stored = new HashMap<>();
    List<String> resources = new ArrayList<>(List.of(SitePlan.HOST_RESOURCES));
    resources.addAll(List.of(SitePlan.PAIR_RESOURCES));
    for (String r : resources) {
      for (int g = 0; g * 100 < plan.hostCount(); g++) {
        for (SeriesSummary s : client.series(String.format("%s:h%03d*", r, g))) {
          stored.put(s.getSeries(), s.getCount());
        }
      }
    }
    long points = 0;
    long matched = 0;
    long missing = 0;
    long mismatches = 0;
    List<String> examples = new ArrayList<>();
    for (int i = 0; i < plan.series().size(); i++) {
      String name = plan.series().get(i);
      Long n = stored.remove(name);
      long acked = ledger.ackedOf(i);
      if (n == null) {
        if (acked > 0) {
          missing++;
          note(examples, name + ": " + acked + " acknowledged, series absent");
        }
        continue;
      }
      points += n;
      matched++;
      if (n != acked) {
        mismatches++;
        note(examples, name + ": " + acked + " acknowledged, " + n + " stored");
      }
    }
    long unknown = stored.size();
    stored.keySet().stream().limit(3).forEach(s -> note(examples, s + ": stored, never sent"));

    long samplePoints = 0;
    long sMissing = 0;
    long sExtra = 0;
    long sDup = 0;
    long sWrong = 0;
    for (int i : sample) {
      String name = plan.series().get(i);
      List<Long> acked = ledger.sampleTimestamps(i);
      List<Measurement> got =
          acked.isEmpty() ? List.of() : client.range(name, 1, 0).getPointsList();
      samplePoints += acked.size();
      Map<Long, Integer> seen = new HashMap<>();
      for (Measurement m : got) {
        if (seen.merge(m.getTimestampMs(), 1, Integer::sum) > 1) {
          sDup++;
          note(examples, name + " @" + m.getTimestampMs() + ": stored twice");
        }
        if (m.getValue() != values.value(name, i, m.getTimestampMs())) {
          sWrong++;
          note(examples, name + " @" + m.getTimestampMs() + ": value " + m.getValue());
        }
      }
      for (long ts : acked) {
        if (seen.remove(ts) == null) {
          sMissing++;
          note(examples, name + " @" + ts + ": acknowledged, not stored");
        }
      }
      sExtra += seen.size();
    }

    long fSeries = 0;
    long fCount = 0;
    List<String> all = plan.series();
    try {
      for (int from = 0; from < all.size(); from += FORECAST_CHUNK) {
        for (Forecast f :
            client
                .forecasts(
                    all.subList(from, Math.min(all.size(), from + FORECAST_CHUNK)),
                    Criterion.CRITERION_MSE)
                .getForecastsList()) {
          fSeries++;
          fCount += f.getCount();
        }
      }
    } catch (StatusRuntimeException e) {
      // The stored points are what is checked; a forecaster that cannot answer is said, not fatal.
      note(examples, "forecasts unavailable: " + e.getStatus());
      fSeries = -1;
    }
    return new Result(
        matched,
        points,
        missing,
        mismatches,
        unknown,
        examples,
        sample.size(),
        samplePoints,
        sMissing,
        sExtra,
        sDup,
        sWrong,
        fSeries,
        fCount);
  }

  private static void note(List<String> examples, String s) {
    if (examples.size() < 10) {
      examples.add(s);
    }
  }
}
