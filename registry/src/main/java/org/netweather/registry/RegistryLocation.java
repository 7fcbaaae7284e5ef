package org.netweather.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a daemon's registry is, as the {@code registry} setting says it: {@code local} (this
 * process and its data directory, the default) or {@code
 * zookeeper://zk1:2181,zk2:2181,zk3:2181/netweather} (an ensemble, and the znode under which this
 * site's state lives, so that one ensemble can hold several sites). A server without a port is on
 * 2181; no path means {@code /netweather}. {@code zookeeper+tls://...} is the same ensemble reached
 * over TLS on its secure client port, with the daemon's own certificate, key and CA ({@link
 * org.netweather.registry.zookeeper.RegistryTls}).
 *
 * @param servers {@code host:port} of each ZooKeeper server; empty for {@code local}
 * @param chroot the site's root znode without the leading {@code /}; empty for {@code local}
 * @param tls whether the servers are reached over TLS ({@code zookeeper+tls://})
 */
public record RegistryLocation(List<String> servers, String chroot, boolean tls) {
  public static final String LOCAL = "local";
  public static final RegistryLocation LOCAL_REGISTRY = new RegistryLocation(List.of(), "");

  private static final String SCHEME = "zookeeper://";
  private static final String TLS_SCHEME = "zookeeper+tls://";
  private static final String DEFAULT_CHROOT = "netweather";
  private static final Pattern SERVER =
      Pattern.compile("([A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)(?::([0-9]{1,5}))?");
  private static final Pattern CHROOT = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

  public RegistryLocation {
    servers = List.copyOf(servers);
  }

  /** A plaintext location. */
  public RegistryLocation(List<String> servers, String chroot) {
    this(servers, chroot, false);
  }

  public boolean isLocal() {
    return servers.isEmpty();
  }

  /** The ZooKeeper connect string, {@code zk1:2181,zk2:2181}. */
  public String connectString() {
    return String.join(",", servers);
  }

  /**
   * Reads a {@code registry} setting.
   *
   * @throws IllegalArgumentException saying what is wrong with {@code text}
   */
  public static RegistryLocation parse(String text) {
    String problem = problem(text);
    if (problem != null) {
      throw new IllegalArgumentException("registry '" + text + "': " + problem);
    }
    String t = text.trim();
    if (t.equals(LOCAL)) {
      return LOCAL_REGISTRY;
    }
    boolean tls = t.startsWith(TLS_SCHEME);
    String rest = t.substring(tls ? TLS_SCHEME.length() : SCHEME.length());
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    List<String> servers = new ArrayList<>();
    for (String s : hosts.split(",", -1)) {
      Matcher m = SERVER.matcher(s);
      if (!m.matches()) {
        throw new AssertionError(s); // problem() checked it
      }
      servers.add(m.group(1) + ":" + (m.group(2) == null ? "2181" : m.group(2)));
    }
    return new RegistryLocation(servers, path.isEmpty() ? DEFAULT_CHROOT : path, tls);
  }

  /** What is wrong with {@code text} as a registry setting, or null if nothing. */
  public static String problem(String text) {
    if (text == null || text.isBlank()) {
      return "must be 'local' or 'zookeeper://HOST:PORT,.../PATH'";
    }
    String t = text.trim();
    if (t.equals(LOCAL)) {
      return null;
    }
    boolean tls = t.startsWith(TLS_SCHEME);
    if (!tls && !t.startsWith(SCHEME)) {
      return "must be 'local' or start with 'zookeeper://' or 'zookeeper+tls://' (as in"
          + " zookeeper://zk1:2181,zk2:2181,zk3:2181/netweather)";
    }
    String rest = t.substring(tls ? TLS_SCHEME.length() : SCHEME.length());
    int slash = rest.indexOf('/');
    String hosts = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash + 1);
    if (hosts.isEmpty()) {
      return "names no ZooKeeper server (zookeeper://HOST:PORT,.../PATH)";
    }
    for (String s : hosts.split(",", -1)) {
      Matcher m = SERVER.matcher(s);
      if (!m.matches()) {
        return "server '" + s + "' is not HOST or HOST:PORT";
      }
      if (m.group(2) != null) {
        int port = Integer.parseInt(m.group(2));
        if (port < 1 || port > 65_535) {
          return "server '" + s + "' has port " + port + ", not 1 to 65535";
        }
      }
    }
    if (!path.isEmpty() && !CHROOT.matcher(path).matches()) {
      return "path '/"
          + path
          + "' must be znode names of letters, digits, '.', '_' or '-' separated by '/'";
    }
    return null;
  }

  @Override
  public String toString() {
    return isLocal() ? LOCAL : (tls ? TLS_SCHEME : SCHEME) + connectString() + "/" + chroot;
  }
}
