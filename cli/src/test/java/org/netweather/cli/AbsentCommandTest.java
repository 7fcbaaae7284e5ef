package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command tree on the sensor package's class path: the commands of the other roles stand in
 * with a message naming what is missing, and the sensor's own commands run as in a full install.
 */
class AbsentCommandTest {
  /** What the sensor package leaves out: the other daemons, the schedulers and their libraries. */
  private static final List<String> NOT_IN_SENSOR_PACKAGE =
      List.of(
          "org.netweather.memoryhost.",
          "org.netweather.nameserver.",
          "org.netweather.forecaster.",
          "org.netweather.proxy.",
          "org.netweather.scheduler.",
          "org.rocksdb.",
          "org.rrd4j.",
          "io.javalin.",
          "org.eclipse.jetty.",
          "jakarta.servlet.",
          "org.jfree.");

  /**
   * Defines the command classes itself, so that what they refer to is looked up here, and finds
   * nothing the sensor package leaves out; everything else comes from the test's class path.
   */
  private static final class SensorPackageLoader extends ClassLoader {
    SensorPackageLoader() {
      super(AbsentCommandTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      synchronized (getClassLoadingLock(name)) {
        if (NOT_IN_SENSOR_PACKAGE.stream().anyMatch(name::startsWith)) {
          throw new ClassNotFoundException(name);
        }
        if (!name.startsWith("org.netweather.cli.")) {
          return super.loadClass(name, resolve);
        }
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          try (InputStream in =
              getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
              throw new ClassNotFoundException(name);
            }
            byte[] b = in.readAllBytes();
            c = defineClass(name, b, 0, b.length);
          } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
          }
        }
        return c;
      }
    }
  }

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private static CommandLine sensorPackageCommandLine() throws Exception {
    Class<?> nws = new SensorPackageLoader().loadClass(NwsCommand.class.getName());
    return (CommandLine) nws.getMethod("commandLine").invoke(null);
  }

  private int run(CommandLine cmd, String... args) {
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    return cmd.execute(args);
  }

  @Test
  void fullClassPath_everyCommandLoads() {
    assertEquals(List.of(), AbsentCommand.absentNames(NwsCommand.commandLine()));
  }

  @Test
  void sensorPackage_versionHelpAndTheSensorsCommandsWork() throws Exception {
    assertEquals(0, run(sensorPackageCommandLine(), "--version"), err.toString());
    assertTrue(out.toString().startsWith("NetWeather "), out.toString());

    out.getBuffer().setLength(0);
    assertEquals(0, run(sensorPackageCommandLine(), "--help"), err.toString());
    String help = out.toString();
    assertTrue(help.contains("  sensor "), help);
    assertTrue(help.contains("  status "), help);
    assertFalse(help.contains("  memory "), "absent commands are not offered:\n" + help);

    out.getBuffer().setLength(0);
    assertEquals(0, run(sensorPackageCommandLine(), "sensor", "--help"), err.toString());
    assertTrue(out.toString().contains("--probe-port"), out.toString());

    out.getBuffer().setLength(0);
    assertEquals(0, run(sensorPackageCommandLine(), "config", "show", "sensor"), err.toString());
    assertTrue(out.toString().contains("probePort"), out.toString());
  }

  @Test
  void sensorPackage_otherRolesCommands_sayWhatIsMissingAndWhereItIs() throws Exception {
    CommandLine cmd = sensorPackageCommandLine();
    List<String> absent = AbsentCommand.absentNames(cmd);
    assertTrue(
        absent.containsAll(List.of("up", "memory", "nameserver", "schedule")), absent.toString());
    assertFalse(absent.contains("sensor") || absent.contains("status"), absent.toString());

    assertEquals(ErrorHandler.FAILED, run(cmd, "memory", "--config", "/etc/netweather/x.yaml"));
    String said = err.toString();
    assertTrue(said.startsWith("nws memory: this needs org.netweather.memoryhost."), said);
    assertTrue(said.contains("the netweather package has every command"), said);
    assertEquals("", out.toString());
  }

  @Test
  void missingClass_namesTheClassWithDots_orNullForOtherFailures() {
    assertEquals(
        "org.rocksdb.RocksDB",
        AbsentCommand.missingClass(
            new IllegalStateException("x", new NoClassDefFoundError("org/rocksdb/RocksDB"))));
    assertEquals(null, AbsentCommand.missingClass(new IllegalStateException("port in use")));
    assertEquals(null, AbsentCommand.explain("nws web", new IllegalStateException("port in use")));
  }
}
