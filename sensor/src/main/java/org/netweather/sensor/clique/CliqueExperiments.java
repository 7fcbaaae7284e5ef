package org.netweather.sensor.clique;

import java.util.concurrent.CompletionStage;

/**
 * Runs a clique's experiments (its activities' network skills) from this host to one peer; the
 * holder calls it for each other member in turn, never two at once.
 *
 * <p>When the stage is cancelled (the experiment outran its time-out) the implementation should
 * stop probing at once, as the original killed an overrunning child.
 */
@FunctionalInterface
public interface CliqueExperiments {

  /** Probes {@code peer} for clique {@code clique}; the stage completes when done. */
  CompletionStage<?> run(String clique, String peer);
}
