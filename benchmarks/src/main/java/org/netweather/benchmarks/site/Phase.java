package org.netweather.benchmarks.site;

/** The benchmark's phases, in order. */
enum Phase {
  FILL("fill"),
  FILL_BACKLOG("fill backlog"),
  SETTLE("settle"),
  REAL("real rate"),
  MEMORY_RESTART("memory-host restart"),
  FORECASTER_KILL("forecaster killed"),
  FORECASTER_RESTART("forecaster restart"),
  DRAIN("drain");

  final String label;

  Phase(String label) {
    this.label = label;
  }
}
