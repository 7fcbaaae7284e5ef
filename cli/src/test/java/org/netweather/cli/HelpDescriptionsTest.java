package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/** Every command, option and parameter of {@code nws} says what it is in its {@code --help}. */
class HelpDescriptionsTest {
  @Test
  void everyCommandOptionAndParameter_hasADescription() {
    List<String> missing = new ArrayList<>();
    walk(NwsCommand.commandLine(), missing);
    assertEquals(List.of(), missing, "add a description to each of these");
  }

  private static void formats(String command, String line, List<String> problems) {
    try {
      String.format(line.replace("${DEFAULT-VALUE}", "x").replace("${COMPLETION-CANDIDATES}", "x"));
    } catch (java.util.IllegalFormatException e) {
      problems.add(command + ": '" + line + "' is not a valid format (write %% for %)");
    }
  }

  private static void walk(CommandLine cmd, List<String> missing) {
    CommandSpec spec = cmd.getCommandSpec();
    String name = spec.qualifiedName();
    if (String.join("", spec.usageMessage().description()).isBlank()) {
      missing.add(name);
    }
    // picocli formats descriptions: a bare '%' garbles the whole --help.
    for (String line : spec.usageMessage().description()) {
      formats(name, line, missing);
    }
    for (ArgSpec arg : spec.args()) {
      for (String line : arg.description()) {
        formats(name, line, missing);
      }
      if (String.join("", arg.description()).isBlank()) {
        missing.add(
            name
                + " "
                + (arg.isOption()
                    ? ((CommandLine.Model.OptionSpec) arg).longestName()
                    : arg.paramLabel()));
      }
    }
    for (CommandLine sub : cmd.getSubcommands().values()) {
      if (!sub.getCommandSpec().qualifiedName().equals(name)) {
        walk(sub, missing);
      }
    }
  }
}
