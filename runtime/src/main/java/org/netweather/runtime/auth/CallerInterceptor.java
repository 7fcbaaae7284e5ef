package org.netweather.runtime.auth;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;

/**
 * Puts the {@link Caller} of each call on its context. Every daemon's server runs it first, so
 * services and policies see who is calling without knowing how that was proven.
 */
public final class CallerInterceptor implements ServerInterceptor {
  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    Caller caller = Caller.anonymous(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR));
    return Contexts.interceptCall(
        Context.current().withValue(Caller.KEY, caller), call, headers, next);
  }
}
