package org.netweather.cli.schedule;

/** Provides {@code nws schedule swap} (also the hidden top-level {@code nws swap}). */
public final class SwapPluginProvider implements SchedulerPluginProvider {
  @Override
  public String name() {
    return "swap";
  }

  @Override
  public String description() {
    return "Process swapping: watch and force swaps, and hosts as the swap policies see them";
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
    return new SwapCommand();
  }
}
