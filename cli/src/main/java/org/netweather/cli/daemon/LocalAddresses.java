package org.netweather.cli.daemon;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * What this machine's names resolve to and which addresses its interfaces hold: what {@code nws up}
 * looks at to choose the address it advertises. An interface, so the choice is tested without the
 * machine's own network.
 */
interface LocalAddresses {
  /** The addresses {@code name} resolves to here; empty when it does not resolve. */
  List<InetAddress> resolve(String name);

  /** The addresses of the interfaces that are up, loopback included. */
  List<InetAddress> interfaces();

  /** This machine's resolver and interfaces. */
  static LocalAddresses system() {
    return new LocalAddresses() {
      @Override
      public List<InetAddress> resolve(String name) {
        try {
          return Arrays.asList(InetAddress.getAllByName(name));
        } catch (UnknownHostException e) {
          return List.of();
        }
      }

      @Override
      public List<InetAddress> interfaces() {
        List<InetAddress> out = new ArrayList<>();
        try {
          for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (i.isUp()) {
              out.addAll(Collections.list(i.getInetAddresses()));
            }
          }
        } catch (SocketException e) {
          // No interface list: nothing to choose from, which the caller reports.
        }
        return out;
      }
    };
  }
}
