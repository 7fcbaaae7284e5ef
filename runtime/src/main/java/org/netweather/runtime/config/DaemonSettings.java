package org.netweather.runtime.config;

import org.netweather.client.FailoverChannel;
import org.netweather.model.SeriesName;
import org.netweather.runtime.Addresses;

/** Settings several daemons share, declared here once so their defaults and rules agree. */
public final class DaemonSettings {
  /** The nameserver's port unless configured otherwise (the original NWS used 8090). */
  public static final int NAMESERVER_PORT = 8090;

  private DaemonSettings() {}

  /** The gRPC port. */
  public static Setting<Integer> port(int defaultPort, String doc) {
    return Setting.integer("port", defaultPort, doc).between(0, 65535).label("PORT");
  }

  public static Setting<Integer> metricsPort(int defaultPort) {
    return Setting.integer(
            "metricsPort",
            defaultPort,
            "Prometheus metrics over HTTP at /metrics; 0 picks a free port, -1 serves none.")
        .between(-1, 65535)
        .label("PORT");
  }

  /**
   * The nameserver to register with, checked as {@code host:port}, or a list of them separated by
   * commas (nameservers side by side on a ZooKeeper registry), tried in order.
   */
  public static Setting<String> nameserver() {
    return Setting.text(
            "nameserver",
            "localhost:" + NAMESERVER_PORT,
            "Nameserver address, host:port; several separated by commas fail over in order.")
        .label("HOST:PORT[,HOST:PORT...]")
        .check("host:port[,host:port...]", DaemonSettings::hostPortListProblem);
  }

  private static String hostPortListProblem(String list) {
    try {
      for (String a : FailoverChannel.addresses(list)) {
        String p = hostPortProblem(a);
        if (p != null) {
          return p;
        }
      }
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  public static Setting<String> host() {
    return Setting.text(
        "host",
        "",
        "This host's name (the daemon registers as KIND@HOST); empty means the machine's.");
  }

  /**
   * The address others dial: a daemon registers {@code ADVERTISE:PORT}. Apart from the host name,
   * because a name other hosts cannot resolve (or one mapped to loopback) must not rename series.
   */
  public static Setting<String> advertise() {
    return Setting.text(
            "advertise",
            "",
            "Address other hosts dial to reach this daemon (it registers ADDR:PORT); empty means"
                + " host.")
        .label("ADDR");
  }

  /** The registration name; empty means {@code kind@HOST}. */
  public static Setting<String> name(String kind) {
    return Setting.text("name", "", "Registration name; empty means " + kind + "@HOST.");
  }

  public static Setting<Integer> ttlSeconds() {
    return ttlSeconds(10);
  }

  /** The lease TTL with a daemon's own default. */
  public static Setting<Integer> ttlSeconds(int defaultSeconds) {
    return Setting.integer(
            "ttlSeconds",
            defaultSeconds,
            "Lease TTL in seconds of the registration with the nameserver.")
        .atLeast(1);
  }

  /** A cluster attribute; empty means none. */
  public static Setting<String> optionalCluster(String doc) {
    return Setting.text("cluster", "", doc)
        .check(
            "letters, digits, '.', '_', '-'",
            v -> v.isEmpty() ? null : SeriesName.nameProblem("cluster", v));
  }

  /** A cluster name that must be given. */
  public static Setting<String> cluster(String defaultName, String doc) {
    return Setting.text("cluster", defaultName, doc)
        .check(
            "non-empty; letters, digits, '.', '_', '-'", v -> SeriesName.nameProblem("cluster", v));
  }

  private static String hostPortProblem(String address) {
    try {
      Addresses.parse("address", address);
      return null;
    } catch (IllegalArgumentException e) {
      return "must be host:port, got '" + address + "'";
    }
  }

  /** Watch streams a daemon serves at once, in all. */
  public static Setting<Integer> maxWatches(int defaultValue, String what) {
    return Setting.integer(
            "maxWatches", defaultValue, what + " streams open at once, in all; more are refused.")
        .atLeast(1);
  }

  /** Watch streams one caller (one address, or one certificate identity) may hold open. */
  public static Setting<Integer> maxWatchesPerCaller(int defaultValue, String what) {
    return Setting.integer(
            "maxWatchesPerCaller",
            defaultValue,
            what + " streams one caller (an address, or a certificate's identity) may hold open.")
        .atLeast(1);
  }

  /** This daemon's certificate chain (PEM) for mutual TLS; empty for plaintext. */
  public static Setting<String> tlsCert() {
    return Setting.text(
            "tlsCert",
            "",
            "Certificate chain (PEM) for mutual TLS; with tlsKey and tlsCa, every connection to"
                + " and from this daemon is TLS with client certificates. Empty: plaintext.")
        .label("FILE");
  }

  /** This daemon's private key (PKCS#8 PEM) for mutual TLS. */
  public static Setting<String> tlsKey() {
    return Setting.text("tlsKey", "", "Private key (PKCS#8 PEM) of tlsCert.").label("FILE");
  }

  /** The CA bundle (PEM) this daemon trusts for its peers. */
  public static Setting<String> tlsCa() {
    return Setting.text(
            "tlsCa", "", "CA certificates (PEM) that peers' certificates must chain to.")
        .label("FILE");
  }

  /** Whether a TLS daemon also serves reads to callers without a certificate. */
  public static Setting<Boolean> tlsAnonymousReads() {
    return Setting.bool(
        "tlsAnonymousReads",
        false,
        "With TLS, also accept connections without a client certificate, for reads only"
            + " (forecasts, snapshots, history, listings, health); every write and change still"
            + " needs a certificate.");
  }
}
