package org.netweather.clients.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns failures into one line on stderr and an exit status: 2 for what the user typed, 1 for
 * what NetWeather answered or could not answer. No stack traces for either.
 */
public final class ErrorHandler implements IExecutionExceptionHandler {
  public static final int USAGE = 2;
  public static final int FAILED = 1;

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    String prefix = "nws " + cmd.getCommandName() + ": ";
    if (e instanceof IllegalArgumentException) {
      cmd.getErr().println(prefix + e.getMessage());
      return USAGE;
    }
    if (e instanceof StatusRuntimeException) {
      Status s = ((StatusRuntimeException) e).getStatus();
      String what = s.getDescription() == null ? s.getCode().toString() : s.getDescription();
      if (s.getCode() == Status.Code.UNAVAILABLE && s.getCause() != null) {
        what = "cannot reach NetWeather (" + s.getCause().getMessage()
            + "); is it running? (bin/nws up)";
      } else if (s.getCode() == Status.Code.DEADLINE_EXCEEDED) {
        what = "no answer before the deadline (--timeout)";
      }
      cmd.getErr().println(prefix + s.getCode() + ": " + what);
      return s.getCode() == Status.Code.INVALID_ARGUMENT ? USAGE : FAILED;
    }
    cmd.getErr().println(prefix + e);
    return FAILED;
  }
}
