package org.netweather.forecaster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.inprocess.InProcessChannelBuilder;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netweather.forecaster.battery.BatteryLayout;
import org.netweather.model.shard.ShardSet;
import org.netweather.registry.LocalRegistry;
import org.netweather.registry.Member;
import org.netweather.registry.Registry;
import org.netweather.registry.RegistryListener;
import org.netweather.registry.RegistryState;
import org.netweather.testing.FakeClock;
import org.netweather.testing.Poll;

/**
 * A forecaster's membership when its registry session is lost while it is cut off from ZooKeeper:
 * the registry then answers from what it last saw, which still lists this forecaster, yet the
 * others have taken its shards over, so it must serve none until it is connected again.
 */
class ShardMembershipTest {
  private static final long SETTLE = 2_000;

  @TempDir Path dir;

  private final FakeClock clock = FakeClock.atDefaultStart();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() throws InterruptedException {
    scheduler.shutdownNow();
    scheduler.awaitTermination(10, TimeUnit.SECONDS);
  }

  /**
   * A registry whose state the test sets and tells, while every read still goes to the real one: a
   * session lost this way leaves the members as they were, as ZooKeeperRegistry's cache does.
   */
  private static final class CutOff implements InvocationHandler {
    private final Registry real;
    private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();
    private volatile RegistryState state = RegistryState.CONNECTED;

    CutOff(Registry real) {
      this.real = real;
    }

    Registry registry() {
      return (Registry)
          Proxy.newProxyInstance(
              Registry.class.getClassLoader(), new Class<?>[] {Registry.class}, this);
    }

    void tell(RegistryState next) {
      state = next;
      listeners.forEach(l -> l.onState(next));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "state":
          return state;
        case "watch":
          RegistryListener l = (RegistryListener) args[0];
          listeners.add(l);
          return (AutoCloseable) () -> listeners.remove(l);
        default:
          try {
            return method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
      }
    }
  }

  @Test
  void sessionLost_whileTheRegistryStillListsIt_servesNothingUntilConnectedAgain()
      throws Exception {
    try (LocalRegistry local = LocalRegistry.open(dir);
        LocalRegistry peer = local.peer()) {
      peer.join(ShardMembership.GROUP, "fc1", Map.of("address", "fc1:8070", "warm", ""));
      CutOff cutOff = new CutOff(local);
      SeriesForecasts forecasts = new SeriesForecasts(BatteryLayout.standard());
      MemoryDiscovery discovery =
          new MemoryDiscovery(
              InProcessChannelBuilder.forName("no-nameserver").build(),
              a -> InProcessChannelBuilder.forName(a).build(),
              forecasts,
              10,
              scheduler,
              ForecasterMetrics.forDaemon("fc3"));
      try (ShardMembership fc3 =
          new ShardMembership(
              cutOff.registry(),
              "fc3",
              new ShardOwnership("fc3", clock::millis, SETTLE, 60_000, 30_000),
              discovery,
              forecasts,
              scheduler)) {
        fc3.start("fc3:8070", 10);
        ShardSet owned = fc3.shares().owned().copy();
        assertTrue(owned.size() > 1000 && owned.size() < 3000, "about half: " + owned.size());
        fc3.warmed(owned);
        Poll.until(
            () -> fc3.shares().serving().size(), n -> n == owned.size(), Duration.ofSeconds(10));
        assertEquals(owned, fc3.shares().serving(), "serves its shards once warm");

        cutOff.tell(RegistryState.LOST);
        // The refresh LOST queued runs first, then the clock passes the settling time.
        scheduler.submit(() -> {}).get(10, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(SETTLE));
        long served =
            Poll.until(() -> fc3.shares().serving().size(), n -> n == 0, Duration.ofSeconds(10));
        assertTrue(
            cutOff.registry().members(ShardMembership.GROUP).stream()
                .map(Member::id)
                .anyMatch("fc3"::equals),
            "the registry still lists fc3");
        assertEquals(0, served, "shards served with the session lost");
        assertEquals(0, fc3.shares().owned().size(), "shards owned with the session lost");

        cutOff.tell(RegistryState.CONNECTED);
        Poll.until(
            () -> fc3.shares().owned().size(), n -> n == owned.size(), Duration.ofSeconds(10));
        assertEquals(owned, fc3.shares().owned(), "the same shards back once connected");
      }
    }
  }
}
