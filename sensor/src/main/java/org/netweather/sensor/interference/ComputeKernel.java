package org.netweather.sensor.interference;

/** One atomic compute task whose completion rate the interference experiment watches. */
@FunctionalInterface
public interface ComputeKernel {

  /** Runs one task to completion on the calling thread. */
  void runTask();
}
