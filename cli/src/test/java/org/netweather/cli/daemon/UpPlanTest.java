package org.netweather.cli.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netweather.runtime.Addresses;
import org.netweather.runtime.config.ConfigException;
import org.netweather.runtime.config.Setting;
import org.netweather.runtime.config.Source;

/** Where {@code nws up} registers its daemons, what it calls this host, and when it warns. */
class UpPlanTest {
  private static final int NS = 8090;

  /** A machine whose names resolve through {@code names} and whose interfaces hold {@code own}. */
  private record FakeNetwork(Map<String, List<String>> names, List<String> own)
      implements LocalAddresses {
    @Override
    public List<InetAddress> resolve(String name) {
      if (names.containsKey(name)) {
        return addresses(names.get(name));
      }
      boolean literal = Character.isDigit(name.charAt(0)) || name.indexOf(':') >= 0;
      return literal ? addresses(List.of(name)) : List.of();
    }

    @Override
    public List<InetAddress> interfaces() {
      return addresses(own);
    }

    private static List<InetAddress> addresses(List<String> literals) {
      List<InetAddress> out = new ArrayList<>();
      for (String a : literals) {
        try {
          out.add(InetAddress.getByName(a)); // a literal: no lookup
        } catch (UnknownHostException e) {
          throw new IllegalArgumentException(a, e);
        }
      }
      return out;
    }
  }

  /** Debian's way: the host name is mapped to 127.0.1.1; the machine has one real address. */
  private static final FakeNetwork DEBIAN =
      new FakeNetwork(
          Map.of("localhost", List.of("127.0.0.1", "::1"), "core1", List.of("127.0.1.1")),
          List.of("127.0.0.1", "::1", "10.99.0.1", "fe80::1"));

  private static UpPlan plan(LocalAddresses net, String... flags) {
    return UpPlan.read(
        null,
        b -> {
          for (int i = 0; i < flags.length; i += 2) {
            Setting<?> s = setting(flags[i]);
            b.text(s, flags[i + 1], Source.flag(s.flag()));
          }
          return b;
        },
        net);
  }

  private static Setting<?> setting(String flag) {
    return UpProperties.SCHEMA.settings().stream()
        .filter(s -> s.flag().equals(flag))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(flag));
  }

  /** The address each daemon of the plan registers at. */
  private static List<String> advertisedByEachDaemon(UpPlan p) {
    return List.of(
        p.nameserver().advertise,
        p.memoryHost(NS).advertise,
        p.forecaster(NS).advertise,
        p.proxy(NS).advertise,
        p.sensor(NS).advertise);
  }

  @Test
  void advertise_listenAll_everyDaemonRegistersThere_andHostStaysTheName() {
    UpPlan p = plan(DEBIAN, "--listen-all", "true", "--advertise", "10.99.0.1", "--host", "core1");
    assertEquals(
        List.of("10.99.0.1", "10.99.0.1", "10.99.0.1", "10.99.0.1", "10.99.0.1"),
        advertisedByEachDaemon(p));
    assertEquals(List.of(), p.advertised().warnings());
    // Series, the registrations' names and the local cluster keep the host's name.
    assertEquals("core1", p.sensor(NS).host);
    assertEquals(List.of("core1"), p.proxy(NS).hosts);
    assertEquals("core1", p.memoryHost(NS).host);
    // The daemons of this process find their nameserver on loopback, where it always listens.
    assertEquals("localhost:" + NS, p.sensor(NS).nameserver);
    assertEquals("localhost:" + NS, p.memoryHost(NS).nameserver);
    // Listening on every interface: the sensor binds no single address.
    assertEquals("", p.sensor(NS).bind);
  }

  @Test
  void host_notGiven_isTheMachinesHostName() {
    UpPlan p = plan(DEBIAN);
    assertEquals(Addresses.localHostName(), p.host());
    assertEquals(Addresses.localHostName(), p.sensor(NS).host);
  }

  @Test
  void listenAll_advertisingLoopback_warns() {
    for (String loopback : List.of("localhost", "127.0.0.1", "core1", "::1")) {
      UpPlan p = plan(DEBIAN, "--listen-all", "true", "--advertise", loopback);
      assertEquals(loopback, p.advertised().address());
      assertEquals(1, p.advertised().warnings().size(), loopback);
      assertTrue(
          p.advertised().warnings().get(0).contains("loopback address"),
          p.advertised().warnings().get(0));
    }
  }

  @Test
  void listenAll_noAdvertise_hostNameOnLoopback_takesTheInterfacesAddress() {
    UpPlan p = plan(DEBIAN, "--listen-all", "true", "--host", "core1");
    assertEquals("10.99.0.1", p.advertised().address());
    assertEquals(List.of(), p.advertised().warnings());
    assertEquals(
        List.of("10.99.0.1", "10.99.0.1", "10.99.0.1", "10.99.0.1", "10.99.0.1"),
        advertisedByEachDaemon(p));
  }

  @Test
  void listenAll_noAdvertise_hostNameResolvingElsewhere_takesItsAddress() {
    FakeNetwork net =
        new FakeNetwork(
            Map.of("core1", List.of("192.0.2.7")), List.of("127.0.0.1", "10.99.0.1", "192.0.2.7"));
    UpPlan p = plan(net, "--listen-all", "true", "--host", "core1");
    assertEquals("192.0.2.7", p.advertised().address());
    assertEquals(List.of(), p.advertised().warnings());
  }

  @Test
  void listenAll_noAdvertise_severalAddresses_takesTheFirstAndNamesThemAll() {
    FakeNetwork net =
        new FakeNetwork(Map.of(), List.of("127.0.0.1", "10.99.0.1", "172.17.0.1", "2001:db8::5"));
    UpPlan p = plan(net, "--listen-all", "true", "--host", "core1");
    assertEquals("10.99.0.1", p.advertised().address());
    assertEquals(1, p.advertised().warnings().size());
    String warning = p.advertised().warnings().get(0);
    assertTrue(warning.contains("10.99.0.1, 172.17.0.1, 2001:db8:0:0:0:0:0:5"), warning);
    assertTrue(warning.contains("--advertise"), warning);
  }

  @Test
  void listenAll_noAddressButLoopback_advertisesLocalhost_andWarns() {
    FakeNetwork net = new FakeNetwork(Map.of(), List.of("127.0.0.1", "::1"));
    UpPlan p = plan(net, "--listen-all", "true", "--host", "core1");
    assertEquals("localhost", p.advertised().address());
    assertEquals(1, p.advertised().warnings().size());
    assertTrue(p.advertised().warnings().get(0).contains("--advertise ADDRESS"));
  }

  @Test
  void loopbackOnly_registersAtLocalhost_andWarnsWhenAdvertisingElsewhere() {
    UpPlan local = plan(DEBIAN, "--host", "core1");
    assertEquals("localhost", local.advertised().address());
    assertEquals(List.of(), local.advertised().warnings());
    assertEquals("127.0.0.1", local.sensor(NS).bind);

    UpPlan unreachable = plan(DEBIAN, "--advertise", "10.99.0.1");
    assertEquals("10.99.0.1", unreachable.advertised().address());
    assertTrue(unreachable.advertised().warnings().get(0).contains("add --listen-all"));
  }

  @Test
  void advertiseInADaemonsSection_isSetByUp() throws Exception {
    java.nio.file.Path f = java.nio.file.Files.createTempFile("up", ".yaml");
    try {
      java.nio.file.Files.writeString(f, "sensor:\n  advertise: 10.0.0.9\n");
      ConfigException e =
          assertThrows(ConfigException.class, () -> UpPlan.read(f, b -> b, DEBIAN).sensor(NS));
      assertTrue(e.getMessage().contains("set up.advertise (--advertise) instead"), e.getMessage());
    } finally {
      java.nio.file.Files.delete(f);
    }
  }

  @Test
  void host_notASeriesName_isAConfigError() {
    ConfigException e = assertThrows(ConfigException.class, () -> plan(DEBIAN, "--host", "a b"));
    assertTrue(e.getMessage().contains("--host NAME"), e.getMessage());
  }

  @Test
  void banner_namesWhereEachDaemonIsRegistered_andHowTheAddressWasChosen() {
    UpPlan p = plan(DEBIAN, "--listen-all", "true", "--host", "core1");
    UpBanner b = new UpBanner(p);
    b.daemon("nameserver", 8090);
    b.sensor(8060, 8061);
    b.web(8095);
    String text = b.render(p.advertised());
    assertTrue(text.startsWith("NetWeather is up: host core1, cluster local, data in "), text);
    assertTrue(text.contains("  nameserver   10.99.0.1:8090\n"), text);
    assertTrue(text.contains("  sensor       10.99.0.1:8060 (probes on port 8061)\n"), text);
    assertTrue(text.contains("  dashboard    http://10.99.0.1:8095/\n"), text);
    assertTrue(
        text.endsWith(
            "Listening on every interface; registered at 10.99.0.1 (the only address of this"
                + " machine's interfaces; --advertise to change). Ctrl-C stops it.\n"),
        text);
  }

  @Test
  void noWeb_leavesTheDashboardOut() {
    assertEquals(8095, plan(DEBIAN).webPort());
    assertEquals(-1, plan(DEBIAN, "--no-web", "true").webPort());
    assertEquals(9000, plan(DEBIAN, "--web-port", "9000").webPort());
  }
}
