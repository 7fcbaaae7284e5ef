package org.netweather.scheduler.swap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.SwapApplication;
import org.netweather.testing.GrpcCleanupExtension;

/** The swap dispatcher's rpcs through an in-process channel, errors as swap.proto lists them. */
class SwapDispatcherServiceTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final SwapDispatcher dispatcher = new SwapDispatcher();

  private SwapDispatcherClient client() throws Exception {
    return new SwapDispatcherClient(
        grpc.inProcess(new SwapDispatcherService(dispatcher)), Duration.ofSeconds(5));
  }

  @Test
  void status_everyApplicationByName_withRanksAndLastSwap() throws Exception {
    dispatcher.start("zeta", List.of("a", "b", "c"), 2, new NaivePolicy(false), 2);
    SwapManager alpha =
        dispatcher.start(
            "alpha", List.of("h0", "h1", "h2"), 1, new FphPolicy(FphParameters.defaults()), 2);
    alpha.force("h0", "h2");
    alpha.swapPoint(epoch(alpha));

    List<SwapApplication> all = client().status("");

    assertEquals(
        List.of("alpha", "zeta"), all.stream().map(SwapApplication::getApplication).toList());
    SwapApplication a = all.get(0);
    assertEquals("fph", a.getPolicy());
    assertEquals("h2", a.getRoot());
    assertEquals(Map.of(0, "h2"), a.getRanksMap());
    assertEquals(1, a.getSwaps());
    assertEquals("h0", a.getLastOut());
    assertEquals("h2", a.getLastIn());
    SwapApplication z = all.get(1);
    assertEquals(Map.of(0, "a", 1, "b"), z.getRanksMap());
    assertEquals(0, z.getSwaps());
    assertEquals("", z.getLastOut());
  }

  @Test
  void status_unknownApplication_notFound() throws Exception {
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> client().status("nope"));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertTrue(e.getStatus().getDescription().contains("'nope'"));
  }

  @Test
  void force_queuesTheSwapForTheNextSwapPoint() throws Exception {
    SwapManager m = dispatcher.start("app", List.of("a", "b", "c"), 2, new NaivePolicy(false), 2);

    client().force("app", "b", "c");
    client().force("app", "b", "c"); // a repeat before the swap point queues the same swap
    m.swapPoint(epoch(m));

    assertEquals(Map.of(0, "a", 1, "c"), m.ranks());
    assertEquals(1, m.log().size());
  }

  @Test
  void force_errors_asTheProtoLists() throws Exception {
    dispatcher.start("app", List.of("a", "b", "c"), 2, new NaivePolicy(false), 2);
    SwapDispatcherClient c = client();

    assertEquals(Status.Code.NOT_FOUND, code(() -> c.force("nope", "a", "c")));
    assertEquals(Status.Code.FAILED_PRECONDITION, code(() -> c.force("app", "c", "a")));
    assertEquals(Status.Code.FAILED_PRECONDITION, code(() -> c.force("app", "a", "x")));
    assertEquals(Status.Code.INVALID_ARGUMENT, code(() -> c.force("app", "", "c")));
  }

  /** A swap point with nothing for the policy to act on: only a forced swap happens. */
  private static SwapPolicy.Epoch epoch(SwapManager m) {
    return new SwapPolicy.Epoch(0, List.of(), 0, 1, 0, 0, 0, (o, i) -> 1e9, m.cooldown());
  }

  private static Status.Code code(Runnable call) {
    return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
  }
}
