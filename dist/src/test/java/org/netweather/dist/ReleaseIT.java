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
 * The release as built: the tarball's layout and its nws run from anywhere without building, its
 * example configuration current, its systemd units clean under {@code systemd-analyze verify}, the
 * Debian package's contents and lintian, and the tarball installed and run on three namespaced
 * hosts ({@code testbed/install}).
 */
class ReleaseIT {
  private static final Path HOME = Path.of(System.getProperty("netweather.home", "..")).normalize();
  private static final Path TARBALL = Path.of(System.getProperty("netweather.release", ""));
  private static final Path TARGET = Path.of(System.getProperty("netweather.dist", "target"));
  private static final List<String> UNITS =
      List.of("nameserver", "memory-host", "forecaster", "proxy", "sensor");

  @TempDir static Path unpacked;
  private static Path release;

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
    assertTrue(Files.isRegularFile(TARBALL), "the build made " + TARBALL);
    Run tar = run(unpacked, 120, "tar", "-xzf", TARBALL.toString());
    assertEquals(0, tar.exit(), tar.output());
    try (Stream<Path> top = Files.list(unpacked)) {
      release = top.filter(Files::isDirectory).findFirst().orElseThrow();
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
      assertTrue(
          Files.exists(release.resolve("systemd/netweather-" + unit + ".service")), unit + " unit");
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
    Path units = Files.createDirectories(unpacked.resolve("units"));
    List<String> cmd = new ArrayList<>(List.of("systemd-analyze", "verify"));
    for (String unit : UNITS) {
      String name = "netweather-" + unit + ".service";
      String text =
          Files.readString(release.resolve("systemd/" + name))
              .replace("/usr/bin/nws", release.resolve("bin/nws").toString())
              .replace("/etc/netweather", release.resolve("etc").toString());
      assertTrue(text.contains("NoNewPrivileges=yes") && text.contains("ProtectSystem=strict"));
      assertTrue(text.contains("User=netweather") && text.contains("StateDirectory=netweather"));
      assertTrue(text.contains("\nLogsDirectory=netweather\n"), name + " may write its log file");
      assertTrue(text.contains("ExecStartPost=") && text.contains("LimitNOFILE="));
      assertTrue(text.contains("\nCapabilityBoundingSet=\n"), name + " drops every capability");
      Files.writeString(units.resolve(name), text);
      cmd.add(units.resolve(name).toString());
    }
    Run verify = run(units, 120, cmd.toArray(String[]::new));
    assertEquals(0, verify.exit(), verify.output());
    assertEquals("", verify.output().strip(), "systemd-analyze verify reports nothing");
  }

  @Test
  void debianPackage_installsTheSameRelease_withConffilesAndNoLintianErrors() throws Exception {
    Path deb;
    try (Stream<Path> files = Files.list(TARGET)) {
      deb = files.filter(p -> p.toString().endsWith("_all.deb")).findFirst().orElseThrow();
    }
    assumeTrue(present("dpkg-deb"), "dpkg-deb is not installed");
    Run contents = run(TARGET, 60, "dpkg-deb", "--contents", deb.toString());
    assertEquals(0, contents.exit(), contents.output());
    for (String path :
        List.of(
            "./usr/share/netweather/bin/nws",
            "./usr/share/netweather/lib/nws.jar",
            "./usr/bin/nws -> ../share/netweather/bin/nws",
            "./etc/netweather/sensor.yaml",
            "./lib/systemd/system/netweather-memory-host.service",
            "./usr/share/doc/netweather/copyright")) {
      assertTrue(contents.output().contains(path), path + " in the package");
    }
    Path control = Files.createDirectories(unpacked.resolve("control"));
    Run extract = run(TARGET, 60, "dpkg-deb", "--control", deb.toString(), control.toString());
    assertEquals(0, extract.exit(), extract.output());
    String conffiles = Files.readString(control.resolve("conffiles"));
    for (String unit : UNITS) {
      assertTrue(conffiles.contains("/etc/netweather/" + unit + ".yaml"), conffiles);
    }
    String postinst = Files.readString(control.resolve("postinst"));
    assertTrue(postinst.contains("adduser --system"), "postinst makes the system user");
    assertFalse(postinst.contains("systemctl enable"), "units are installed, not enabled");
    assertFalse(contents.output().contains("/etc/systemd/system/"), "no unit is enabled");

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
  void release_installedOnThreeNamespacedHosts_measuresStoresForecastsAndServes() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")) && present("ip") && present("ping"),
        "needs root, ip and ping for network namespaces");
    Run install = run(HOME, 540, HOME.resolve("testbed/install").toString(), TARBALL.toString());
    System.out.println(install.output());
    assertEquals(0, install.exit(), "testbed/install failed:\n" + install.output());
    assertTrue(install.output().contains("PASS"), install.output());
  }
}
