package org.netweather.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code --nameserver} takes one nameserver or a list of them, and names a bad entry. */
class ConnectionOptionsTest {
  private static ConnectionOptions parse(String... args) {
    ConnectionOptions o = new ConnectionOptions();
    new CommandLine(o).parseArgs(args);
    return o;
  }

  @Test
  void nameserver_list_isTakenAsGiven() {
    assertEquals("ns1:8090,ns2:8090", parse("--nameserver", "ns1:8090,ns2:8090").nameserver());
    assertEquals("ns1:8090", parse("--nameserver", "ns1:8090").nameserver());
  }

  @Test
  void nameserver_listWithABadEntry_isRefusedNamingTheOptionAndTheEntry() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("--nameserver", "ns1:8090,ns2").nameserver());
    assertTrue(e.getMessage().startsWith("--nameserver 'ns1:8090,ns2': "), e.getMessage());
    assertTrue(e.getMessage().contains("ns2"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse("--nameserver", "ns1:8090,,ns2:8090").nameserver());
    assertTrue(e.getMessage().contains("empty entry"), e.getMessage());
  }
}
