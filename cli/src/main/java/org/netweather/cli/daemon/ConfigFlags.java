package org.netweather.cli.daemon;

import org.netweather.runtime.config.ConfigSchema;
import org.netweather.runtime.config.ConfigValues;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.config.Source;
import org.netweather.runtime.config.ValueType;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Generates a daemon command's flags from its configuration schema, so a setting is declared once:
 * {@code rawPoints} becomes {@code --raw-points N}, with the setting's meaning and default as help.
 * Flags are read as text and parsed by the setting's own type, so a bad flag value is reported like
 * a bad file value.
 */
public final class ConfigFlags implements IModelTransformer {
  @Override
  public CommandSpec transform(CommandSpec spec) {
    for (Setting<?> s : ((ConfiguredCommand) spec.userObject()).schema().settings()) {
      spec.addOption(option(s));
    }
    return spec;
  }

  private static OptionSpec option(Setting<?> s) {
    OptionSpec.Builder b =
        OptionSpec.builder(s.flag()).type(String.class).paramLabel(s.label()).description(help(s));
    if (s.type() == ValueType.BOOLEAN) {
      b.arity("0..1").fallbackValue("true");
    }
    return b.build();
  }

  /** The setting's meaning, rules and default; picocli's format markers are escaped. */
  static String help(Setting<?> s) {
    String rules = s.rules().isEmpty() ? "" : " (" + s.rules() + ")";
    return (s.doc() + rules + " Default: " + s.show(s.defaultValue()) + ".")
        .replace("%", "%%")
        .replace("${", "$${");
  }

  /**
   * Lays the flags given on {@code spec}'s command line over {@code builder}, which already holds
   * the defaults and the file.
   */
  static ConfigValues.Builder apply(
      CommandSpec spec, ConfigSchema schema, ConfigValues.Builder builder) {
    ParseResult parsed = spec.commandLine().getParseResult();
    for (Setting<?> s : schema.settings()) {
      if (parsed != null && parsed.hasMatchedOption(s.flag())) {
        builder.text(s, parsed.matchedOptionValue(s.flag(), ""), Source.flag(s.flag()));
      }
    }
    return builder;
  }
}
