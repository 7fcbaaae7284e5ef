package org.netweather.sensor.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.netweather.model.interference.InterferenceFit;
import org.netweather.sensor.FakeTicker;
import org.netweather.sensor.Reading;

class InterferenceExperimentTest {

  private static final InetSocketAddress PEER =
      new InetSocketAddress(InetAddress.getLoopbackAddress(), 1);
  private static final double IR = 0.04;
  private static final double LINK_BYTES_PER_S = 10e6;

  /**
   * A simulated host: transfers run at min(requested, link) and each compute task takes 10 ms / (1
   * - IR * MB/s in flight), the paper's linear model.
   */
  private final FakeTicker ticker = new FakeTicker();

  private double currentRate;
  private final List<Double> requested = new ArrayList<>();

  private final ComputeKernel kernel =
      () -> ticker.advance((long) (10e6 / (1 - IR * currentRate / 1e6)));

  private final TransferDriver driver =
      (peer, direction, bytesPerSecond) -> {
        requested.add(bytesPerSecond);
        double rate = Math.min(bytesPerSecond, LINK_BYTES_PER_S);
        long start = ticker.nanoTime();
        currentRate = rate;
        return new TransferDriver.Transfer() {
          boolean open = true;

          @Override
          public long bytes() {
            return (long) (rate * (ticker.nanoTime() - start) / 1e9);
          }

          @Override
          public void close() {
            if (open) {
              open = false;
              currentRate = 0;
            }
          }
        };
      };

  @Test
  void run_linearHost_fitRecoversInterferenceRate() throws Exception {
    InterferenceExperiment experiment =
        new InterferenceExperiment(kernel, driver, ticker, InterferenceOptions.defaults());

    InterferenceExperiment.Result result = experiment.run(PEER, Direction.SEND);
    InterferenceFit ir = result.fit();

    assertEquals(IR, ir.rate(), 1e-3);
    assertEquals(1.0, ir.intercept(), 1e-3);
    // Phases: idle, full (capped at 50 MB/s, link gives 10), then 0.75, 0.5, 0.25 of 10 MB/s.
    assertEquals(List.of(50e6), requested.subList(0, 1));
    assertEquals(7.5e6, requested.get(1), 1e4);
    assertEquals(2.5e6, requested.get(3), 1e4);
    // 2 s per phase at 10, 7.5, 5 and 2.5 MB/s; a phase ends with the task that crosses its end.
    assertEquals(2 * (10 + 7.5 + 5 + 2.5) * 1e6, (double) result.bytes(), 1e6);
  }

  @Test
  void run_firstSampleOfEachPhaseDropped() throws Exception {
    InterferenceOptions opts =
        new InterferenceOptions(Duration.ofSeconds(1), Duration.ofMillis(250), List.of(0.5), 50e6);

    InterferenceExperiment.Result result =
        new InterferenceExperiment(kernel, driver, ticker, opts).run(PEER, Direction.RECEIVE);

    // 3 phases of at most 4 whole intervals, less one warm-up interval each.
    assertTrue(
        result.samples().size() >= 6 && result.samples().size() <= 9,
        "samples " + result.samples().size());
    assertEquals(0, result.samples().get(0).transferMBps());
  }

  @Test
  void measure_skill_readsRateWithStandardErrorAndBytes()
      throws ExecutionException, InterruptedException {
    Executor direct = Runnable::run;
    InterferenceSkill skill =
        new InterferenceSkill(
            Direction.RECEIVE,
            () -> kernel,
            driver,
            ticker,
            InterferenceOptions.defaults(),
            direct);

    Reading r = skill.measure(PEER).toCompletableFuture().get();

    assertEquals("interference.recv", skill.name());
    assertEquals("fraction per MB/s", r.unit());
    assertEquals(IR, r.value(), 1e-3);
    assertTrue(r.extras().get("stderr") < 1e-3);
    assertTrue(r.bytesSpent() > 0);
  }

  @Test
  void resultFit_tooFewSamples_throws() {
    InterferenceExperiment.Result two =
        new InterferenceExperiment.Result(
            List.of(new InterferenceSample(0, 1), new InterferenceSample(1, 0.9)), 0);

    assertThrows(IllegalArgumentException.class, two::fit);
  }

  @Test
  void resultFit_threeSamples_fitsTheirLine() {
    InterferenceExperiment.Result three =
        new InterferenceExperiment.Result(
            List.of(
                new InterferenceSample(0, 100),
                new InterferenceSample(5, 90),
                new InterferenceSample(10, 80)),
            0);

    InterferenceFit ir = three.fit();

    assertEquals(0.02, ir.rate(), 1e-12);
    assertEquals(3, ir.points());
  }
}
