package org.netweather.cli;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.netweather.client.TransportFailures;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Turns failures into one line on stderr and an exit status: 2 for what the user typed, 1 for what
 * NetWeather answered or could not answer. No stack traces for either.
 */
public final class ErrorHandler implements IExecutionExceptionHandler {
  public static final int USAGE = 2;
  public static final int FAILED = 1;

  // gRPC and Netty name the address they could not bind as host:port at the end of the message.
  private static final Pattern PORT = Pattern.compile(":(\\d+)$");

  @Override
  public int handleExecutionException(Exception e, CommandLine cmd, ParseResult parsed) {
    String prefix = commandPath(cmd) + ": ";
    if (e instanceof IllegalArgumentException) {
      cmd.getErr().println(prefix + e.getMessage());
      return USAGE;
    }
    if (e instanceof StatusRuntimeException sre) {
      Status s = sre.getStatus();
      String what = s.getDescription() == null ? s.getCode().toString() : s.getDescription();
      String tls;
      if (s.getCode() == Status.Code.UNAVAILABLE
          && find(s.getCause(), UnknownHostException.class) != null) {
        // Nothing to start: the address itself is wrong.
        what =
            "cannot reach NetWeather ("
                + s.getCause().getMessage()
                + "); check --nameserver or $NWS_NAMESERVER";
      } else if ((tls = tlsProblem(s, cmd)) != null) {
        what = tls;
      } else if (s.getCode() == Status.Code.UNAVAILABLE && s.getCause() != null) {
        String cause = String.valueOf(s.getCause().getMessage());
        // `nws up` is the fix only on this machine; elsewhere the daemon there must be started.
        boolean local = cause.contains("localhost") || cause.contains("127.0.0.1");
        what =
            "cannot reach NetWeather ("
                + cause
                + (local
                    ? "); is it running? (bin/nws up)"
                    : "); is the nameserver running there? (check --nameserver)");
      } else if (s.getCode() == Status.Code.INTERNAL
          && s.getDescription() != null
          && (s.getDescription().contains("http2 exception")
              || s.getDescription().contains("HTTP/1"))) {
        what =
            "the address answered, but not with gRPC: is it a metrics port? (a nameserver"
                + " listens on 8090 and serves metrics on 8099; check --nameserver)";
      } else if (s.getCode() == Status.Code.DEADLINE_EXCEEDED) {
        what = "no answer before the deadline (--timeout)";
      }
      cmd.getErr().println(prefix + s.getCode() + ": " + what);
      return s.getCode() == Status.Code.INVALID_ARGUMENT ? USAGE : FAILED;
    }
    Throwable fileError = find(e, NoSuchFileException.class, AccessDeniedException.class);
    if (fileError != null) {
      // The exception's message is only the path. A file the user named (or one inside a
      // directory the user named) is bad input; a daemon's own file is a failure.
      String path = fileError.getMessage();
      boolean named = path != null && named(parsed, path);
      cmd.getErr()
          .println(
              prefix
                  + (named ? "" : "cannot open ")
                  + path
                  + (fileError instanceof NoSuchFileException
                      ? ": no such file"
                      : ": permission denied"));
      return named ? USAGE : FAILED;
    }
    String inUse = portInUse(e, cmd);
    cmd.getErr().println(prefix + (inUse != null ? inUse : describe(e)));
    return FAILED;
  }

  /**
   * A TLS failure in words, with where this command's TLS settings come from; null when TLS is not
   * the reason. Only the nameserver's address is known here: a plaintext command against a TLS site
   * fails there first.
   */
  private static String tlsProblem(Status s, CommandLine cmd) {
    if (s.getCode() != Status.Code.UNAVAILABLE) {
      return null;
    }
    ConnectionOptions connection = connectionOf(cmd);
    String address = connection == null ? "" : connection.nameserver();
    boolean plaintext = connection != null && connection.plaintext();
    String described = TransportFailures.describe(s, address, plaintext);
    if (!described.startsWith("TLS")) {
      return null;
    }
    return described
        + " ("
        + ConnectionOptions.TLS_CERT
        + ", "
        + ConnectionOptions.TLS_KEY
        + " and "
        + ConnectionOptions.TLS_CA
        + " set this command's TLS; see docs/troubleshooting.md)";
  }

  private static ConnectionOptions connectionOf(CommandLine cmd) {
    for (CommandSpec mixin : cmd.getCommandSpec().mixins().values()) {
      if (mixin.userObject() instanceof ConnectionOptions c) {
        return c;
      }
    }
    return null;
  }

  /**
   * The full command, e.g. {@code nws clique create}, for the start of error lines. Tests may run a
   * subcommand such as {@code schedule} as the root; it is still one of nws's.
   */
  public static String commandPath(CommandLine cmd) {
    String path = cmd.getCommandSpec().qualifiedName();
    return path.equals("nws") || path.startsWith("nws ") ? path : "nws " + path;
  }

  /** The message, never the class name: a bare wrapper's message is its cause's toString. */
  static String describe(Throwable e) {
    String message = e.getMessage();
    Throwable cause = e.getCause();
    if (cause != null && (message == null || message.equals(cause.toString()))) {
      return describe(cause);
    }
    if (message == null || message.isBlank()) {
      return "internal error without a message (a NetWeather bug; please report it)";
    }
    return message;
  }

  /**
   * A daemon's port already taken: gRPC and Netty only say "Address already in use". Names the port
   * and, when the command has one, the option that picks another.
   */
  private static String portInUse(Throwable e, CommandLine cmd) {
    if (find(e, BindException.class) == null && !mentions(e, "Address already in use")) {
      return null;
    }
    String port = null;
    for (Throwable t = e; t != null && port == null; t = t.getCause()) {
      Matcher m = PORT.matcher(String.valueOf(t.getMessage()));
      port = m.find() ? m.group(1) : null;
    }
    if (port == null) {
      return describe(e) + " (address already in use)";
    }
    List<OptionSpec> portOptions =
        cmd.getCommandSpec().options().stream()
            .filter(o -> o.longestName().endsWith("port"))
            .toList();
    String p = port;
    String flag =
        portOptions.stream()
            .filter(o -> p.equals(String.valueOf(o.<Object>getValue())))
            .map(OptionSpec::longestName)
            .findFirst()
            // The port came from --config or a default: only a lone port option is surely it.
            .orElse(portOptions.size() == 1 ? portOptions.get(0).longestName() : null);
    return "port "
        + port
        + " is already in use (by another nws?)"
        + (flag == null ? "" : "; " + flag + " picks another");
  }

  /** Whether {@code path} is, or lies under, a value given on the command line. */
  private static boolean named(ParseResult parsed, String path) {
    Path p;
    try {
      p = Path.of(path).toAbsolutePath().normalize();
    } catch (InvalidPathException ex) {
      return false;
    }
    for (ParseResult r = parsed; r != null; r = r.subcommand()) {
      for (ArgSpec arg : r.matchedArgs()) {
        for (String value : arg.originalStringValues()) {
          try {
            if (!value.isEmpty() && p.startsWith(Path.of(value).toAbsolutePath().normalize())) {
              return true;
            }
          } catch (InvalidPathException ex) {
            // not a path
          }
        }
      }
    }
    return false;
  }

  @SafeVarargs
  private static Throwable find(Throwable e, Class<? extends Throwable>... types) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      for (Class<? extends Throwable> type : types) {
        if (type.isInstance(t)) {
          return t;
        }
      }
    }
    return null;
  }

  private static boolean mentions(Throwable e, String text) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains(text)) {
        return true;
      }
    }
    return false;
  }
}
