package org.netweather.forecaster;

import java.util.Arrays;

/**
 * Measurements of many series as flat arrays, the unit in which the forecaster ingests: entry
 * {@code e} is series {@link #series(int) series(e)} with points {@code [from(e), to(e))} of {@link
 * #times()} and {@link #values()}; and the names of series deleted at the source, to be applied
 * before the entries. One array set per batch, so a point costs no object of its own.
 *
 * <pre>{@code
 * PointBatch b = new PointBatch();
 * b.startSeries("cpu.availability:a");
 * b.add(1000, 0.5);
 * b.add(2000, 0.6);
 * forecasts.apply(b);
 * }</pre>
 *
 * <p>Not thread-safe; built by one thread, then handed over.
 */
public final class PointBatch {
  private String[] series = new String[8];
  private int[] ends = new int[8]; // entry e ends before ends[e]
  private int entries;
  private long[] times = new long[32];
  private double[] values = new double[32];
  private int points;
  private String[] deleted = new String[0];
  private int deletedCount;
  private boolean caughtUp;

  /** Starts the points of another series; later {@link #add} calls belong to it. */
  public void startSeries(String name) {
    if (entries == series.length) {
      series = Arrays.copyOf(series, entries * 2);
      ends = Arrays.copyOf(ends, entries * 2);
    }
    series[entries] = name;
    ends[entries] = points;
    entries++;
  }

  /** Names the series started last (a decoder may meet its name after its points). */
  void nameLast(String name) {
    series[entries - 1] = name;
  }

  /** Adds a point to the series started last. */
  public void add(long timestampMs, double value) {
    if (entries == 0) {
      throw new IllegalStateException("startSeries first");
    }
    if (points == times.length) {
      times = Arrays.copyOf(times, points * 2);
      values = Arrays.copyOf(values, points * 2);
    }
    times[points] = timestampMs;
    values[points] = value;
    points++;
    ends[entries - 1] = points;
  }

  /** Records that a series was deleted at the source. */
  public void deleted(String name) {
    if (deletedCount == deleted.length) {
      deleted = Arrays.copyOf(deleted, Math.max(4, deletedCount * 2));
    }
    deleted[deletedCount++] = name;
  }

  /** Marks the message that follows a shard-filtered watch's stored points. */
  void caughtUp(boolean value) {
    caughtUp = value;
  }

  /** Whether the memory-host has sent every stored point of the watch before this message. */
  boolean caughtUp() {
    return caughtUp;
  }

  public int entries() {
    return entries;
  }

  public String series(int entry) {
    return series[entry];
  }

  public int from(int entry) {
    return entry == 0 ? 0 : ends[entry - 1];
  }

  public int to(int entry) {
    return ends[entry];
  }

  /** Timestamps of all points; valid up to {@link #points()}. */
  public long[] times() {
    return times;
  }

  /** Values of all points; valid up to {@link #points()}. */
  public double[] values() {
    return values;
  }

  public int points() {
    return points;
  }

  public int deletedCount() {
    return deletedCount;
  }

  public String deletedSeries(int i) {
    return deleted[i];
  }

  /** Empties the batch, keeping its arrays. */
  public void clear() {
    Arrays.fill(series, 0, entries, null);
    Arrays.fill(deleted, 0, deletedCount, null);
    entries = 0;
    points = 0;
    deletedCount = 0;
    caughtUp = false;
  }
}
