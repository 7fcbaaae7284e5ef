package org.netweather.sensor.cpu;

import java.time.Duration;
import java.util.Map;
import org.netweather.sensor.HostSkill;
import org.netweather.sensor.Reading;
import org.netweather.sensor.host.CpuTicks;
import org.netweather.sensor.host.HostMetrics;

/**
 * The {@code cpu.availability} skill: the share of one core (0..1) a new CPU-bound process would
 * get on this host.
 *
 * <p>Each {@link #measure()} is one check of the hybrid sensor: passive readings from {@link
 * HostMetrics} (the run queue averaged over a few readings, CPU ticks since the last check, the
 * load average), corrected by the last spin probe, with a new probe when the fuse burns down (see
 * {@link HybridCpuAvailability}). A check blocks for about 100 ms of run-queue readings, plus the
 * probe's length when it probes.
 *
 * <pre>{@code
 * HostMetrics host = new OshiHostMetrics();
 * CpuAvailabilityOptions opts = CpuAvailabilityOptions.defaults();
 * HostSkill cpu = CpuAvailabilitySkill.create(host, opts);
 * Reading r = cpu.measure(); // every opts.checkPeriod(), on the activity's executor
 * }</pre>
 *
 * <p>Extras: {@code passive} (the uncorrected estimate), {@code bias}, {@code probed} (1 when this
 * check spun).
 */
public final class CpuAvailabilitySkill implements HostSkill {

  public static final String NAME = "cpu.availability";
  public static final String UNIT = "fraction";

  /** Pauses the checking thread between run-queue readings; tests pass a no-op. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final HostMetrics host;
  private final ActiveCpuProbe probe;
  private final CpuAvailabilityOptions options;
  private final Sleeper sleeper;
  private final HybridCpuAvailability hybrid;
  private CpuTicks lastTicks;

  /** The skill with a real, balanced spin probe of {@code options.activeLength()}. */
  public static CpuAvailabilitySkill create(HostMetrics host, CpuAvailabilityOptions options) {
    return new CpuAvailabilitySkill(
        host,
        BalancedSpinProbe.create(options.activeLength()),
        options,
        d -> Thread.sleep(d.toMillis()));
  }

  public CpuAvailabilitySkill(
      HostMetrics host, ActiveCpuProbe probe, CpuAvailabilityOptions options, Sleeper sleeper) {
    this.host = host;
    this.probe = probe;
    this.options = options;
    this.sleeper = sleeper;
    this.hybrid =
        new HybridCpuAvailability(
            new ActiveProbeFuse(
                options.activeEvery(),
                options.minChecksBetweenProbes(
                    probe.cost().compareTo(options.activeLength()) > 0
                        ? probe.cost()
                        : options.activeLength())));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String unit() {
    return UNIT;
  }

  @Override
  public synchronized Reading measure() throws InterruptedException {
    double runnable = averageRunQueue();
    CpuTicks ticks = host.cpuTicks();
    double cpus = host.cpus();
    double busy =
        lastTicks == null ? Double.NaN : ticks.busyCoresSince(lastTicks, host.logicalProcessors());
    lastTicks = ticks;
    PassiveCpu passive = PassiveCpu.from(cpus, host.loadAverage(), runnable, busy);
    CpuEstimate estimate = hybrid.check(passive, probe);
    return new Reading(
        estimate.available(),
        UNIT,
        0,
        Map.of(
            "passive", estimate.passive(),
            "bias", estimate.bias(),
            "probed", estimate.probed() ? 1.0 : 0.0));
  }

  private double averageRunQueue() throws InterruptedException {
    double sum = 0;
    for (int i = 0; i < options.runQueueSamples(); i++) {
      if (i > 0) {
        sleeper.sleep(options.runQueueSpacing());
      }
      double r = host.runnableTasks();
      if (Double.isNaN(r)) {
        return Double.NaN;
      }
      sum += r;
    }
    return sum / options.runQueueSamples();
  }
}
