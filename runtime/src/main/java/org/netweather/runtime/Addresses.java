package org.netweather.runtime;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Host names and {@code host:port} strings as daemons advertise them. */
public final class Addresses {
  private Addresses() {}

  /**
   * This machine's host name, or {@code localhost} if it has none. A name that does not resolve (a
   * container's, with only {@code localhost} in its {@code /etc/hosts}) is still its name: it names
   * this host's series, and must not turn into {@code localhost} there.
   */
  public static String localHostName() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      if (name != null && !name.isEmpty()) {
        return name;
      }
    } catch (UnknownHostException e) {
      // fall through
    }
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isEmpty()) {
      return env;
    }
    try {
      String kernel = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
      if (!kernel.isEmpty()) {
        return kernel;
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no /proc
    }
    return "localhost";
  }

  /**
   * Parses {@code host:port}.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static HostPort parse(String what, String address) {
    int colon = address == null ? -1 : address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException(what + " '" + address + "' is not host:port");
    }
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          what + " '" + address + "' has a port that is not a number");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(what + " '" + address + "' has a port out of range");
    }
    return new HostPort(address.substring(0, colon), port);
  }

  /** A host and a port. */
  public record HostPort(String host, int port) {
    @Override
    public String toString() {
      return host + ":" + port;
    }
  }
}
