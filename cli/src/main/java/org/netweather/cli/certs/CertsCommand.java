package org.netweather.cli.certs;

import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.cli.ErrorHandler;
import org.netweather.runtime.auth.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nws certs}: a small site's CA and the certificates it issues, so that a lab can run
 * secured in minutes. A site with its own CA issues certificates with the same subject alternative
 * names instead (docs/security.md).
 */
@Command(
    name = "certs",
    description = "Make a site CA and issue certificates to daemons and people.",
    subcommands = {
      CertsCommand.Ca.class,
      CertsCommand.Issue.class,
      CertsCommand.ProbeKeyFile.class
    })
public final class CertsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ErrorHandler.USAGE;
  }

  /** {@code nws certs ca}: makes {@code DIR/ca.crt} and {@code DIR/ca.key}. */
  @Command(name = "ca", description = "Make the site CA: DIR/ca.crt and its key DIR/ca.key.")
  public static final class Ca implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--dir",
        required = true,
        paramLabel = "DIR",
        description = "Directory of the CA (created; keep ca.key there and nowhere else).")
    Path dir;

    @Option(
        names = "--name",
        defaultValue = "netweather-site-ca",
        description = "The CA's common name (default: ${DEFAULT-VALUE}).")
    String name;

    @Option(
        names = "--days",
        defaultValue = "3650",
        description = "Days the CA is valid (default: ${DEFAULT-VALUE}).")
    int days;

    @Override
    public Integer call() throws Exception {
      Path crt = new SiteAuthority(dir, Clock.systemUTC()).create(name, validity(days));
      spec.commandLine().getOut().println("made CA " + name + ": " + crt);
      return 0;
    }
  }

  /** {@code nws certs issue HOST --role ROLE}: a certificate and key signed by the site CA. */
  @Command(
      name = "issue",
      description =
          "Issue a certificate and key for HOST in ROLE, signed by the CA in --dir:"
              + " OUT/NAME.crt and OUT/NAME.key.")
  public static final class Issue implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(
        index = "0",
        paramLabel = "HOST",
        description = "The host name the certificate proves (its first DNS name).")
    String host;

    @Option(
        names = "--role",
        required = true,
        paramLabel = "ROLE",
        description =
            "sensor, memory, forecaster, proxy, nameserver, admin or reader: what the holder may"
                + " do.")
    String role;

    @Option(
        names = "--dir",
        required = true,
        paramLabel = "DIR",
        description = "Directory of the CA (made by nws certs ca).")
    Path dir;

    @Option(
        names = "--out",
        paramLabel = "OUT",
        description = "Where to write the certificate and key (default: the CA directory).")
    Path out;

    @Option(
        names = "--name",
        paramLabel = "NAME",
        description = "File name without extension (default: HOST-ROLE).")
    String name;

    @Option(
        names = "--ip",
        paramLabel = "IP",
        description = "An IP address the host is also reached at (repeatable).")
    List<String> ips = new ArrayList<>();

    @Option(
        names = "--dns",
        paramLabel = "NAME",
        description = "Another DNS name of the host (repeatable).")
    List<String> dns = new ArrayList<>();

    @Option(
        names = "--days",
        defaultValue = "825",
        description = "Days the certificate is valid (default: ${DEFAULT-VALUE}).")
    int days;

    @Override
    public Integer call() throws Exception {
      Role r;
      try {
        r = Role.of(role);
      } catch (IllegalArgumentException e) {
        spec.commandLine().getErr().println("nws certs issue: " + e.getMessage());
        return ErrorHandler.USAGE;
      }
      SiteAuthority ca = new SiteAuthority(dir, Clock.systemUTC());
      Path crt =
          ca.issue(
              host,
              r,
              ips,
              dns,
              validity(days),
              out == null ? dir : out,
              name == null ? host + "-" + r.label() : name);
      X509Certificate cert = SiteAuthority.readCertificate(crt);
      spec.commandLine()
          .getOut()
          .println(
              "issued "
                  + r.label()
                  + "@"
                  + host
                  + " until "
                  + cert.getNotAfter().toInstant()
                  + ": "
                  + crt
                  + " and its key "
                  + crt.resolveSibling(crt.getFileName().toString().replace(".crt", ".key")));
      return 0;
    }
  }

  /** {@code nws certs probe-key}: the site's probe key, 32 random bytes in hex. */
  @Command(
      name = "probe-key",
      description =
          "Make the site's probe key DIR/probe.key (give it to every sensor as probeKeyFile).")
  public static final class ProbeKeyFile implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--dir",
        required = true,
        paramLabel = "DIR",
        description = "Directory to write probe.key in.")
    Path dir;

    @Override
    public Integer call() throws Exception {
      Path file = new SiteAuthority(dir, Clock.systemUTC()).probeKey();
      spec.commandLine().getOut().println("made probe key " + file);
      return 0;
    }
  }

  static Duration validity(int days) {
    if (days < 1 || days > 36_500) {
      throw new IllegalArgumentException("--days must be in [1, 36500], not " + days);
    }
    return Duration.ofDays(days);
  }
}
