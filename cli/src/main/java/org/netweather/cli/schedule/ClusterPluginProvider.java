package org.netweather.cli.schedule;

/** Provides {@code nws schedule cluster} (also the hidden top-level {@code nws cluster}). */
public final class ClusterPluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "cluster";
  }

  @Override
  public String description() {
    return "Latency clustering: hosts grouped by a relative latency bound";
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
    return new ClusterCommand();
  }
}
