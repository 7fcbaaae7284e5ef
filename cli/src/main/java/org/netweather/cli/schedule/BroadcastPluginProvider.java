package org.netweather.cli.schedule;

/** Provides {@code nws schedule broadcast}: logical clusters, poly-model and ECEF. */
public final class BroadcastPluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "broadcast";
  }

  @Override
  public String description() {
    return "Hierarchical broadcast: latency clusters, model and algorithm per cluster, ECEF";
  }

  @Override
  public boolean isAvailable() {
    return true;
  }

  @Override
  public int priority() {
    return 5;
  }

  @Override
  public Object newCommand() {
    return new BroadcastCommand();
  }
}
