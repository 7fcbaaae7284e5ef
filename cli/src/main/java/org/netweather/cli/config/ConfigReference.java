package org.netweather.cli.config;

import java.util.function.Supplier;
import org.netweather.cli.daemon.ConfiguredCommand;
import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.Setting;
import picocli.CommandLine.Command;

/**
 * The configuration reference, {@code docs/configuration.md}, written from the settings each daemon
 * declares so it cannot drift from them (a test compares the file with this output).
 */
final class ConfigReference {
  private ConfigReference() {}

  static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append(
        """
        # Configuration reference

        <!-- Generated from the daemons' setting declarations by `nws config reference`;
             ConfigReferenceTest fails when this file is stale. Edit the declarations, then
             run `bin/nws config reference > docs/configuration.md`. -->

        Every daemon takes its settings from, each overriding the one before:

        1. the defaults below;
        2. a YAML file given with `--config FILE`, one `key: value` per setting (an unknown
           key is an error naming the key and the file);
        3. flags: the key in kebab case, so `rawPoints` is `--raw-points`.

        `nws config show DAEMON [--config FILE] [flags]` prints the configuration a daemon
        would run with and where each value came from (`default`, `file PATH:LINE`,
        `flag --NAME`). A value that breaks its rule is reported on one line naming the key
        (and the file and line it came from), and the command exits with status 2; so is a
        missing file, and a YAML syntax error names its line and column.

        ## `nws up`

        `nws up --config FILE` reads one file with a section per daemon, named as the headings
        below (`nameserver`, `memory-host`, `forecaster`, `proxy`, `sensor`), each holding that
        daemon's keys, and an `up` section with the settings of `nws up` itself:

        ```yaml
        up:
          dataDir: /var/lib/nws
          cluster: lab
        memory-host:
          rawPoints: 50000
          maxSeries: 100000
        forecaster:
          burnIn: 50
        ```

        The keys that tie the daemons together (`port`, `dataDir`, `host`, `nameserver`,
        `cluster`, `metricsPort`, the proxy's `hosts`, the sensor's `probePort`) come from the
        `up` section or its flags; setting one of them in a daemon's section is an error that
        names the `up` key to use instead. `nws config show up` lists every daemon's values.

        """);
    for (Supplier<ConfiguredCommand> daemon : ConfigCommand.daemons().values()) {
      ConfiguredCommand command = daemon.get();
      section(b, command.schema(), command.getClass().getAnnotation(Command.class).name());
    }
    return b.toString();
  }

  private static void section(StringBuilder b, ConfigSchema schema, String command) {
    b.append("## ").append(schema.name()).append("\n\n");
    b.append("Command: `nws ").append(command).append(" [--config FILE] [flags]`");
    if (schema.name().equals("up")) {
      b.append(" (the `up` section of its file)");
    }
    b.append(".\n\n");
    b.append("| Key | Flag | Type | Default | Meaning |\n");
    b.append("|---|---|---|---|---|\n");
    for (Setting<?> s : schema.settings()) {
      String type = s.type().name() + (s.rules().isEmpty() ? "" : ", " + s.rules());
      b.append("| `")
          .append(s.key())
          .append("` | `")
          .append(s.flag())
          .append(' ')
          .append(s.label())
          .append("` | ")
          .append(cell(type))
          .append(" | `")
          .append(s.show(s.defaultValue()))
          .append("` | ")
          .append(cell(s.doc()))
          .append(" |\n");
    }
    b.append('\n');
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }
}
