package org.netweather.scheduler.swap;

/**
 * One process of an iterative application written for swapping: it registers its iteration state
 * once and does one iteration of one rank's work when asked. The {@link ProcessGroup} calls the
 * swap point between iterations, as {@code MPI_Swap()} sits in the paper's loop.
 */
public interface IterativeProcess {
  /** Registers everything a swap must move (called once, before the first iteration). */
  void register(SwapState state);

  /** One iteration of the rank this process currently holds. */
  void iterate(int rank, int iteration);
}
