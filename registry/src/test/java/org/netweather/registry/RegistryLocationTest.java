package org.netweather.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RegistryLocationTest {
  @Test
  void parse_local_isTheLocalRegistry() {
    assertTrue(RegistryLocation.parse("local").isLocal());
    assertEquals("local", RegistryLocation.parse(" local ").toString());
  }

  @Test
  void parse_ensemble_keepsServersAndChroot() {
    RegistryLocation l =
        RegistryLocation.parse("zookeeper://zk1:2181,zk2:2182,10.0.0.3/netweather/site-1");
    assertEquals(List.of("zk1:2181", "zk2:2182", "10.0.0.3:2181"), l.servers());
    assertEquals("zk1:2181,zk2:2182,10.0.0.3:2181", l.connectString());
    assertEquals("netweather/site-1", l.chroot());
    assertEquals("netweather", RegistryLocation.parse("zookeeper://zk1").chroot());
  }

  @Test
  void parse_tlsScheme_marksTheLocationTls() {
    RegistryLocation l = RegistryLocation.parse("zookeeper+tls://zk1:2281,zk2:2281/netweather");
    assertTrue(l.tls());
    assertEquals(List.of("zk1:2281", "zk2:2281"), l.servers());
    assertEquals("zookeeper+tls://zk1:2281,zk2:2281/netweather", l.toString());
    assertFalse(RegistryLocation.parse("zookeeper://zk1").tls());
    assertProblem("zookeeper+tls:///nw", "names no ZooKeeper server");
  }

  @Test
  void parse_badValues_sayWhatIsWrong() {
    assertProblem("zk://zk1:2181", "zookeeper://");
    assertProblem("", "'local'");
    assertProblem("zookeeper:///netweather", "names no ZooKeeper server");
    assertProblem("zookeeper://zk1:99999/nw", "port 99999");
    assertProblem("zookeeper://zk1:21a1/nw", "'zk1:21a1' is not HOST or HOST:PORT");
    assertProblem("zookeeper://zk1,,zk2/nw", "'' is not HOST");
    assertProblem("zookeeper://zk1/nw//x", "path '/nw//x'");
    assertNull(RegistryLocation.problem("zookeeper://zk1:2181,zk2:2181,zk3:2181/netweather"));
  }

  private static void assertProblem(String text, String says) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RegistryLocation.parse(text));
    assertTrue(e.getMessage().contains(says), e.getMessage());
    assertTrue(e.getMessage().startsWith("registry '" + text + "'"), e.getMessage());
  }
}
