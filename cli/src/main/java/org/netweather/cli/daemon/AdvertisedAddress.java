package org.netweather.cli.daemon;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The address {@code nws up} registers every daemon at ({@code ADDRESS:PORT}), with why it was
 * chosen and what is wrong with it. Daemons on other hosts dial what is registered: a loopback
 * address there makes a sensor deliver to its own machine, silently, so that case is a warning.
 *
 * <p>Given {@code --advertise}, that address. Otherwise, on loopback only, {@code localhost}; with
 * {@code --listen-all}, this machine's address: the host name's if it resolves to one that is not
 * loopback (many distributions map it to 127.0.1.1), else the only site address of an interface (in
 * a container, the container's), else the first of several, with a warning naming them.
 *
 * @param address what the daemons register
 * @param why how it was chosen, for the start banner's log
 * @param warnings what other hosts would get wrong, each one sentence
 */
record AdvertisedAddress(String address, String why, List<String> warnings) {
  static final String LOOPBACK_NAME = "localhost";

  /** {@link #why} of an address given with {@code --advertise}. */
  static final String GIVEN = "--advertise";

  /**
   * Chooses the address.
   *
   * @param configured {@code --advertise}, empty when not given
   * @param listenAll whether the daemons listen on every interface
   * @param host this machine's name as {@code nws up} uses it
   */
  static AdvertisedAddress choose(
      String configured, boolean listenAll, String host, LocalAddresses net) {
    if (!configured.isEmpty()) {
      List<String> warnings = new ArrayList<>();
      boolean loopback = isLoopback(configured, net);
      if (listenAll && loopback) {
        warnings.add(
            "nws up listens on every interface but advertises "
                + configured
                + ", a loopback address: daemons on other hosts would dial their own machine;"
                + " give --advertise an address they reach");
      } else if (!listenAll && !loopback) {
        warnings.add(
            "nws up advertises "
                + configured
                + " but listens on loopback only: other hosts cannot reach it; add --listen-all");
      }
      return new AdvertisedAddress(configured, GIVEN, warnings);
    }
    if (!listenAll) {
      return new AdvertisedAddress(LOOPBACK_NAME, "loopback only", List.of());
    }
    List<InetAddress> named = reachable(net.resolve(host));
    if (!named.isEmpty()) {
      return new AdvertisedAddress(
          named.get(0).getHostAddress(), "the address of host name " + host, List.of());
    }
    List<InetAddress> own = reachable(net.interfaces());
    if (own.size() == 1) {
      return new AdvertisedAddress(
          own.get(0).getHostAddress(), "the only address of this machine's interfaces", List.of());
    }
    if (own.isEmpty()) {
      return new AdvertisedAddress(
          LOOPBACK_NAME,
          "no address but loopback",
          List.of(
              "nws up listens on every interface but found no address other hosts could dial (host"
                  + " name "
                  + host
                  + " is loopback or unknown, no interface has another): it advertises localhost;"
                  + " give --advertise ADDRESS"));
    }
    List<String> all = own.stream().map(InetAddress::getHostAddress).toList();
    return new AdvertisedAddress(
        all.get(0),
        "the first of this machine's addresses",
        List.of(
            "nws up advertises "
                + all.get(0)
                + ", the first of this machine's addresses "
                + String.join(", ", all)
                + "; if other hosts reach it by another, give --advertise ADDRESS"));
  }

  /** Whether {@code address} names this machine's loopback: other hosts dialling it get theirs. */
  static boolean isLoopback(String address, LocalAddresses net) {
    if (address.equals(LOOPBACK_NAME)) {
      return true;
    }
    List<InetAddress> all = net.resolve(address);
    return !all.isEmpty() && all.stream().allMatch(InetAddress::isLoopbackAddress);
  }

  /**
   * Addresses another host could dial, IPv4 first: not loopback, link-local, wildcard or multicast.
   */
  private static List<InetAddress> reachable(List<InetAddress> addresses) {
    List<InetAddress> v4 = new ArrayList<>();
    List<InetAddress> v6 = new ArrayList<>();
    for (InetAddress a : addresses) {
      if (a.isLoopbackAddress()
          || a.isLinkLocalAddress()
          || a.isAnyLocalAddress()
          || a.isMulticastAddress()) {
        continue;
      }
      (a instanceof Inet4Address ? v4 : v6).add(a);
    }
    v4.addAll(v6);
    return v4;
  }
}
