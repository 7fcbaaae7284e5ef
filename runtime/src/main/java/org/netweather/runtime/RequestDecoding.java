package org.netweather.runtime;

import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.Marshaller;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers a request whose bytes are not a message of the rpc's request type with {@code
 * INVALID_ARGUMENT}, as the API promises, instead of gRPC's {@code UNKNOWN: Application error
 * processing RPC} and a stack trace in the log for every such request.
 *
 * <p>gRPC reports any failure to parse a request as an application error, whatever the exception
 * says. So {@link #tolerant} gives every method a request marshaller that, instead of throwing,
 * hands on a placeholder naming the problem, and this interceptor, which must run before anything
 * that looks at requests (authorization does), closes the call when one arrives. The service never
 * sees it: it is told the call was cancelled, so a stream releases what it holds. Each refusal is
 * logged at WARN with one template, which the daemons' repeat folding turns into one line a minute
 * however many arrive.
 *
 * <pre>{@code
 * builder.addService(RequestDecoding.tolerant(service.bindService()));
 * builder.intercept(new RequestDecoding()); // after the interceptors that read requests
 * }</pre>
 */
final class RequestDecoding implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(RequestDecoding.class);

  /** What a tolerant marshaller hands on in place of a request it could not parse. */
  record Undecodable(String problem) {}

  /** {@code service} with request marshallers that never throw. */
  static ServerServiceDefinition tolerant(ServerServiceDefinition service) {
    ServiceDescriptor old = service.getServiceDescriptor();
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
      methods.add(tolerant(m));
    }
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(old.getName()).setSchemaDescriptor(old.getSchemaDescriptor());
    for (ServerMethodDefinition<?, ?> m : methods) {
      descriptor.addMethod(m.getMethodDescriptor());
    }
    ServerServiceDefinition.Builder b = ServerServiceDefinition.builder(descriptor.build());
    for (ServerMethodDefinition<?, ?> m : methods) {
      b.addMethod(m);
    }
    return b.build();
  }

  private static <Q, R> ServerMethodDefinition<Q, R> tolerant(ServerMethodDefinition<Q, R> m) {
    MethodDescriptor<Q, R> d = m.getMethodDescriptor();
    MethodDescriptor<Q, R> lenient =
        d.toBuilder(new TolerantMarshaller<>(d.getRequestMarshaller()), d.getResponseMarshaller())
            .build();
    return ServerMethodDefinition.create(lenient, m.getServerCallHandler());
  }

  /** Parses as {@code inner} does; on failure, returns an {@link Undecodable} in its place. */
  private record TolerantMarshaller<T>(Marshaller<T> inner) implements Marshaller<T> {
    @Override
    public InputStream stream(T value) {
      return inner.stream(value);
    }

    // The placeholder is not a T; RequestDecoding takes it out before anything casts it.
    @SuppressWarnings("unchecked")
    @Override
    public T parse(InputStream stream) {
      try {
        return inner.parse(stream);
      } catch (RuntimeException e) {
        return (T) new Undecodable(problem(e));
      }
    }

    private static String problem(Throwable e) {
      // Protobuf's own message (under gRPC's "Invalid protobuf byte sequence") says what is wrong.
      Throwable root = e;
      while (root.getCause() != null && root.getCause() != root) {
        root = root.getCause();
      }
      String message = root.getMessage();
      return message == null ? root.getClass().getSimpleName() : message;
    }
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    return new SimpleForwardingServerCallListener<Q>(next.startCall(call, headers)) {
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        if (refused) {
          return;
        }
        if (message instanceof Undecodable u) {
          refused = true;
          String method = call.getMethodDescriptor().getFullMethodName();
          log.warn(
              "refused an undecodable request to {} from {}: {}",
              method,
              call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
              u.problem());
          call.close(
              Status.INVALID_ARGUMENT.withDescription(
                  "the request is not a valid " + method + " request message: " + u.problem()),
              new Metadata());
          // The service learns the call is over, so a stream lets go of what it holds.
          super.onCancel();
          return;
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }

      @Override
      public void onCancel() {
        if (!refused) {
          super.onCancel();
        }
      }

      @Override
      public void onComplete() {
        if (!refused) {
          super.onComplete();
        }
      }

      @Override
      public void onReady() {
        if (!refused) {
          super.onReady();
        }
      }
    };
  }
}
