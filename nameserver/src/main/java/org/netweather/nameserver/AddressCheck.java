package org.netweather.nameserver;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.netweather.api.v1.Registration;
import org.netweather.runtime.Statuses;
import org.netweather.runtime.auth.Caller;
import org.netweather.runtime.auth.CallerInterceptor;
import org.netweather.runtime.auth.Role;

/**
 * Before the nameserver directs anyone to a registered address, the daemon listening there must
 * prove with its own certificate that it is the one who registered: a TLS handshake and a health
 * call to the address, whose server certificate must carry the role of the registration's kind and
 * the registrant's host (for an admin registering on another's behalf, the host after the name's
 * {@code @}). Without it a certified sensor could register a memory-host name pointing at a server
 * of its own, or a daemon could point its record at someone else's port.
 *
 * <p>Only registrations that arrive over TLS are checked (a plaintext site has no identities), and
 * only kinds that are roles (the daemons others dial). A registration that keeps its address is not
 * checked again.
 */
final class AddressCheck {
  private final Function<String, ManagedChannel> channels;
  private final Duration timeout;

  AddressCheck(Function<String, ManagedChannel> channels, Duration timeout) {
    this.channels = channels;
    this.timeout = timeout;
  }

  /**
   * Checks {@code r} registered by {@code caller}.
   *
   * @throws io.grpc.StatusRuntimeException PERMISSION_DENIED naming the identity found where
   *     another was claimed, FAILED_PRECONDITION if the address does not answer over TLS
   */
  void verify(Registration r, Caller caller) {
    if (!caller.authenticated() || r.getAddress().isEmpty()) {
      return;
    }
    Role role;
    try {
      role = Role.of(r.getKind());
    } catch (IllegalArgumentException e) {
      return; // not a daemon others dial by kind; only an admin may register it at all
    }
    String name = r.getName();
    String host =
        caller.role() == Role.ADMIN ? name.substring(name.indexOf('@') + 1) : caller.host();
    Caller found = answering(r.getAddress());
    if (found.role() != role || !found.host().equals(host)) {
      throw Statuses.permissionDenied(
          "address "
              + r.getAddress()
              + " of "
              + name
              + " answers as "
              + found.key()
              + ", not as "
              + role.label()
              + "@"
              + host
              + "; register the address of your own server");
    }
  }

  /** Who the server at {@code address} proves to be. */
  private Caller answering(String address) {
    AtomicReference<X509Certificate> shown = new AtomicReference<>();
    ManagedChannel ch = channels.apply(address);
    try {
      HealthGrpc.newBlockingStub(ClientInterceptors.intercept(ch, new PeerCertificate(shown)))
          .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS)
          .check(HealthCheckRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      if (shown.get() == null) {
        throw Statuses.failedPrecondition(
            "address "
                + address
                + " does not answer over TLS ("
                + e.getStatus().getCode()
                + "); start the server before registering it");
      }
    } finally {
      ch.shutdownNow();
    }
    if (shown.get() == null) {
      throw Statuses.failedPrecondition("address " + address + " answered without TLS");
    }
    return CallerInterceptor.identity(shown.get(), null);
  }

  /** Keeps the certificate the server presented on the call's connection. */
  private static final class PeerCertificate implements ClientInterceptor {
    private final AtomicReference<X509Certificate> shown;

    PeerCertificate(AtomicReference<X509Certificate> shown) {
      this.shown = shown;
    }

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
        MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          ClientCall<Q, R> call = this;
          super.start(
              new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
                @Override
                public void onHeaders(Metadata h) {
                  keep(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
                  super.onHeaders(h);
                }
              },
              headers);
        }
      };
    }

    private void keep(SSLSession tls) {
      if (tls == null) {
        return;
      }
      try {
        Certificate[] chain = tls.getPeerCertificates();
        if (chain.length > 0 && chain[0] instanceof X509Certificate cert) {
          shown.set(cert);
        }
      } catch (SSLPeerUnverifiedException e) {
        // no certificate: shown stays empty and the address is refused
      }
    }
  }
}
