package org.netweather.scheduler.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** docs/schedulers/pipelines.md, worked cases D1–D3: the paper's Table 1 (filter Ra). */
class FilterStatsTest {
  static final FilterStats RA =
      new FilterStats(
          "Ra",
          53.2312,
          0.0009,
          0.0172,
          53.2118,
          34.3982,
          0.4498,
          0.2700,
          18.0936,
          0.2757,
          0.0005,
          2477,
          66_411_000,
          2471,
          25_514_000);

  @Test
  void accounting_table1_closesWithinAMillisecond() {
    assertEquals(0.0008, RA.accountingGap(), 1e-9);
    assertEquals(53.2304, RA.tInit() + RA.tWorkq() + RA.tProcess() + RA.tFinalize(), 1e-9);
    // t_read excludes the first read: adding t_readfirst closes the process() budget.
    assertEquals(0.0002, RA.processGap(), 1e-9);
    assertEquals(53.2116, RA.tRead() + RA.tWrite() + RA.tCompute() + RA.tReadFirst(), 1e-9);
  }

  @Test
  void writeFraction_ra_is0_00518() {
    assertEquals(0.00518, RA.writeFraction(), 5e-6);
  }

  @Test
  void rates_ra_matchD3() {
    assertEquals(46.55, RA.observedRate(), 0.005);
    assertEquals(136.90, RA.computeRate(), 0.005);
    assertEquals(2.94, RA.computeRate() / RA.observedRate(), 0.005);
    assertEquals(26.81e3, RA.inBytesPerBuffer(), 5);
    assertEquals(10.33e3, RA.outBytesPerBuffer(), 5);
    assertEquals(0.384, RA.outBytes() / RA.inBytes(), 5e-4);
    // 3.58 MB/s of input at the compute-bound rate (the paper's MB is 1024 of its KB): fits
    // 90 Mbit/s, not a 6 Mbit/s WAN.
    double need = RA.computeRate() * RA.inBytesPerBuffer();
    assertEquals(3.58e6, need / 1.024, 0.01e6);
    assertEquals(true, need * 8 < 90e6 && need * 8 > 7e6);
  }
}
