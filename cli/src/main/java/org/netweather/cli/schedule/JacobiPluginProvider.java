package org.netweather.cli.schedule;

/** Provides {@code nws schedule jacobi}: AppLeS Jacobi2D strip partitioning. */
public final class JacobiPluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "jacobi";
  }

  @Override
  public String description() {
    return "AppLeS Jacobi2D: choose hosts and strip widths for an N×N grid";
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
    return new JacobiCommand();
  }
}
