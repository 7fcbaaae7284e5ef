package org.netweather.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A throw-away CA and certificates made with the system's {@code openssl}, for TLS tests. */
public final class TestCertificates {
  private final Path dir;

  public TestCertificates(Path dir) {
    this.dir = dir;
  }

  public static boolean opensslPresent() {
    try {
      return new ProcessBuilder("openssl", "version").start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** Makes CA {@code name}: {@code name.crt} and {@code name.key} under the directory. */
  public Path ca(String name) throws Exception {
    run(
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        dir.resolve(name + ".key").toString(),
        "-out",
        dir.resolve(name + ".crt").toString(),
        "-days",
        "2",
        "-subj",
        "/CN=" + name);
    return dir.resolve(name + ".crt");
  }

  /**
   * Issues {@code file.crt} and a PKCS#8 {@code file.key} signed by CA {@code ca}, for {@code host}
   * with the NetWeather role URI (none when {@code role} is null).
   */
  public Path[] issue(String ca, String file, String host, String role) throws Exception {
    Path key = dir.resolve(file + ".key");
    Path csr = dir.resolve(file + ".csr");
    Path crt = dir.resolve(file + ".crt");
    Path ext = dir.resolve(file + ".ext");
    String san = "subjectAltName=DNS:" + host + ",IP:127.0.0.1";
    if (role != null) {
      san += ",URI:urn:netweather:role:" + role;
    }
    Files.writeString(ext, san + "\n");
    run(
        "openssl",
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
        "-keyout",
        key.toString(),
        "-out",
        csr.toString(),
        "-subj",
        "/CN=" + host);
    run(
        "openssl",
        "x509",
        "-req",
        "-in",
        csr.toString(),
        "-CA",
        dir.resolve(ca + ".crt").toString(),
        "-CAkey",
        dir.resolve(ca + ".key").toString(),
        "-CAcreateserial",
        "-out",
        crt.toString(),
        "-days",
        "2",
        "-extfile",
        ext.toString());
    // BoringSSL in grpc-netty-shaded reads PKCS#8 keys only.
    Path pk8 = dir.resolve(file + ".pk8");
    run("openssl", "pkcs8", "-topk8", "-nocrypt", "-in", key.toString(), "-out", pk8.toString());
    Files.move(pk8, key, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return new Path[] {crt, key};
  }

  private void run(String... command) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
    }
  }
}
