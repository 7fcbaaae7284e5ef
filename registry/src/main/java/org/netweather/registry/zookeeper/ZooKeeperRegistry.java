package org.netweather.registry.zookeeper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.netweather.registry.CliqueRecord;
import org.netweather.registry.DaemonRecord;
import org.netweather.registry.HostRecord;
import org.netweather.registry.Member;
import org.netweather.registry.Names;
import org.netweather.registry.Presence;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryEvent;
import org.netweather.registry.RegistryEvent.Area;
import org.netweather.registry.RegistryException;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryLocation;
import org.netweather.registry.RegistryState;
import org.netweather.registry.StaleVersionException;
import org.netweather.registry.Versioned;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry on a ZooKeeper ensemble, through Apache Curator: one session per process (never one
 * per sensor), the znodes of {@link Znodes} under the site's chroot, and a {@link CuratorCache} of
 * the whole tree (one persistent recursive watch) that tells listeners and answers reads while the
 * link is down.
 *
 * <p>Connection states, chosen so that a ZooKeeper leader change (1 to 3 s) moves nothing:
 *
 * <ul>
 *   <li>SUSPENDED (the link is down, the session may live): reads come from the cache; writes are
 *       retried by Curator ({@link ExponentialBackoffRetry}: 100 ms doubling to 1 s, 20 times) and
 *       throw {@link RegistryException} if the link stays down past that. Members stay members:
 *       ZooKeeper keeps their ephemeral znodes while the session lives.
 *   <li>LOST (the session expired: ZooKeeper dropped this process's ephemeral znodes): reported
 *       only once the session has really ended ({@link SessionConnectionStateErrorPolicy}), then
 *       every presence is made again under the new session as soon as Curator reconnects.
 * </ul>
 *
 * <p>A {@code zookeeper+tls://} location is reached over TLS with the daemon's own PEM files
 * ({@link RegistryTls}), set on this client's configuration only.
 *
 * <pre>{@code
 * try (ZooKeeperRegistry registry =
 *     ZooKeeperRegistry.open(RegistryLocation.parse("zookeeper://zk1:2181,zk2:2181/netweather"))) {
 *   Presence me = registry.join("nameservers", "ns1", Map.of("address", "ns1:8090"));
 * }
 * }</pre>
 */
public final class ZooKeeperRegistry implements Registry {
  private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

  /** Well above a leader change (1 to 3 s) and a daemon's GC pauses. */
  public static final Duration SESSION_TIMEOUT = Duration.ofSeconds(15);

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rwx------");

  private final CuratorFramework client;
  private final String where;
  private final Duration connectTimeout;

  /** Holds the TLS key store while this registry lives; null in plaintext. */
  private final Path keyStoreDir;

  private final CuratorCache cache;

  /**
   * The last version of each cluster's znode parsed here, by path: a cluster of 100 hosts is read
   * again after every change to its live set and at every full read, and parsed only when it has
   * changed since (a new modifying transaction id).
   */
  private final Map<String, ParsedCluster> parsed = new java.util.concurrent.ConcurrentHashMap<>();

  private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();
  private final List<ZooKeeperPresence> presences = new CopyOnWriteArrayList<>();
  private volatile RegistryState state = RegistryState.CONNECTED;

  /** How often the link broke: a call that saw it break may have been retried by Curator. */
  private final java.util.concurrent.atomic.AtomicLong linkBreaks =
      new java.util.concurrent.atomic.AtomicLong();

  private ZooKeeperRegistry(
      CuratorFramework client, String where, Duration connectTimeout, Path keyStoreDir) {
    this.client = client;
    this.where = where;
    this.connectTimeout = connectTimeout;
    this.keyStoreDir = keyStoreDir;
    this.cache = CuratorCache.build(client, Znodes.ROOT);
  }

  /** Connects to the ensemble {@code location} names, with the default session timeout. */
  public static ZooKeeperRegistry open(RegistryLocation location) {
    return open(location, SESSION_TIMEOUT);
  }

  /**
   * Connects to the ensemble {@code location} names and loads the cache.
   *
   * @throws RegistryException if no server of the ensemble answers within 15 s
   */
  public static ZooKeeperRegistry open(RegistryLocation location, Duration sessionTimeout) {
    return open(location, Optional.empty(), sessionTimeout, CONNECT_TIMEOUT);
  }

  /**
   * Connects to the ensemble {@code location} names with the daemon's TLS files, used when the
   * location is {@code zookeeper+tls://}; a plaintext location ignores them.
   *
   * @throws IllegalArgumentException if the location is {@code zookeeper+tls://} and {@code tls} is
   *     empty
   * @throws RegistryException if no server of the ensemble completes a connection within 15 s
   */
  public static ZooKeeperRegistry open(RegistryLocation location, Optional<RegistryTls> tls) {
    return open(location, tls, SESSION_TIMEOUT, CONNECT_TIMEOUT);
  }

  static ZooKeeperRegistry open(
      RegistryLocation location,
      Optional<RegistryTls> tls,
      Duration sessionTimeout,
      Duration connectTimeout) {
    if (location.isLocal()) {
      throw new IllegalArgumentException("the local registry is not on ZooKeeper");
    }
    if (location.tls() && tls.isEmpty()) {
      throw new IllegalArgumentException(
          "registry '"
              + location
              + "': TLS to ZooKeeper needs tlsCert, tlsKey and tlsCa (the daemon's own TLS"
              + " files)");
    }
    CuratorFrameworkFactory.Builder builder =
        CuratorFrameworkFactory.builder()
            .connectString(location.connectString())
            .namespace(location.chroot())
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) connectTimeout.toMillis())
            .retryPolicy(new ExponentialBackoffRetry(100, 20, 1000))
            .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy());
    Path keyStoreDir = null;
    if (location.tls()) {
      try {
        keyStoreDir =
            Files.createTempDirectory(
                "nws-registry-tls", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Path keyStore = tls.get().writeKeyStore(keyStoreDir.resolve("key-and-chain.pem"));
        builder.zkClientConfig(tls.get().clientConfig(keyStore));
      } catch (IOException e) {
        deleteQuietly(keyStoreDir);
        throw new RegistryException(
            "registry '" + location + "': cannot prepare the TLS key store: " + e, e);
      }
    }
    CuratorFramework client = builder.build();
    ZooKeeperRegistry registry =
        new ZooKeeperRegistry(client, location.toString(), connectTimeout, keyStoreDir);
    try {
      registry.start();
      return registry;
    } catch (RuntimeException e) {
      client.close();
      deleteQuietly(keyStoreDir);
      throw e;
    }
  }

  private void start() {
    client.getConnectionStateListenable().addListener((c, s) -> onConnectionState(s));
    client.start();
    try {
      if (!client.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new RegistryException(
            "cannot reach ZooKeeper at "
                + where
                + " within "
                + (connectTimeout.toMillis() % 1000 == 0
                    ? String.valueOf(connectTimeout.toSeconds())
                    : String.valueOf(connectTimeout.toMillis() / 1000.0))
                + " s"
                + (keyStoreDir != null
                    ? ": over TLS, check that each server's certificate chains to tlsCa and names"
                        + " the host it is reached by, and that the port is its secureClientPort"
                    : ": if the ensemble takes only TLS, use zookeeper+tls:// and the"
                        + " secureClientPort"));
      }
      for (String p :
          List.of(Znodes.DAEMONS, Znodes.HOSTS, Znodes.CLIQUES, Znodes.VALUES, Znodes.MEMBERS)) {
        try {
          client.create().creatingParentsIfNeeded().forPath(p);
        } catch (KeeperException.NodeExistsException e) {
          // Made by an earlier process of the site.
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryException("interrupted while connecting to " + where, e);
    } catch (RegistryException e) {
      throw e;
    } catch (Exception e) {
      throw new RegistryException("cannot prepare the registry at " + where + ": " + e, e);
    }
    CountDownLatch loaded = new CountDownLatch(1);
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll((type, before, after) -> onNode(after != null ? after : before))
                .forInitialized(loaded::countDown)
                .build());
    cache.start();
    try {
      if (!loaded.await(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("the registry at {} is not loaded yet: reads go to ZooKeeper meanwhile", where);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** For tests that end the session from outside, as an expiry would. */
  CuratorFramework client() {
    return client;
  }

  @Override
  public void putDaemon(DaemonRecord daemon) {
    write(Znodes.daemon(daemon.name()), Json.write(daemon));
  }

  @Override
  public boolean removeDaemon(String name) {
    return delete(Znodes.daemon(Names.check("daemon name", name)));
  }

  @Override
  public Optional<DaemonRecord> daemon(String name) {
    String path = Znodes.daemon(Names.check("daemon name", name));
    return node(path).map(n -> Json.read(n.getData(), DaemonRecord.class, path));
  }

  @Override
  public List<DaemonRecord> daemons() {
    return readAll(Znodes.DAEMONS, DaemonRecord.class);
  }

  @Override
  public void putHost(HostRecord host) {
    updateCluster(
        host.cluster(),
        hosts -> {
          hosts.put(host.host(), host);
          return true;
        });
  }

  @Override
  public boolean removeHost(String cluster, String host) {
    Names.check("cluster", cluster);
    return updateCluster(cluster, hosts -> hosts.remove(host) != null);
  }

  @Override
  public List<HostRecord> hosts(String cluster) {
    String path = Znodes.cluster(Names.check("cluster", cluster));
    Optional<ChildData> n = node(path);
    if (n.isEmpty()) {
      parsed.remove(path);
      return List.of();
    }
    return List.copyOf(parse(path, n.get().getStat(), n.get().getData()).values());
  }

  /** A cluster's hosts as one znode version holds them; not to be changed (shared). */
  private record ParsedCluster(long mzxid, Map<String, HostRecord> hosts) {}

  /** The hosts of the znode at {@code path} whose version {@code stat} names, parsed if new. */
  private Map<String, HostRecord> parse(String path, Stat stat, byte[] data) {
    ParsedCluster last = parsed.get(path);
    if (last != null && last.mzxid() == stat.getMzxid()) {
      return last.hosts();
    }
    TreeMap<String, HostRecord> hosts = Json.read(data, Json.HOSTS, path);
    parsed.put(path, new ParsedCluster(stat.getMzxid(), hosts));
    return hosts;
  }

  @Override
  public Set<String> clusters() {
    Set<String> out = new TreeSet<>();
    for (ChildData n : children(Znodes.HOSTS)) {
      out.add(ZKPaths.getNodeFromPath(n.getPath()));
    }
    return out;
  }

  @Override
  public void putClique(CliqueRecord clique) {
    write(Znodes.clique(clique.name()), Json.write(clique));
  }

  @Override
  public boolean removeClique(String name) {
    return delete(Znodes.clique(Names.check("clique name", name)));
  }

  @Override
  public List<CliqueRecord> cliques() {
    return readAll(Znodes.CLIQUES, CliqueRecord.class);
  }

  @Override
  public Optional<Versioned> value(String key) {
    return node(Znodes.value(Names.checkKey(key)))
        .map(n -> new Versioned(n.getData(), n.getStat().getVersion()));
  }

  @Override
  public int compareAndSet(String key, byte[] data, int expectedVersion) {
    String path = Znodes.value(Names.checkKey(key));
    long breaksBefore = linkBreaks.get();
    try {
      if (expectedVersion == Versioned.ABSENT) {
        client.create().creatingParentsIfNeeded().forPath(path, data);
        return 0;
      }
      return client.setData().withVersion(expectedVersion).forPath(path, data).getVersion();
    } catch (KeeperException.NodeExistsException
        | KeeperException.BadVersionException
        | KeeperException.NoNodeException e) {
      // Curator retries a call whose answer was lost with the link (a leader change), and the
      // retry then finds its own first attempt's write. If the link broke during this call, the
      // value at the next version holding exactly these bytes is taken for that write.
      Optional<ChildData> now = node(path);
      int next = expectedVersion == Versioned.ABSENT ? 0 : expectedVersion + 1;
      if (linkBreaks.get() != breaksBefore
          && now.isPresent()
          && now.get().getStat().getVersion() == next
          && java.util.Arrays.equals(now.get().getData(), data)) {
        return next;
      }
      throw new StaleVersionException(key, expectedVersion);
    } catch (Exception e) {
      throw failed("write " + path, e);
    }
  }

  @Override
  public Presence join(String group, String id, Map<String, String> data) {
    String path = Znodes.member(Names.check("group", group), Names.check("member id", id));
    PersistentNode node =
        new PersistentNode(client, CreateMode.EPHEMERAL, false, path, Json.write(Map.copyOf(data)));
    node.start();
    try {
      if (!node.waitForInitialCreate(CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        // An earlier process of the same id still holds it: the node is made again under this
        // session as soon as that one's ends.
        log.info("{} is held by an earlier session; taking it over when that one ends", path);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeQuietly(node);
      throw new RegistryException("interrupted while joining " + group, e);
    }
    ZooKeeperPresence p = new ZooKeeperPresence(group, id, node);
    presences.add(p);
    return p;
  }

  @Override
  public List<Member> members(String group) {
    List<Member> out = new ArrayList<>();
    for (ChildData n : children(Znodes.group(Names.check("group", group)))) {
      out.add(
          new Member(
              group,
              ZKPaths.getNodeFromPath(n.getPath()),
              n.getStat().getEphemeralOwner(),
              Json.read(n.getData(), Json.ATTRIBUTES, n.getPath())));
    }
    return out;
  }

  @Override
  public AutoCloseable watch(RegistryListener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  @Override
  public RegistryState state() {
    return state;
  }

  @Override
  public void close() {
    for (ZooKeeperPresence p : presences) {
      p.close();
    }
    cache.close();
    client.close();
    deleteQuietly(keyStoreDir);
  }

  private static void deleteQuietly(Path dir) {
    if (dir == null) {
      return;
    }
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.deleteIfExists(f);
      }
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      log.warn("cannot delete the registry's TLS key store in {}: {}", dir, e.toString());
    }
  }

  private void onConnectionState(ConnectionState s) {
    RegistryState next =
        switch (s) {
          case CONNECTED, RECONNECTED -> RegistryState.CONNECTED;
          case SUSPENDED, READ_ONLY -> RegistryState.SUSPENDED;
          case LOST -> RegistryState.LOST;
        };
    if (next == RegistryState.LOST) {
      log.warn(
          "the ZooKeeper session with {} expired: memberships are made again on reconnect", where);
    } else if (next == RegistryState.SUSPENDED) {
      log.warn("lost the link to ZooKeeper at {}: serving from the cache meanwhile", where);
    }
    if (next != RegistryState.CONNECTED) {
      linkBreaks.incrementAndGet();
    }
    state = next;
    for (RegistryListener l : listeners) {
      l.onState(next);
    }
  }

  private void onNode(ChildData node) {
    String path = node.getPath();
    RegistryEvent event = eventFor(path);
    if (event != null) {
      for (RegistryListener l : listeners) {
        l.onChange(event);
      }
    }
  }

  /** What changed at {@code path}, or null for a znode that is only a parent. */
  static RegistryEvent eventFor(String path) {
    if (path.startsWith(Znodes.DAEMONS + "/")) {
      return new RegistryEvent(Area.DAEMON, path.substring(Znodes.DAEMONS.length() + 1));
    } else if (path.startsWith(Znodes.HOSTS + "/")) {
      return new RegistryEvent(Area.HOSTS, path.substring(Znodes.HOSTS.length() + 1));
    } else if (path.startsWith(Znodes.CLIQUES + "/")) {
      return new RegistryEvent(Area.CLIQUE, path.substring(Znodes.CLIQUES.length() + 1));
    } else if (path.startsWith(Znodes.VALUES + "/")) {
      return new RegistryEvent(Area.VALUE, path.substring(Znodes.VALUES.length() + 1));
    } else if (path.startsWith(Znodes.MEMBERS + "/")) {
      String member = path.substring(Znodes.MEMBERS.length() + 1);
      return member.contains("/") ? new RegistryEvent(Area.MEMBER, member) : null;
    }
    return null;
  }

  /** Reads one znode: from ZooKeeper while connected, else from the cache. */
  private Optional<ChildData> node(String path) {
    if (state != RegistryState.CONNECTED) {
      return cache.get(path);
    }
    try {
      Stat stat = new Stat();
      byte[] data = client.getData().storingStatIn(stat).forPath(path);
      return Optional.of(new ChildData(path, stat, data));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      if (isConnectionLoss(e)) {
        return cache.get(path);
      }
      throw failed("read " + path, e);
    }
  }

  /** Reads the children of {@code parent}, sorted by name, as {@link #node} does one. */
  /** Creates or replaces one record's znode, its parents made as needed. */
  private void write(String path, byte[] data) {
    call(
        "write " + path,
        () -> client.create().orSetData().creatingParentsIfNeeded().forPath(path, data));
  }

  /** Every record under {@code parent}, as the cache holds them. */
  private <T> List<T> readAll(String parent, Class<T> type) {
    List<T> out = new ArrayList<>();
    for (ChildData n : children(parent)) {
      out.add(Json.read(n.getData(), type, n.getPath()));
    }
    return out;
  }

  private Collection<ChildData> children(String parent) {
    if (state == RegistryState.CONNECTED) {
      try {
        TreeMap<String, ChildData> out = new TreeMap<>();
        for (String name : client.getChildren().forPath(parent)) {
          node(ZKPaths.makePath(parent, name)).ifPresent(n -> out.put(name, n));
        }
        return out.values();
      } catch (KeeperException.NoNodeException e) {
        return List.of();
      } catch (Exception e) {
        if (!isConnectionLoss(e)) {
          throw failed("read " + parent, e);
        }
      }
    }
    TreeMap<String, ChildData> out = new TreeMap<>();
    cache.stream()
        .filter(n -> parent.equals(ZKPaths.getPathAndNode(n.getPath()).getPath()))
        .forEach(n -> out.put(n.getPath(), n));
    return out.values();
  }

  /** Read, change, versioned write of one cluster's znode, again while somebody else wins. */
  private boolean updateCluster(
      String cluster, java.util.function.Predicate<Map<String, HostRecord>> change) {
    String path = Znodes.cluster(cluster);
    while (true) {
      try {
        Stat stat = new Stat();
        TreeMap<String, HostRecord> hosts;
        boolean exists;
        try {
          byte[] data = client.getData().storingStatIn(stat).forPath(path);
          hosts = new TreeMap<>(parse(path, stat, data)); // a copy: the parsed one is shared
          exists = true;
        } catch (KeeperException.NoNodeException e) {
          hosts = new TreeMap<>();
          exists = false;
        }
        if (!change.test(hosts)) {
          return false;
        }
        if (!exists) {
          client.create().creatingParentsIfNeeded().forPath(path, Json.write(hosts));
        } else if (hosts.isEmpty()) {
          client.delete().withVersion(stat.getVersion()).forPath(path);
          parsed.remove(path);
        } else {
          Stat written =
              client.setData().withVersion(stat.getVersion()).forPath(path, Json.write(hosts));
          // What was just written is what the next read of this version holds: no parse then.
          parsed.put(path, new ParsedCluster(written.getMzxid(), hosts));
        }
        return true;
      } catch (KeeperException.BadVersionException
          | KeeperException.NodeExistsException
          | KeeperException.NoNodeException e) {
        // Another nameserver changed the cluster between our read and write: read again.
      } catch (Exception e) {
        throw failed("write " + path, e);
      }
    }
  }

  private boolean delete(String path) {
    try {
      client.delete().forPath(path);
      return true;
    } catch (KeeperException.NoNodeException e) {
      return false;
    } catch (Exception e) {
      throw failed("delete " + path, e);
    }
  }

  private interface ZkCall {
    void run() throws Exception;
  }

  private void call(String what, ZkCall call) {
    try {
      call.run();
    } catch (Exception e) {
      throw failed(what, e);
    }
  }

  private static void closeQuietly(PersistentNode node) {
    try {
      node.close();
    } catch (java.io.IOException | RuntimeException e) {
      log.warn("cannot leave {}: {}", node.getActualPath(), e.toString());
    }
  }

  private static boolean isConnectionLoss(Exception e) {
    return e instanceof KeeperException.ConnectionLossException
        || e instanceof KeeperException.SessionExpiredException;
  }

  private RegistryException failed(String what, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new RegistryException("cannot " + what + " in the registry at " + where + ": " + e, e);
  }

  private final class ZooKeeperPresence implements Presence {
    private final String group;
    private final String id;
    private final PersistentNode node;

    ZooKeeperPresence(String group, String id, PersistentNode node) {
      this.group = group;
      this.id = id;
      this.node = node;
    }

    @Override
    public String group() {
      return group;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public long session() {
      try {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
      } catch (Exception e) {
        throw failed("read the session", e);
      }
    }

    @Override
    public void update(Map<String, String> data) {
      try {
        // PersistentNode writes it now if its node exists, and makes the node with it otherwise.
        node.setData(Json.write(Map.copyOf(data)));
      } catch (Exception e) {
        throw failed("update member " + group + "/" + id, e);
      }
    }

    @Override
    public void close() {
      if (presences.remove(this)) {
        closeQuietly(node);
      }
    }
  }
}
