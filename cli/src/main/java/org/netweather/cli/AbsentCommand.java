package org.netweather.cli;

import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Stands in for a command whose libraries this installation lacks: the sensor package ships the
 * sensor's libraries only, so {@code nws memory} there cannot even be built by picocli. The
 * stand-in keeps the name, is left out of {@code nws --help}, and says what is missing and which
 * package has it, instead of a stack trace that takes every other command down with it.
 */
public final class AbsentCommand implements Callable<Integer> {
  private static final String NAME = AbsentCommand.class.getName();

  private final String name;
  private final String missing;
  private CommandLine commandLine;

  private AbsentCommand(String name, String missing) {
    this.name = name;
    this.missing = missing;
  }

  /**
   * The command line of {@code command}, or a stand-in of the same name when its classes (or those
   * its options refer to) cannot be loaded here.
   */
  public static CommandLine orAbsent(Class<?> command) {
    try {
      return new CommandLine(command);
    } catch (LinkageError | ServiceConfigurationError | CommandLine.InitializationException e) {
      String missing = missingClass(e);
      if (missing == null) {
        throw e;
      }
      String name = command.getAnnotation(Command.class).name();
      AbsentCommand absent = new AbsentCommand("nws " + name, missing);
      CommandSpec spec = CommandSpec.wrapWithoutInspection(absent).name(name);
      spec.usageMessage()
          .hidden(true)
          .description("Not part of this installation (it needs " + missing + ").");
      // Whatever was typed after the name: the answer is the same.
      spec.parser().unmatchedArgumentsAllowed(true);
      absent.commandLine = new CommandLine(spec);
      return absent.commandLine;
    }
  }

  @Override
  public Integer call() {
    commandLine.getErr().println(message(name, missing));
    return ErrorHandler.FAILED;
  }

  /**
   * What {@code command} (the full command, {@code nws web}) says when it needs a class this
   * installation does not have, or null when {@code e} is not about a missing class.
   */
  public static String explain(String name, Throwable e) {
    String missing = missingClass(e);
    return missing == null ? null : message(name, missing);
  }

  private static String message(String command, String missing) {
    return command
        + ": this needs "
        + missing
        + ", which this installation does not have. The netweather-sensor package holds only"
        + " what a sensor host runs (nws sensor, status, ready, the queries); the netweather"
        + " package has every command (docs/packages.md).";
  }

  /** The name of the class whose absence caused {@code e}, or null. */
  static String missingClass(Throwable e) {
    String found = null;
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof NoClassDefFoundError || t instanceof ClassNotFoundException) {
        String m = t.getMessage();
        if (m != null && !m.isBlank()) {
          // NoClassDefFoundError names it org/rocksdb/RocksDB; ClassNotFoundException with dots.
          found = m.strip().replace('/', '.');
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return found;
  }

  /** For tests: the commands of {@code cmd} that stand in for absent ones. */
  static List<String> absentNames(CommandLine cmd) {
    return cmd.getSubcommands().entrySet().stream()
        // By name: a test may load the commands through a class loader of its own.
        .filter(e -> e.getValue().getCommand().getClass().getName().equals(NAME))
        .map(java.util.Map.Entry::getKey)
        .toList();
  }
}
