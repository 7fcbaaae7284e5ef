package org.netweather.nameserver;

import org.netweather.api.v1.Registration;

/** Registrations of sensors in one cluster, as the tests of nameservers side by side use them. */
final class ClusterSensors {
  private ClusterSensors() {}

  /** The registration of the sensor of {@code host}, in cluster {@code c1}. */
  static Registration sensor(String host) {
    return Registration.newBuilder()
        .setName("sensor@" + host)
        .setKind("sensor")
        .setAddress(host + ":8060")
        .putAttributes("cluster", "c1")
        .build();
  }
}
