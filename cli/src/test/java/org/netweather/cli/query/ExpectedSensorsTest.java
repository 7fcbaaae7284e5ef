package org.netweather.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;

/** Which hosts should run a sensor and do not: clique members and a proxy's listed hosts. */
class ExpectedSensorsTest {
  private static Registration sensor(String host) {
    return Registration.newBuilder()
        .setName("sensor@" + host)
        .setKind("sensor")
        .setAddress(host + ":8060")
        .putAttributes("host", host)
        .build();
  }

  @Test
  void cliqueMembersAndClusterHosts_withoutALiveSensor_areExpected_onceEach() {
    Registration proxy =
        Registration.newBuilder()
            .setName("proxy-c1@core")
            .setKind("proxy")
            .setAddress("core:8080")
            .putAttributes("cluster", "c1")
            .putAttributes("hosts", "alpha, beta,delta")
            .build();
    Clique lab =
        Clique.newBuilder()
            .setName("lab")
            .addMembers("alpha")
            .addMembers("beta")
            .addMembers("gamma")
            .setPeriodSeconds(60)
            .build();
    List<ExpectedSensors.Expected> expected =
        ExpectedSensors.without(
            List.of(proxy, sensor("alpha")), List.of("sensor@gamma"), List.of(lab));
    assertEquals(
        List.of(
            new ExpectedSensors.Expected(
                "sensor@beta",
                "member of clique lab, cluster c1, but host beta has not registered a sensor"),
            new ExpectedSensors.Expected(
                "sensor@delta",
                "member of cluster c1, but host delta has not registered a sensor")),
        expected);
  }
}
