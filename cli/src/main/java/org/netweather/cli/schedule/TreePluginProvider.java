package org.netweather.cli.schedule;

/** Provides {@code nws schedule tree}: interference-aware task farming on a tree. */
public final class TreePluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "tree";
  }

  @Override
  public String description() {
    return "Interference-aware task farming: child priority, exclusion, throughput bound";
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
    return new TreeCommand();
  }
}
