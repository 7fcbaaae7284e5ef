package org.netweather.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.netweather.api.v1.LookupRequest;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.testing.GrpcCleanupExtension;

/** A list of nameservers: calls move to the next one when one is unavailable, and stay there. */
class FailoverChannelTest {
  @RegisterExtension final GrpcCleanupExtension grpc = new GrpcCleanupExtension();

  private final FakeNameserver first = new FakeNameserver();
  private final FakeNameserver second = new FakeNameserver();

  /** Two nameservers by in-process name; {@code dead} is never started. */
  private String[] serve(boolean firstUp) throws Exception {
    String a = GrpcCleanupExtension.newName();
    String b = GrpcCleanupExtension.newName();
    if (firstUp) {
      grpc.register(GrpcCleanupExtension.serverBuilder(a).addService(first).build().start());
    }
    grpc.register(GrpcCleanupExtension.serverBuilder(b).addService(second).build().start());
    return new String[] {a, b};
  }

  private static ManagedChannel inProcess(String address) {
    return InProcessChannelBuilder.forName(address.substring(0, address.lastIndexOf(':')))
        .directExecutor()
        .build();
  }

  @Test
  void client_withFirstNameserverDown_readsAndWritesThroughTheSecond() throws Exception {
    String[] ns = serve(false);
    second.registrations.add(Registration.newBuilder().setName("memory@m1").build());
    try (NetWeatherClient client =
        NetWeatherClient.forAddress(ns[0] + ":0," + ns[1] + ":0")
            .channels(FailoverChannelTest::inProcess)
            .backoff(Duration.ZERO, d -> {})
            .build()) {
      // A lookup is a read: with a list it is retried, at the next nameserver.
      assertEquals("memory@m1", client.lookup("memory@m1").getName());
      client
          .registry()
          .register(Registration.newBuilder().setName("sensor@a").setKind("sensor").build(), 30);
      assertEquals(2, second.registrations.size());
    }
  }

  @Test
  void call_endingUnavailable_movesTheNextCallsToTheNextServer() throws Exception {
    String[] ns = serve(true);
    first.failures.fail("lookup", Status.UNAVAILABLE, 1);
    first.registrations.add(Registration.newBuilder().setName("x").build());
    second.registrations.add(Registration.newBuilder().setName("x").build());
    FailoverChannel ch =
        (FailoverChannel)
            grpc.register(
                FailoverChannel.open(
                    ns[0] + ":0, " + ns[1] + ":0", FailoverChannelTest::inProcess));
    var stub = NameserverGrpc.newBlockingStub(ch);
    LookupRequest x = LookupRequest.newBuilder().setName("x").build();

    assertEquals(ns[0] + ":0", ch.currentAddress());
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> stub.lookup(x));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), "not retried by the channel");
    assertEquals(ns[1] + ":0", ch.currentAddress());
    assertEquals("x", stub.lookup(x).getName());
    assertEquals(ns[1] + ":0", ch.currentAddress(), "stays on the server that answers");
  }

  @Test
  void call_endingNotFound_staysOnItsServer() throws Exception {
    String[] ns = serve(true);
    FailoverChannel ch =
        (FailoverChannel)
            grpc.register(
                FailoverChannel.open(ns[0] + ":0," + ns[1] + ":0", FailoverChannelTest::inProcess));
    var stub = NameserverGrpc.newBlockingStub(ch);
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.lookup(LookupRequest.newBuilder().setName("nobody").build()));
    assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
    assertEquals(ns[0] + ":0", ch.currentAddress());
  }

  @Test
  void open_oneAddress_isAPlainChannel_andBadListsAreRefused() {
    ManagedChannel one = grpc.register(FailoverChannel.open("a:1", FailoverChannelTest::inProcess));
    assertFalse(one instanceof FailoverChannel);
    assertInstanceOf(
        FailoverChannel.class,
        grpc.register(FailoverChannel.open("a:1,b:2", FailoverChannelTest::inProcess)));
    assertEquals(List.of("a:1", "b:2"), FailoverChannel.addresses(" a:1 , b:2"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FailoverChannel.addresses("a:1,,b:2"));
    assertTrue(e.getMessage().contains("'a:1,,b:2' has an empty entry"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> FailoverChannel.addresses(" "));
  }
}
