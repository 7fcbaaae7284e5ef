package org.netweather.registry.zookeeper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;

/**
 * One ZooKeeper server from the jars NetWeather ships, behind {@code nws zookeeper}: alone
 * (ZooKeeper's {@code ZooKeeperServerMain}) to try a site or run tests, or as one member of an
 * ensemble ({@code QuorumPeerMain}) when given its id and every member's address. It writes its
 * {@code zoo.cfg} (and, in an ensemble, {@code myid}) into its data directory, so that what runs
 * can be read there. A production ensemble may as well run Debian's {@code zookeeperd}.
 *
 * <p>{@link #run} blocks until {@link #close} (from another thread) or the server fails.
 */
public final class ZooKeeperServer implements AutoCloseable {
  /** {@code host:quorumPort:electionPort}. */
  private static final Pattern MEMBER =
      Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?:[0-9]{1,5}:[0-9]{1,5}");

  /**
   * What to run.
   *
   * @param port the client port
   * @param dataDir where snapshots, transaction logs and the generated {@code zoo.cfg} go
   * @param id this server's id in the ensemble, 1-based; 0 when it runs alone
   * @param servers every member of the ensemble as {@code host:quorumPort:electionPort}, member
   *     {@code i} having id {@code i + 1}; empty when it runs alone
   * @param tls when present, {@code port} is a secure client port (TLS with client certificates,
   *     the only client port), and the members of an ensemble talk TLS to each other, all with
   *     these files
   */
  public record Settings(
      int port, Path dataDir, int id, List<String> servers, Optional<RegistryTls> tls) {
    /** A plaintext server. */
    public Settings(int port, Path dataDir, int id, List<String> servers) {
      this(port, dataDir, id, servers, Optional.empty());
    }

    public Settings {
      servers = List.copyOf(servers);
      Objects.requireNonNull(tls, "tls");
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("--port " + port + " must be 1 to 65535");
      }
      if (servers.isEmpty() && id != 0) {
        throw new IllegalArgumentException("--id " + id + " needs --servers (every member)");
      }
      if (!servers.isEmpty() && (id < 1 || id > servers.size())) {
        throw new IllegalArgumentException(
            "--id "
                + id
                + " must be 1 to "
                + servers.size()
                + ": the position of this server in --servers");
      }
      for (String s : servers) {
        if (!MEMBER.matcher(s).matches()) {
          throw new IllegalArgumentException(
              "--servers member '"
                  + s
                  + "' must be HOST:QUORUM_PORT:ELECTION_PORT (zk1:2888:3888)");
        }
      }
    }

    public boolean alone() {
      return servers.isEmpty();
    }
  }

  private final Settings settings;
  private final Object lock = new Object();
  private ZooKeeperServerMain single;
  private QuorumPeerMain member;
  private boolean closed;

  public ZooKeeperServer(Settings settings) {
    this.settings = settings;
  }

  /** The {@code zoo.cfg} for {@code settings}. */
  public static String config(Settings settings) {
    List<String> lines = new ArrayList<>();
    lines.add("# Written by nws zookeeper; rewritten on every start.");
    lines.add("tickTime=2000");
    lines.add("initLimit=10");
    lines.add("syncLimit=5");
    lines.add("dataDir=" + settings.dataDir().toAbsolutePath());
    if (settings.tls().isPresent()) {
      // TLS only: no plaintext port for a client to fall back to.
      RegistryTls tls = settings.tls().get();
      Path keyStore = keyStore(settings);
      lines.add("secureClientPort=" + settings.port());
      lines.add("serverCnxnFactory=org.apache.zookeeper.server.NettyServerCnxnFactory");
      lines.add("ssl.keyStore.location=" + keyStore);
      lines.add("ssl.keyStore.type=PEM");
      lines.add("ssl.trustStore.location=" + tls.ca().toAbsolutePath());
      lines.add("ssl.trustStore.type=PEM");
      lines.add("ssl.clientAuth=need");
      if (!settings.alone()) {
        // Members check each other against the CA, as the site's daemons do, not by host name.
        lines.add("sslQuorum=true");
        lines.add("ssl.quorum.keyStore.location=" + keyStore);
        lines.add("ssl.quorum.keyStore.type=PEM");
        lines.add("ssl.quorum.trustStore.location=" + tls.ca().toAbsolutePath());
        lines.add("ssl.quorum.trustStore.type=PEM");
        lines.add("ssl.quorum.hostnameVerification=false");
      }
    } else {
      lines.add("clientPort=" + settings.port());
    }
    // No Jetty admin server on 8080; srvr, ruok and mntr answer on the client port.
    lines.add("admin.enableServer=false");
    lines.add("4lw.commands.whitelist=srvr,ruok,mntr");
    lines.add("autopurge.snapRetainCount=3");
    lines.add("autopurge.purgeInterval=24");
    for (int i = 0; i < settings.servers().size(); i++) {
      lines.add("server." + (i + 1) + "=" + settings.servers().get(i));
    }
    return String.join("\n", lines) + "\n";
  }

  /** Where the joined key and chain go: ZooKeeper's PEM key store is one file. */
  private static Path keyStore(Settings settings) {
    return settings.dataDir().toAbsolutePath().resolve("tls").resolve("key-and-chain.pem");
  }

  /**
   * Writes the configuration (and, with TLS, the key store) into the data directory and serves
   * until {@link #close}.
   */
  public void run() throws Exception {
    Path dir = settings.dataDir();
    Files.createDirectories(dir);
    if (settings.tls().isPresent()) {
      settings.tls().get().writeKeyStore(keyStore(settings));
    }
    Path cfg = dir.resolve("zoo.cfg");
    Files.writeString(cfg, config(settings), StandardCharsets.UTF_8);
    if (settings.alone()) {
      ServerConfig config = new ServerConfig();
      config.parse(cfg.toString());
      ZooKeeperServerMain main = new ZooKeeperServerMain();
      if (!register(main, null)) {
        return;
      }
      main.runFromConfig(config);
    } else {
      Files.writeString(dir.resolve("myid"), settings.id() + "\n", StandardCharsets.UTF_8);
      QuorumPeerConfig config = new QuorumPeerConfig();
      config.parse(cfg.toString());
      QuorumPeerMain main = new QuorumPeerMain();
      if (!register(null, main)) {
        return;
      }
      main.runFromConfig(config);
    }
  }

  private boolean register(ZooKeeperServerMain s, QuorumPeerMain m) {
    synchronized (lock) {
      single = s;
      member = m;
      return !closed;
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (lock) {
      closed = true;
      if (single != null) {
        single.close();
      }
      if (member != null) {
        member.close();
      }
    }
  }
}
