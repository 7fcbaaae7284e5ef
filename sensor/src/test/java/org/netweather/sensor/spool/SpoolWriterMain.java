package org.netweather.sensor.spool;

import java.nio.file.Path;

/**
 * A child process for {@link SpoolKillTest}: appends forever, acknowledging every third entry, and
 * prints each operation only after it returned (so only what was durable is reported).
 */
public final class SpoolWriterMain {

  private SpoolWriterMain() {}

  public static void main(String[] args) throws Exception {
    Spool spool = Spool.open(Path.of(args[0]), new SpoolOptions(1L << 30, 1L << 20));
    for (long i = 1; ; i++) {
      long seq = spool.append("cpu.availability:child", i, i / 10.0);
      System.out.println("append " + seq + " " + i);
      if (i % 3 == 0) {
        spool.acknowledge(seq);
        System.out.println("ack " + seq);
      }
      System.out.flush();
    }
  }
}
