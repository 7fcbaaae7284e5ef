package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** One line on stderr, the full command path first, and never an exception's class name. */
class ErrorHandlerTest {
  private final StringWriter err = new StringWriter();

  @Command(name = "nws", subcommands = Group.class)
  static final class Root {}

  @Command(name = "group", subcommands = Leaf.class)
  static final class Group {}

  /** Throws whatever the test hands it, as a command would. */
  @Command(name = "leaf")
  static final class Leaf implements Callable<Integer> {
    static Exception toThrow;

    @Option(names = "--port")
    Integer port;

    @Option(names = "--probe-port", defaultValue = "8061")
    int probePort;

    @Option(names = "--file")
    String file;

    @Override
    public Integer call() throws Exception {
      throw toThrow;
    }
  }

  // picocli creates Leaf itself, so the exception to throw reaches it through a static field.
  @SuppressWarnings("StaticAssignmentOfThrowable")
  private int fail(Exception e, String... options) {
    Leaf.toThrow = e;
    CommandLine cmd = new CommandLine(new Root()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setErr(new PrintWriter(err, true));
    String[] args = new String[options.length + 2];
    args[0] = "group";
    args[1] = "leaf";
    System.arraycopy(options, 0, args, 2, options.length);
    return cmd.execute(args);
  }

  @Test
  void prefix_isTheFullCommandPath() {
    assertEquals(2, fail(new IllegalArgumentException("--x must be positive")));
    assertEquals("nws group leaf: --x must be positive\n", err.toString());
  }

  @Test
  @SuppressWarnings("StaticAssignmentOfThrowable") // see fail()
  void prefix_ofACommandRunAsRoot_isUnderNws() {
    CommandLine cmd = new CommandLine(new Group()).setExecutionExceptionHandler(new ErrorHandler());
    cmd.setErr(new PrintWriter(err, true));
    Leaf.toThrow = new IllegalStateException("broken");
    assertEquals(1, cmd.execute("leaf"));
    assertEquals("nws group leaf: broken\n", err.toString());
  }

  @Test
  void unreachableDaemon_suggestsNwsUpOnlyOnThisMachine() {
    fail(
        io.grpc.Status.UNAVAILABLE
            .withCause(new ConnectException("Connection refused: localhost/127.0.0.1:8090"))
            .asRuntimeException());
    assertTrue(err.toString().contains("(bin/nws up)"), err.toString());
    err.getBuffer().setLength(0);
    fail(
        io.grpc.Status.UNAVAILABLE
            .withCause(new ConnectException("Connection refused: ns1.lab/10.0.0.5:8090"))
            .asRuntimeException());
    assertTrue(err.toString().contains("check --nameserver"), err.toString());
    assertFalse(err.toString().contains("nws up"), err.toString());
  }

  @Test
  void aMetricsPortInsteadOfGrpc_isNamed() {
    fail(io.grpc.Status.INTERNAL.withDescription("http2 exception").asRuntimeException());
    assertTrue(err.toString().contains("not with gRPC: is it a metrics port?"), err.toString());
  }

  @Test
  void otherFailure_printsTheMessageWithoutTheClassName() {
    assertEquals(1, fail(new IllegalStateException("tcp.latency to b:1 failed: refused")));
    assertEquals("nws group leaf: tcp.latency to b:1 failed: refused\n", err.toString());
  }

  @Test
  void bareWrapper_printsItsCausesMessage() {
    assertEquals(1, fail(new UncheckedIOException(new ConnectException("Connection refused"))));
    assertEquals("nws group leaf: Connection refused\n", err.toString());
  }

  @Test
  void wrapperWithAMessage_keepsIt() {
    assertEquals(
        1,
        fail(
            new UncheckedIOException(
                "swap dispatcher at h:8065: Connection refused",
                new ConnectException("Connection refused"))));
    assertEquals("nws group leaf: swap dispatcher at h:8065: Connection refused\n", err.toString());
  }

  @Test
  void noMessageAtAll_saysSoWithoutTheClassName() {
    assertEquals(1, fail(new NullPointerException()));
    assertEquals(
        "nws group leaf: internal error without a message (a NetWeather bug; please "
            + "report it)\n",
        err.toString());
  }

  @Test
  void missingFile_theUserNamed_namesItExitTwo() {
    assertEquals(
        2, fail(new NoSuchFileException("/nonexistent.csv"), "--file", "/nonexistent.csv"));
    assertEquals("nws group leaf: /nonexistent.csv: no such file\n", err.toString());
  }

  @Test
  void unreadableFile_inADirectoryTheUserNamed_exitTwo() {
    assertEquals(
        2,
        fail(
            new UncheckedIOException(new AccessDeniedException("/root/d/t.csv")),
            "--file",
            "/root/d"));
    assertEquals("nws group leaf: /root/d/t.csv: permission denied\n", err.toString());
  }

  @Test
  void missingFile_ofTheDaemonsOwn_isAFailureExitOne() {
    // Nothing on the command line names it: the daemon's own state, not bad input.
    assertEquals(
        1, fail(new NoSuchFileException("/var/lib/nws/wal/segment-1"), "--file", "/tmp/other.csv"));
    assertEquals(
        "nws group leaf: cannot open /var/lib/nws/wal/segment-1: no such file\n", err.toString());
  }

  @Test
  void portInUse_namesThePortAndTheOptionSetToIt() {
    Exception grpc =
        new IOException(
            "Failed to bind to address 0.0.0.0/0.0.0.0:18061",
            new IOException("bind(..) failed with error(-98): Address already in use"));
    assertEquals(1, fail(grpc, "--port", "18060", "--probe-port", "18061"));
    assertEquals(
        "nws group leaf: port 18061 is already in use (by another nws?); --probe-port "
            + "picks another\n",
        err.toString());
  }

  @Test
  void portInUse_fromAnOptionsDefault_namesThatOption() {
    Exception probe =
        new IOException(
            "cannot bind probe server to 0.0.0.0/0.0.0.0:8061",
            new java.net.BindException("Address already in use"));
    assertEquals(1, fail(probe));
    assertEquals(
        "nws group leaf: port 8061 is already in use (by another nws?); --probe-port "
            + "picks another\n",
        err.toString());
  }
}
