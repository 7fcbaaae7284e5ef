package org.netweather.launcher;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import java.util.List;
import org.netweather.cli.AbsentCommand;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.NwsCommand;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The main class of {@code bin/nws}: logging set up, then {@link NwsCommand}. */
public final class Nws {
  private Nws() {}

  public static void main(String[] args) {
    // gRPC logs through java.util.logging; send it to the same place as everything else.
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setExecutionStrategy(
        parsed -> {
          if (!NwsCommand.runsDaemon(leaf(parsed))) {
            quietTransportLogs();
          }
          try {
            return new CommandLine.RunLast().execute(parsed);
          } catch (NoClassDefFoundError e) {
            // A command picocli could build but whose run needs a library this installation
            // lacks (the sensor package ships only the sensor's).
            String why = AbsentCommand.explain(ErrorHandler.commandPath(cmdOf(parsed)), e);
            if (why == null) {
              throw e;
            }
            cmdOf(parsed).getErr().println(why);
            return ErrorHandler.FAILED;
          }
        });
    System.exit(cmd.execute(args));
  }

  private static CommandLine cmdOf(ParseResult parsed) {
    List<CommandLine> path = parsed.asCommandLineList();
    return path.get(path.size() - 1);
  }

  private static Object leaf(ParseResult parsed) {
    return cmdOf(parsed).getCommand();
  }

  /**
   * A one-shot command reports its own failures in one line; gRPC's and Netty's warnings about the
   * same failure (an unknown host, say) would only add a stack trace before it.
   */
  private static void quietTransportLogs() {
    for (String name : List.of("io.grpc", "io.netty")) {
      if (LoggerFactory.getLogger(name) instanceof Logger logger) {
        logger.setLevel(Level.ERROR);
      }
    }
  }
}
