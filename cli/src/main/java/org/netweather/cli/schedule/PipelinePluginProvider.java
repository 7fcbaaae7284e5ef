package org.netweather.cli.schedule;

/** Provides {@code nws schedule pipeline}: FCP and BFC filter-pipeline placement. */
public final class PipelinePluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "pipeline";
  }

  @Override
  public String description() {
    return "Filter pipelines (DataCutter): FCP and BFC copies and placement, simulated execution";
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
    return new PipelineCommand();
  }
}
