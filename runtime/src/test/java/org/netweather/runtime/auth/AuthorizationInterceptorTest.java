package org.netweather.runtime.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.BindableService;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netweather.api.v1.AppendRequest;
import org.netweather.api.v1.AppendResponse;
import org.netweather.api.v1.AppendStreamRequest;
import org.netweather.api.v1.AppendStreamResponse;
import org.netweather.api.v1.DeleteCliqueRequest;
import org.netweather.api.v1.DeleteCliqueResponse;
import org.netweather.api.v1.ForecasterGrpc;
import org.netweather.api.v1.MemoryHostGrpc;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.ProxyGrpc;
import org.netweather.api.v1.RegisterRequest;
import org.netweather.api.v1.RegisterResponse;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SensorControlGrpc;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.api.v1.SwapDispatcherGrpc;

/** The site policy through the interceptor, with callers set as certificates would set them. */
class AuthorizationInterceptorTest {
  private final AtomicReference<Caller> caller = new AtomicReference<>();
  private final List<String> served = new ArrayList<>();
  private final List<io.grpc.Server> servers = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void tearDown() {
    channels.forEach(ManagedChannel::shutdownNow);
    servers.forEach(io.grpc.Server::shutdownNow);
  }

  /** Puts the test's caller on the context, where CallerInterceptor would put a certificate's. */
  private final ServerInterceptor as =
      new ServerInterceptor() {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
          return Contexts.interceptCall(
              Context.current().withValue(Caller.KEY, caller.get()), call, headers, next);
        }
      };

  private ManagedChannel serve(boolean enforce, BindableService... services) throws Exception {
    String name = InProcessServerBuilder.generateName();
    InProcessServerBuilder b = InProcessServerBuilder.forName(name).directExecutor();
    for (BindableService s : services) {
      b.addService(
          ServerInterceptors.intercept(
              s, new AuthorizationInterceptor(SitePolicy.rules(), enforce), as));
    }
    servers.add(b.build().start());
    ManagedChannel ch = InProcessChannelBuilder.forName(name).directExecutor().build();
    channels.add(ch);
    return ch;
  }

  private static Caller cert(String host, Role role) {
    return new Caller(host, role, true, null);
  }

  private final MemoryHostGrpc.MemoryHostImplBase memory =
      new MemoryHostGrpc.MemoryHostImplBase() {
        @Override
        public void append(AppendRequest req, StreamObserver<AppendResponse> out) {
          req.getBatchesList().forEach(b -> served.add(b.getSeries()));
          out.onNext(AppendResponse.getDefaultInstance());
          out.onCompleted();
        }

        @Override
        public StreamObserver<AppendStreamRequest> appendStream(
            StreamObserver<AppendStreamResponse> out) {
          return new StreamObserver<>() {
            @Override
            public void onNext(AppendStreamRequest req) {
              req.getBatchesList().forEach(b -> served.add(b.getSeries()));
              out.onNext(AppendStreamResponse.newBuilder().setSeq(req.getSeq()).build());
            }

            @Override
            public void onError(Throwable t) {}

            @Override
            public void onCompleted() {
              out.onCompleted();
            }
          };
        }
      };

  private final NameserverGrpc.NameserverImplBase nameserver =
      new NameserverGrpc.NameserverImplBase() {
        @Override
        public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
          served.add(req.getRegistration().getName());
          out.onNext(RegisterResponse.getDefaultInstance());
          out.onCompleted();
        }

        @Override
        public void deleteClique(
            DeleteCliqueRequest req, StreamObserver<DeleteCliqueResponse> out) {
          served.add("delete " + req.getName());
          out.onNext(DeleteCliqueResponse.getDefaultInstance());
          out.onCompleted();
        }
      };

  private static AppendRequest append(String... series) {
    AppendRequest.Builder b = AppendRequest.newBuilder();
    for (String s : series) {
      b.addBatches(SeriesPoints.newBuilder().setSeries(s));
    }
    return b.build();
  }

  private static Registration reg(String name, String kind, String host) {
    return Registration.newBuilder()
        .setName(name)
        .setKind(kind)
        .setAddress(host + ":1")
        .putAttributes("host", host)
        .build();
  }

  private static void assertDenied(String fragment, Runnable call) {
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class, call::run);
    assertEquals(Status.Code.PERMISSION_DENIED, e.getStatus().getCode(), e.toString());
    assertTrue(e.getStatus().getDescription().contains(fragment), e.getStatus().getDescription());
  }

  @Test
  void aSensor_writesOnlyItsOwnHostsSeries_andNothingOfARefusedBatchIsServed() throws Exception {
    MemoryHostGrpc.MemoryHostBlockingStub stub =
        MemoryHostGrpc.newBlockingStub(serve(true, memory));
    caller.set(cert("alpha", Role.SENSOR));

    stub.append(append("cpu.availability:alpha", "tcp.bandwidth:alpha->beta"));
    assertEquals(List.of("cpu.availability:alpha", "tcp.bandwidth:alpha->beta"), served);

    assertDenied(
        "not cpu.availability:beta",
        () -> stub.append(append("memory.free:alpha", "cpu.availability:beta")));
    assertDenied("own host", () -> stub.append(append("tcp.latency:beta->alpha")));
    assertEquals(2, served.size(), "the refused batches reached nothing");

    caller.set(cert("fc1", Role.FORECASTER));
    assertDenied("sensor or admin", () -> stub.append(append("cpu.availability:fc1")));
    caller.set(cert("ops", Role.ADMIN));
    stub.append(append("cpu.availability:beta"));
    assertEquals(3, served.size());
  }

  @Test
  void onAnAppendStream_everyRequestIsChecked_andTheFirstForeignSeriesEndsTheStream()
      throws Exception {
    MemoryHostGrpc.MemoryHostStub stub = MemoryHostGrpc.newStub(serve(true, memory));
    caller.set(cert("alpha", Role.SENSOR));
    List<Long> answered = new ArrayList<>();
    CompletableFuture<Status> ended = new CompletableFuture<>();
    StreamObserver<AppendStreamRequest> requests =
        stub.appendStream(
            new StreamObserver<>() {
              @Override
              public void onNext(AppendStreamResponse r) {
                answered.add(r.getSeq());
              }

              @Override
              public void onError(Throwable t) {
                ended.complete(Status.fromThrowable(t));
              }

              @Override
              public void onCompleted() {
                ended.complete(Status.OK);
              }
            });
    requests.onNext(streamed(1, "cpu.availability:alpha"));
    requests.onNext(streamed(2, "memory.free:alpha"));
    // Only the third request names another host: a check of the first message alone passes it.
    requests.onNext(streamed(3, "memory.free:alpha", "cpu.availability:beta"));
    requests.onNext(streamed(4, "memory.free:alpha"));
    requests.onCompleted();

    Status status = ended.get(5, TimeUnit.SECONDS);
    assertEquals(Status.Code.PERMISSION_DENIED, status.getCode(), status.toString());
    assertTrue(status.getDescription().contains("not cpu.availability:beta"), status.toString());
    assertEquals(List.of(1L, 2L), answered);
    assertEquals(List.of("cpu.availability:alpha", "memory.free:alpha"), served);
  }

  private static AppendStreamRequest streamed(long seq, String... series) {
    AppendStreamRequest.Builder b = AppendStreamRequest.newBuilder().setSeq(seq);
    for (String s : series) {
      b.addBatches(SeriesPoints.newBuilder().setSeries(s));
    }
    return b.build();
  }

  @Test
  void registrations_matchTheCertificatesRoleAndHost_andSiteChangesNeedAdmin() throws Exception {
    NameserverGrpc.NameserverBlockingStub stub =
        NameserverGrpc.newBlockingStub(serve(true, nameserver));
    caller.set(cert("alpha", Role.SENSOR));
    stub.register(
        RegisterRequest.newBuilder()
            .setRegistration(reg("sensor@alpha", "sensor", "alpha"))
            .build());
    assertDenied(
        "needs a memory certificate",
        () ->
            stub.register(
                RegisterRequest.newBuilder()
                    .setRegistration(reg("memory@evil", "memory", "alpha"))
                    .build()));
    assertDenied(
        "only as sensor@alpha",
        () ->
            stub.register(
                RegisterRequest.newBuilder()
                    .setRegistration(reg("sensor@mallory", "sensor", "alpha"))
                    .build()));
    assertDenied(
        "admin", () -> stub.deleteClique(DeleteCliqueRequest.newBuilder().setName("lab").build()));
    caller.set(cert("ops", Role.ADMIN));
    stub.deleteClique(DeleteCliqueRequest.newBuilder().setName("lab").build());
    assertEquals(List.of("sensor@alpha", "delete lab"), served);

    caller.set(Caller.anonymous(null));
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> stub.deleteClique(DeleteCliqueRequest.newBuilder().setName("lab").build()));
    assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
  }

  @Test
  void notEnforced_everyCallPasses() throws Exception {
    MemoryHostGrpc.MemoryHostBlockingStub stub =
        MemoryHostGrpc.newBlockingStub(serve(false, memory));
    caller.set(Caller.anonymous(null));
    stub.append(append("cpu.availability:beta"));
    assertEquals(List.of("cpu.availability:beta"), served);
  }

  @Test
  void everyRpcOfEveryService_hasARule() {
    Map<String, Rule> rules = SitePolicy.rules();
    List<String> missing = new ArrayList<>();
    for (ServiceDescriptor d :
        List.of(
            NameserverGrpc.getServiceDescriptor(),
            MemoryHostGrpc.getServiceDescriptor(),
            ForecasterGrpc.getServiceDescriptor(),
            ProxyGrpc.getServiceDescriptor(),
            SensorControlGrpc.getServiceDescriptor(),
            SwapDispatcherGrpc.getServiceDescriptor())) {
      for (MethodDescriptor<?, ?> m : d.getMethods()) {
        if (!rules.containsKey(m.getFullMethodName())) {
          missing.add(m.getFullMethodName());
        }
      }
    }
    assertEquals(List.of(), missing);
    assertNotNull(rules.get("grpc.health.v1.Health/Check"));
  }
}
