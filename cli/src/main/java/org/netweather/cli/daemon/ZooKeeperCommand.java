package org.netweather.cli.daemon;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.netweather.cli.ErrorHandler;
import org.netweather.registry.zookeeper.RegistryTls;
import org.netweather.registry.zookeeper.ZooKeeperServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nws zookeeper}: one ZooKeeper server from the jars NetWeather ships, in the foreground,
 * for the {@code registry: zookeeper://...} setting. Alone by default; with {@code --id} and {@code
 * --servers}, one member of an ensemble. With {@code --tls-cert}, {@code --tls-key} and {@code
 * --tls-ca} (the site's PEM files), its client port takes TLS with client certificates only.
 */
@Command(
    name = "zookeeper",
    description = {
      "Run one ZooKeeper server in the foreground, for the registry setting"
          + " (registry: zookeeper://HOST:PORT,.../netweather).",
      "Alone by default; for an ensemble of three, run it on three machines with the same"
          + " --servers and --id 1, 2, 3. Writes zoo.cfg into --data-dir."
    })
public final class ZooKeeperCommand implements Callable<Integer> {
  @Option(
      names = "--port",
      defaultValue = "2181",
      description = "Client port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = "nws-data/zookeeper",
      description = "Snapshots, transaction logs and zoo.cfg (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--id",
      defaultValue = "0",
      description = "This server's position in --servers, from 1 (an ensemble only).")
  int id;

  @Option(
      names = "--servers",
      split = ",",
      paramLabel = "HOST:QUORUM:ELECTION",
      description =
          "Every member of the ensemble in id order, e.g."
              + " zk1:2888:3888,zk2:2888:3888,zk3:2888:3888.")
  List<String> servers = List.of();

  @Option(
      names = "--tls-cert",
      paramLabel = "FILE",
      description =
          "Certificate chain (PEM), the site's own: with --tls-key and --tls-ca, --port is a"
              + " secure client port only (clients need a certificate from --tls-ca), and the"
              + " members of an ensemble talk TLS to each other.")
  String tlsCert = "";

  @Option(names = "--tls-key", paramLabel = "FILE", description = "Private key (PKCS#8 PEM).")
  String tlsKey = "";

  @Option(
      names = "--tls-ca",
      paramLabel = "FILE",
      description = "CA certificates (PEM) that clients' and members' certificates chain to.")
  String tlsCa = "";

  @Spec CommandSpec spec;

  /** The server running, for {@link #close()} (and for tests to stop it). */
  private volatile ZooKeeperServer server;

  @Override
  public Integer call() throws Exception {
    ZooKeeperServer.Settings settings;
    try {
      settings =
          new ZooKeeperServer.Settings(
              port, dataDir, id, servers, RegistryTls.of(tlsCert, tlsKey, tlsCa));
    } catch (IllegalArgumentException e) {
      spec.commandLine().getErr().println("nws zookeeper: " + e.getMessage());
      return ErrorHandler.USAGE;
    }
    ZooKeeperServer s = new ZooKeeperServer(settings);
    server = s;
    Thread hook = new Thread(this::close, "zookeeper-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    spec.commandLine()
        .getErr()
        .println(
            "zookeeper on "
                + (settings.tls().isPresent() ? "secure port " : "port ")
                + port
                + (settings.alone() ? " (alone)" : " (member " + id + " of " + servers.size() + ")")
                + ", data in "
                + dataDir.toAbsolutePath());
    try {
      s.run();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // Already shutting down: the hook is the one stopping the server.
      }
    }
    return 0;
  }

  /** Stops the server; {@link #call} then returns. */
  public void close() {
    ZooKeeperServer s = server;
    if (s != null) {
      try {
        s.close();
      } catch (java.io.IOException e) {
        System.err.println("nws zookeeper: stopping: " + e);
      }
    }
  }
}
