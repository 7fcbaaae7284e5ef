package org.netweather.runtime.auth;

import io.grpc.ForwardingServerCallListener;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces a policy ({@link SitePolicy}) on every call of a secured daemon: the rule of the rpc is
 * checked against the {@link Caller} (which {@link CallerInterceptor} must have set, so this one is
 * installed inside it) and the request message; a refused call ends with {@code PERMISSION_DENIED}
 * (or {@code UNAUTHENTICATED} without a certificate) naming what is missing and never reaches the
 * service. An rpc without a rule is refused. Each refusal is logged once per caller and cause (the
 * most recent 10 000 remembered), not once per call.
 *
 * <p>It enforces on every call that came over TLS (a secured daemon), and on every call when built
 * with {@code enforceAlways}; a plaintext call to a plaintext daemon passes, as before.
 */
public final class AuthorizationInterceptor implements ServerInterceptor {
  private static final Logger log = LoggerFactory.getLogger(AuthorizationInterceptor.class);
  private static final int LOGGED = 10_000;

  private final Map<String, Rule> rules;
  private final boolean enforceAlways;
  private final Set<String> logged =
      Collections.newSetFromMap(
          new LinkedHashMap<>() {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > LOGGED;
            }
          });

  public AuthorizationInterceptor(Map<String, Rule> rules, boolean enforceAlways) {
    this.rules = Map.copyOf(rules);
    this.enforceAlways = enforceAlways;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    if (!enforceAlways && call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION) == null) {
      return next.startCall(call, headers);
    }
    Caller caller = Caller.current();
    String method = call.getMethodDescriptor().getFullMethodName();
    Rule rule = rules.get(method);
    if (!caller.authenticated()) {
      // Only a daemon that lets uncertified callers connect at all (tlsAnonymousReads) sees one
      // here; it may read, nothing more.
      if (rule == Rule.ANY && !enforceAlways) {
        return next.startCall(call, headers);
      }
      return refuse(call, caller, Status.UNAUTHENTICATED, method + " needs a client certificate");
    }
    if (rule == null) {
      return refuse(call, caller, Status.PERMISSION_DENIED, method + " has no rule; refused");
    }
    ServerCall.Listener<Q> inner = next.startCall(call, headers);
    // The rule may look at the request, so the check waits for the message; on a client stream
    // every message is checked, since each may name other series.
    boolean everyMessage = !call.getMethodDescriptor().getType().clientSendsOneMessage();
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<Q>(inner) {
      private boolean checked;
      private boolean refused;

      @Override
      public void onMessage(Q message) {
        if (refused) {
          return;
        }
        if (!checked || everyMessage) {
          checked = true;
          String why = rule.check(caller, message);
          if (why != null) {
            refused = true;
            note(caller, why);
            call.close(Status.PERMISSION_DENIED.withDescription(why), new Metadata());
            return;
          }
        }
        super.onMessage(message);
      }

      @Override
      public void onHalfClose() {
        if (!refused) {
          super.onHalfClose();
        }
      }
    };
  }

  private <Q, R> ServerCall.Listener<Q> refuse(
      ServerCall<Q, R> call, Caller caller, Status status, String why) {
    note(caller, why);
    call.close(status.withDescription(why), new Metadata());
    return new ServerCall.Listener<Q>() {};
  }

  private void note(Caller caller, String why) {
    boolean first;
    synchronized (logged) {
      first = logged.add(caller.key() + "|" + why);
    }
    if (first) {
      log.warn("refused {}: {}", caller.key(), why);
    }
  }
}
