package org.netweather.cli.forecast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.cli.ErrorHandler;
import org.netweather.cli.NwsCommand;
import picocli.CommandLine;

/**
 * {@code nws evaluate} and {@code nws forecast --file} given a binary file say which file is not
 * text and exit 2, the status of bad input.
 */
class BinaryTraceTest {
  private static final byte[] BINARY = {
    't', 'i', 'm', 'e', (byte) 0x80, (byte) 0xC3, 0x28, (byte) 0xFE, (byte) 0xFF, 0, '\n'
  };

  @TempDir Path dir;
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd = NwsCommand.commandLine();
    cmd.setOut(new PrintWriter(new StringWriter()));
    cmd.setErr(new PrintWriter(err));
    return cmd.execute(args);
  }

  @Test
  void evaluate_binaryTraceInDirectory_namesTheFileAndExits2() throws Exception {
    Path file = Files.write(dir.resolve("broken.csv"), BINARY);
    assertEquals(ErrorHandler.USAGE, run("evaluate", dir.toString()));
    assertTrue(err.toString().contains(file + ": not UTF-8 text"), err.toString());
  }

  @Test
  void forecastFile_binaryTrace_namesTheFileAndExits2() throws Exception {
    Path file = Files.write(dir.resolve("broken.csv"), BINARY);
    assertEquals(ErrorHandler.USAGE, run("forecast", "--file", file.toString()));
    assertTrue(err.toString().contains(file + ": not UTF-8 text"), err.toString());
  }
}
