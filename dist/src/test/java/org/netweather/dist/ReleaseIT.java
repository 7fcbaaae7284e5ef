package org.netweather.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as built: the core and sensor packages' sizes and contents (the sensor's without
 * RocksDB or the dashboard, RocksDB's natives for the shipped platforms only and still loading),
 * the tarball's layout and its nws run from anywhere without building, its example configuration
 * current, its systemd units clean under {@code systemd-analyze verify}, each Debian package's
 * contents and lintian, and the packages installed and run on three namespaced hosts ({@code
 * testbed/install}: the core package on the core host, the sensor package on two sensor hosts).
 */
class ReleaseIT {
  private static final Path HOME = Path.of(System.getProperty("netweather.home", "..")).normalize();
  private static final Path TARBALL = Path.of(System.getProperty("netweather.release", ""));
  private static final Path SENSOR_TARBALL =
      Path.of(System.getProperty("netweather.sensor.release", ""));
  private static final Path TARGET = Path.of(System.getProperty("netweather.dist", "target"));

  /** The daemons, each with an example configuration and a unit. */
  private static final List<String> UNITS =
      List.of("nameserver", "memory-host", "forecaster", "proxy", "sensor");

  /** Every unit of the core package: the daemons' and the dashboard's. */
  private static final List<String> CORE_UNITS =
      List.of("nameserver", "memory-host", "forecaster", "proxy", "sensor", "web");

  /** Libraries only other roles load: never in the sensor package. */
  private static final List<String> NOT_FOR_SENSORS =
      List.of(
          "org.rocksdb.",
          "org.rrd4j.",
          "io.javalin.",
          "org.eclipse.jetty",
          "org.jetbrains.kotlin.",
          "org.jfree.",
          "org.netweather.memory-host",
          "org.netweather.nameserver",
          "org.netweather.forecaster",
          "org.netweather.proxy");

  /** RocksDB's natives for the platforms the packages are for: Linux x86_64 and aarch64, glibc. */
  private static final List<String> ROCKSDB_NATIVES =
      List.of("librocksdbjni-linux64.so", "librocksdbjni-linux-aarch64.so");

  @TempDir static Path unpacked;
  private static Path release;
  private static Path sensorRelease;

  private record Run(int exit, String output) {}

  private static Run run(Path dir, long timeoutSeconds, String... cmd) throws Exception {
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Run(-1, out);
    }
    return new Run(p.exitValue(), out);
  }

  private static boolean present(String command) throws Exception {
    return run(Path.of("/"), 10, "sh", "-c", "command -v " + command).exit() == 0;
  }

  @BeforeAll
  static void unpack() throws Exception {
    release = unpack(TARBALL, "core");
    sensorRelease = unpack(SENSOR_TARBALL, "sensor");
  }

  private static Path unpack(Path tarball, String into) throws Exception {
    assertTrue(Files.isRegularFile(tarball), "the build made " + tarball);
    Path dir = Files.createDirectories(unpacked.resolve(into));
    Run tar = run(dir, 120, "tar", "-xzf", tarball.toString());
    assertEquals(0, tar.exit(), tar.output());
    try (Stream<Path> top = Files.list(dir)) {
      return top.filter(Files::isDirectory).findFirst().orElseThrow();
    }
  }

  private static List<String> jars(Path lib) throws Exception {
    try (Stream<Path> jars = Files.list(lib)) {
      return jars.map(j -> j.getFileName().toString()).sorted().toList();
    }
  }

  private static Path deb(String name) throws Exception {
    try (Stream<Path> files = Files.list(TARGET)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith(name + "_"))
          .filter(p -> p.toString().endsWith("_all.deb"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no " + name + "_*_all.deb in " + TARGET));
    }
  }

  private static String mb(Path file) throws Exception {
    return String.format(java.util.Locale.ROOT, "%.1f MB", Files.size(file) / 1e6);
  }

  @Test
  void packages_perRole_sensorHoldsOnlyTheSensorsLibraries_rocksdbOnlyShippedNatives()
      throws Exception {
    Path coreDeb = deb("netweather");
    Path sensorDeb = deb("netweather-sensor");
    System.out.printf(
        "package sizes: core %s (tarball) %s (deb); sensor %s (tarball) %s (deb)%n",
        mb(TARBALL), mb(coreDeb), mb(SENSOR_TARBALL), mb(sensorDeb));

    List<String> core = jars(release.resolve("lib"));
    List<String> sensor = jars(sensorRelease.resolve("lib"));
    for (String jar : sensor) {
      assertFalse(
          NOT_FOR_SENSORS.stream().anyMatch(jar::startsWith),
          jar + " is for other roles, not in the sensor package");
      // The same build of every library as the core's: one release, two selections.
      assertTrue(core.contains(jar), jar + " is in the sensor package but not in the core's");
    }
    assertTrue(
        sensor.containsAll(List.of("nws.jar", "org.netweather.sensor-0.1.0-SNAPSHOT.jar")),
        sensor.toString());
    assertTrue(
        core.stream().anyMatch(j -> j.startsWith("org.rocksdb."))
            && core.stream().anyMatch(j -> j.startsWith("io.javalin.")),
        core.toString());

    // RocksDB's jar holds the natives of the shipped platforms and no other.
    Path rocksdb =
        release
            .resolve("lib")
            .resolve(core.stream().filter(j -> j.startsWith("org.rocksdb.")).findFirst().get());
    List<String> natives = new ArrayList<>();
    try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(rocksdb.toFile())) {
      zip.stream()
          .map(java.util.zip.ZipEntry::getName)
          .filter(n -> n.startsWith("librocksdbjni"))
          .forEach(natives::add);
    }
    assertEquals(
        ROCKSDB_NATIVES.stream().sorted().toList(),
        natives.stream().sorted().toList(),
        rocksdb + "");

    // The sensor package's nws: its own commands work, the others say where they are.
    String nws = sensorRelease.resolve("bin/nws").toString();
    Run version = run(Path.of("/"), 60, nws, "--version");
    assertEquals(0, version.exit(), version.output());
    assertTrue(version.output().startsWith("NetWeather "), version.output());
    Run help = run(Path.of("/"), 60, nws, "sensor", "--help");
    assertEquals(0, help.exit(), help.output());
    assertTrue(help.output().contains("--probe-port"), help.output());
    Run memory = run(Path.of("/"), 60, nws, "memory");
    assertEquals(1, memory.exit(), memory.output());
    assertTrue(memory.output().startsWith("nws memory: this needs "), memory.output());
    assertTrue(memory.output().contains("the netweather package"), memory.output());
  }

  @Test
  @Timeout(120)
  void corePackage_dashboardUnitsCommand_servesHttp() throws Exception {
    // The unit's ExecStart as systemd runs it, with NWS_WEB_ARGS as web.env would set it (a free
    // port) and a nameserver that is not there: the dashboard still serves a page saying so.
    String exec =
        Files.readString(release.resolve("systemd/netweather-web.service"))
            .lines()
            .filter(l -> l.startsWith("ExecStart="))
            .findFirst()
            .orElseThrow()
            .substring("ExecStart=".length());
    List<String> cmd = new ArrayList<>();
    for (String word : exec.split(" ")) {
      if (word.equals("$NWS_WEB_ARGS")) {
        cmd.addAll(List.of("--port", "0"));
      } else {
        cmd.add(word.replace("/usr/bin/nws", release.resolve("bin/nws").toString()));
      }
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("NWS_NAMESERVER", "localhost:1");
    Process web = pb.start();
    // A dashboard that neither serves nor exits must not hang the read below.
    java.util.concurrent.CompletableFuture.delayedExecutor(90, TimeUnit.SECONDS)
        .execute(web::destroyForcibly);
    try (java.io.BufferedReader out =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(web.getInputStream(), StandardCharsets.UTF_8))) {
      StringBuilder said = new StringBuilder();
      java.util.regex.Matcher url = null;
      for (String line; url == null && (line = out.readLine()) != null; ) {
        said.append(line).append('\n');
        java.util.regex.Matcher m =
            java.util.regex.Pattern.compile("http://[^\\s/]+/").matcher(line);
        url = m.find() ? m : null;
      }
      assertTrue(url != null, "nws web never said where it serves:\n" + said);
      java.net.HttpURLConnection http =
          (java.net.HttpURLConnection) java.net.URI.create(url.group()).toURL().openConnection();
      http.setConnectTimeout(10_000);
      http.setReadTimeout(30_000);
      int code = http.getResponseCode();
      assertTrue(code >= 200 && code < 600, "HTTP " + code);
    } finally {
      web.destroy();
      web.waitFor(30, TimeUnit.SECONDS);
      web.destroyForcibly();
    }
  }

  @Test
  @Timeout(180)
  void corePackage_memoryHostStarts_rocksdbLoadsFromTheStrippedJar() throws Exception {
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Path data = Files.createDirectories(unpacked.resolve("memory-data"));
    String nws = release.resolve("bin/nws").toString();
    Process memory =
        new ProcessBuilder(
                nws,
                "memory",
                "--port",
                String.valueOf(port),
                "--metrics-port",
                "-1",
                "--data-dir",
                data.toString(),
                "--nameserver",
                "localhost:1")
            .directory(data.toFile())
            .redirectErrorStream(true)
            .redirectOutput(data.resolve("memory.log").toFile())
            .start();
    try {
      Run ready =
          run(
              data,
              150,
              nws,
              "ready",
              "--timeout",
              "120",
              "memory-host",
              "--port",
              String.valueOf(port));
      assertEquals(
          0, ready.exit(), ready.output() + "\n" + Files.readString(data.resolve("memory.log")));
    } finally {
      memory.destroy();
      memory.waitFor(30, TimeUnit.SECONDS);
      memory.destroyForcibly();
    }
  }

  @Test
  void tarball_holdsWhatAnOperatorNeeds_andNwsRunsFromAnyDirectoryWithoutBuilding()
      throws Exception {
    for (String f : List.of("bin/nws", "lib/nws.jar", "LICENSE", "README.md")) {
      assertTrue(Files.exists(release.resolve(f)), f);
    }
    for (String unit : UNITS) {
      assertTrue(Files.exists(release.resolve("etc/" + unit + ".yaml")), unit + ".yaml");
    }
    for (String unit : CORE_UNITS) {
      assertTrue(
          Files.exists(release.resolve("systemd/netweather-" + unit + ".service")), unit + " unit");
    }
    assertTrue(Files.exists(release.resolve("etc/web.env")), "the dashboard unit's settings");
    assertTrue(Files.exists(release.resolve("docs/packages.md")), "docs/");
    // The sensor package: the sensor's configuration and unit, nothing of the other roles.
    try (Stream<Path> etc = Files.list(sensorRelease.resolve("etc"));
        Stream<Path> units = Files.list(sensorRelease.resolve("systemd"))) {
      assertEquals(
          List.of("sensor.yaml"), etc.map(p -> p.getFileName().toString()).sorted().toList());
      assertEquals(
          List.of("netweather-sensor.service"),
          units.map(p -> p.getFileName().toString()).toList());
    }
    for (String f : List.of("bin/nws", "lib/nws.jar", "LICENSE", "README.md", "docs/packages.md")) {
      assertTrue(Files.exists(sensorRelease.resolve(f)), f + " in the sensor package");
    }
    // One jar per library: a stale second version on the class path would be picked at random.
    List<String> libraries = new ArrayList<>();
    try (Stream<Path> jars = Files.list(release.resolve("lib"))) {
      jars.map(
              j ->
                  j.getFileName().toString().replaceAll("-[0-9][^-]*(-[A-Za-z0-9._]+)*\\.jar$", ""))
          .forEach(libraries::add);
    }
    assertTrue(
        libraries.contains("io.grpc.grpc-api") && libraries.contains("org.rocksdb.rocksdbjni"),
        libraries.toString());
    assertEquals(libraries.size(), libraries.stream().distinct().count(), libraries.toString());
    assertFalse(
        libraries.stream().anyMatch(l -> l.endsWith(".launcher")), "the launcher is nws.jar");
    assertFalse(Files.exists(release.resolve("pom.xml")), "no source tree");
    assertFalse(Files.exists(release.resolve("mvnw")), "no build tool");

    Run version = run(Path.of("/"), 60, release.resolve("bin/nws").toString(), "--version");
    assertEquals(0, version.exit(), version.output());
    assertTrue(version.output().startsWith("NetWeather "), version.output());
    assertTrue(version.output().contains("commit "), version.output());
    assertFalse(version.output().contains("building"), "a release never builds");

    // The shipped examples are what this release's nws says they should be.
    for (String unit : UNITS) {
      Run example =
          run(Path.of("/"), 60, release.resolve("bin/nws").toString(), "config", "example", unit);
      assertEquals(0, example.exit(), example.output());
      assertEquals(
          example.output(),
          Files.readString(release.resolve("etc/" + unit + ".yaml")),
          "etc/"
              + unit
              + ".yaml is stale: bin/nws config example "
              + unit
              + " > dist/src/etc/"
              + unit
              + ".yaml");
      // Each example is a valid configuration as it stands.
      Run show =
          run(
              Path.of("/"),
              60,
              release.resolve("bin/nws").toString(),
              "config",
              "show",
              unit,
              "--config",
              release.resolve("etc/" + unit + ".yaml").toString());
      assertEquals(0, show.exit(), show.output());
    }
  }

  @Test
  void systemdUnits_verifyClean() throws Exception {
    assumeTrue(present("systemd-analyze"), "systemd-analyze is not installed");
    // verify checks that ExecStart's program exists: point the units at this release.
    verifyUnits(release, CORE_UNITS, "/usr/share/doc/netweather/");
    verifyUnits(sensorRelease, List.of("sensor"), "/usr/share/doc/netweather-sensor/");
  }

  private static void verifyUnits(Path rel, List<String> names, String docDir) throws Exception {
    Path units = Files.createDirectories(unpacked.resolve("units-" + rel.getFileName()));
    List<String> cmd = new ArrayList<>(List.of("systemd-analyze", "verify"));
    for (String unit : names) {
      String name = "netweather-" + unit + ".service";
      String text =
          Files.readString(rel.resolve("systemd/" + name))
              .replace("/usr/bin/nws", rel.resolve("bin/nws").toString())
              .replace("/etc/netweather", rel.resolve("etc").toString());
      assertTrue(text.contains("NoNewPrivileges=yes") && text.contains("ProtectSystem=strict"));
      assertTrue(text.contains("User=netweather") && text.contains("StateDirectory=netweather"));
      assertTrue(text.contains("\nLogsDirectory=netweather\n"), name + " may write its log file");
      assertTrue(text.contains("LimitNOFILE="), name);
      // The daemons count as started once they serve; nothing waits on the dashboard.
      assertEquals(!unit.equals("web"), text.contains("ExecStartPost="), name);
      assertTrue(text.contains("\nCapabilityBoundingSet=\n"), name + " drops every capability");
      // Documentation= names pages that the package installs, under its own doc directory.
      String doc = text.lines().filter(l -> l.startsWith("Documentation=")).findFirst().get();
      assertTrue(doc.contains("file://" + docDir + "docs/packages.md"), name + ": " + doc);
      for (String url : doc.substring("Documentation=".length()).split(" ")) {
        String page = url.substring(("file://" + docDir).length());
        assertTrue(Files.exists(rel.resolve(page)), name + " documents " + url + ": " + page);
      }
      Files.writeString(units.resolve(name), text);
      cmd.add(units.resolve(name).toString());
    }
    Run verify = run(units, 120, cmd.toArray(String[]::new));
    assertEquals(0, verify.exit(), verify.output());
    assertEquals("", verify.output().strip(), "systemd-analyze verify reports nothing");
  }

  @Test
  void debianPackages_holdTheirRolesRelease_withConffilesDocsAndNoLintianErrors() throws Exception {
    assumeTrue(present("dpkg-deb"), "dpkg-deb is not installed");
    String core =
        checkDeb(
            "netweather",
            UNITS,
            List.of(
                "./lib/systemd/system/netweather-memory-host.service",
                "./lib/systemd/system/netweather-web.service",
                "./etc/netweather/web.env",
                "./usr/share/netweather/lib/org.rocksdb.rocksdbjni-"),
            List.of());
    assertTrue(core.contains("Conflicts: netweather-sensor"), core);
    String sensor =
        checkDeb(
            "netweather-sensor",
            List.of("sensor"),
            List.of("./lib/systemd/system/netweather-sensor.service"),
            List.of("rocksdb", "javalin", "jetty", "netweather-web", "memory-host"));
    assertTrue(sensor.contains("Conflicts: netweather"), sensor);
  }

  /** Checks the package NAME's contents, control files and lintian; returns its control file. */
  private static String checkDeb(
      String name, List<String> configs, List<String> alsoHolds, List<String> neverHolds)
      throws Exception {
    Path deb = deb(name);
    Run contents = run(TARGET, 60, "dpkg-deb", "--contents", deb.toString());
    assertEquals(0, contents.exit(), contents.output());
    List<String> paths = new ArrayList<>(alsoHolds);
    paths.addAll(
        List.of(
            "./usr/share/netweather/bin/nws",
            "./usr/share/netweather/lib/nws.jar",
            "./usr/bin/nws -> ../share/netweather/bin/nws",
            "./etc/netweather/sensor.yaml",
            "./usr/share/doc/" + name + "/copyright",
            "./usr/share/doc/" + name + "/changelog.gz",
            "./usr/share/doc/" + name + "/README.md",
            // The pages the README and the units link to.
            "./usr/share/doc/" + name + "/docs/packages.md",
            "./usr/share/doc/" + name + "/docs/ARCHITECTURE.md"));
    for (String path : paths) {
      assertTrue(contents.output().contains(path), path + " in " + deb.getFileName());
    }
    for (String part : neverHolds) {
      assertFalse(contents.output().contains(part), part + " in " + deb.getFileName());
    }
    Path control = Files.createDirectories(unpacked.resolve("control-" + name));
    Run extract = run(TARGET, 60, "dpkg-deb", "--control", deb.toString(), control.toString());
    assertEquals(0, extract.exit(), extract.output());
    List<String> conffiles = Files.readAllLines(control.resolve("conffiles"));
    for (String unit : configs) {
      assertTrue(conffiles.contains("/etc/netweather/" + unit + ".yaml"), conffiles.toString());
    }
    String postinst = Files.readString(control.resolve("postinst"));
    assertTrue(postinst.contains("adduser --system"), "postinst makes the system user");
    assertFalse(postinst.contains("systemctl enable"), "units are installed, not enabled");
    assertFalse(contents.output().contains("/etc/systemd/system/"), "no unit is enabled");
    String controlFile = Files.readString(control.resolve("control"));
    assertTrue(controlFile.startsWith("Package: " + name + "\n"), controlFile);

    assumeTrue(present("lintian"), "lintian is not installed");
    Run lintian = run(TARGET, 300, "lintian", deb.toString());
    assertFalse(
        lintian.output().lines().anyMatch(l -> l.startsWith("E: ")),
        "lintian errors:\n" + lintian.output());
    // Warnings too, but two that come with the jars and the command as they are: jars without
    // classes (grpc-context, Guava's listenablefuture placeholder) and no manual page (nws
    // --help is the manual).
    List<String> warnings =
        lintian
            .output()
            .lines()
            .filter(l -> l.startsWith("W: "))
            .filter(l -> !l.contains(" codeless-jar ") && !l.contains(" no-manual-page "))
            .toList();
    assertEquals(List.of(), warnings, lintian.output());
    return controlFile;
  }

  @Test
  void ociImage_namesItsEntrypoint_andItsFileSystemRunsNwsOnItsOwn() throws Exception {
    Path image = TARGET.resolve(TARBALL.getFileName().toString().replace(".tar.gz", "-oci.tar"));
    assertTrue(Files.isRegularFile(image), "the build made " + image);
    Path layout = Files.createDirectories(unpacked.resolve("oci"));
    Run tar = run(layout, 120, "tar", "-xf", image.toString());
    assertEquals(0, tar.exit(), tar.output());
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    var index = json.readTree(layout.resolve("index.json").toFile());
    var manifest =
        json.readTree(blob(layout, index.get("manifests").get(0).get("digest").asText()).toFile());
    var config =
        json.readTree(blob(layout, manifest.get("config").get("digest").asText()).toFile())
            .get("config");
    // The same nws as every release's (with its per-daemon JVM options); the command picks the
    // daemon.
    assertEquals("[\"/usr/bin/nws\"]", config.get("Entrypoint").toString());
    assertEquals("[\"up\",\"--listen-all\"]", config.get("Cmd").toString());
    assertEquals("65532:65532", config.get("User").asText());
    List<String> env = new ArrayList<>();
    config.get("Env").forEach(e -> env.add(e.asText()));
    assertTrue(env.contains("NWS_LIB=/app/libs"), env.toString());

    // The layers, unpacked in order, are a file system that runs nws with nothing from this
    // machine: what a container runtime would do, with /dev and /proc mounted.
    assumeTrue(
        "root".equals(System.getProperty("user.name")) && present("unshare") && present("chroot"),
        "needs root, unshare and chroot to run the image's file system");
    Path root = Files.createDirectories(unpacked.resolve("image-root"));
    for (var layer : manifest.get("layers")) {
      Run x = run(root, 120, "tar", "-xzf", blob(layout, layer.get("digest").asText()).toString());
      assertEquals(0, x.exit(), x.output());
    }
    // Only the image's own environment, as a container runtime would set it.
    String command =
        "exec env -i "
            + String.join(" ", env)
            + " \"$(command -v chroot)\" --userspec=65532:65532 . /usr/bin/nws";
    String mounts = "mount --rbind /dev dev && mount -t proc proc proc && ";
    Run version =
        run(root, 120, "unshare", "--mount", "--fork", "sh", "-c", mounts + command + " --version");
    assertEquals(0, version.exit(), version.output());
    assertTrue(version.output().startsWith("NetWeather "), version.output());
    assertFalse(version.output().contains("building"), "the image never builds");
    // A daemon's command reads its configuration in the image as anywhere else.
    Run show =
        run(
            root,
            120,
            "unshare",
            "--mount",
            "--fork",
            "sh",
            "-c",
            mounts + command + " config show sensor");
    assertEquals(0, show.exit(), show.output());
    assertTrue(show.output().contains("probePort"), show.output());
  }

  private static Path blob(Path layout, String digest) {
    return layout.resolve("blobs/" + digest.replace(':', '/'));
  }

  @Test
  @Timeout(600)
  void packages_installedOnThreeNamespacedHosts_sensorsDeliverToTheCore() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")) && present("ip") && present("ping"),
        "needs root, ip and ping for network namespaces");
    // The core package on the core host, the sensor package on the two sensor hosts.
    Run install =
        run(
            HOME,
            540,
            HOME.resolve("testbed/install").toString(),
            TARBALL.toString(),
            SENSOR_TARBALL.toString());
    System.out.println(install.output());
    assertEquals(0, install.exit(), "testbed/install failed:\n" + install.output());
    assertTrue(install.output().contains("PASS"), install.output());
  }
}
