package org.netweather.cli.config;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code nws config reference}: every daemon's settings as Markdown (docs/configuration.md). */
@Command(
    name = "reference",
    description = "Print every daemon's settings (key, flag, type, default, meaning) as Markdown.")
public final class ReferenceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().print(ConfigReference.markdown());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
