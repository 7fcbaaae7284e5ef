package org.netweather.runtime.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MetricsEndpointTest {
  @Test
  void servesTheRegistryInTheTextFormat() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    Counter appended =
        Counter.builder()
            .name("netweather_test_appended")
            .help("Measurements appended")
            .labelNames("daemon")
            .register(registry);
    appended.labelValues("memory").inc(42);
    try (MetricsEndpoint endpoint = MetricsEndpoint.start(0, registry)) {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      assertTrue(r.body().contains("# TYPE netweather_test_appended_total counter"), r.body());
      assertTrue(
          r.body().contains("netweather_test_appended_total{daemon=\"memory\"} 42.0"), r.body());
    }
  }

  @Test
  void portInUse_saysWhichPort() throws Exception {
    try (MetricsEndpoint first = MetricsEndpoint.start(0, new PrometheusRegistry())) {
      IOException e =
          assertThrows(
              IOException.class,
              () -> MetricsEndpoint.start(first.port(), new PrometheusRegistry()));
      assertTrue(e.getMessage().endsWith(":" + first.port()), e.getMessage());
    }
  }

  @Test
  void badPort_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> MetricsEndpoint.start("", 70000));
  }

  @Test
  void defaultPort_isTheDefaultRegistrysEndpointWhileItIsOpen() throws Exception {
    try (MetricsEndpoint own = MetricsEndpoint.start(0, new PrometheusRegistry())) {
      assertEquals(-1, MetricsEndpoint.defaultPort(), "another registry's endpoint is not it");
      try (MetricsEndpoint endpoint = MetricsEndpoint.start("127.0.0.1", 0)) {
        assertEquals(endpoint.port(), MetricsEndpoint.defaultPort());
      }
      assertEquals(-1, MetricsEndpoint.defaultPort(), "a closed endpoint is advertised no more");
    }
  }
}
