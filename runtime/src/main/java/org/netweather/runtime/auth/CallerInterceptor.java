package org.netweather.runtime.auth;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * Puts the {@link Caller} of each call on its context. Every daemon's server runs it first, so
 * services and policies see who is calling without knowing how that was proven.
 *
 * <p>Over mutual TLS the caller is who its verified certificate says: the host from its first DNS
 * subject alternative name, the role from a URI subject alternative name {@value #ROLE_URI}{@code
 * ROLE}. A certificate without a role is a {@link Role#READER}. Without a client certificate the
 * caller is anonymous, known by its address.
 */
public final class CallerInterceptor implements ServerInterceptor {
  /** The prefix of the URI subject alternative name that carries a NetWeather role. */
  public static final String ROLE_URI = "urn:netweather:role:";

  private static final int SAN_DNS = 2;
  private static final int SAN_URI = 6;

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(
      ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    SocketAddress address = call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR);
    SSLSession tls = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
    Caller caller = tls == null ? Caller.anonymous(address) : fromCertificate(tls, address);
    return Contexts.interceptCall(
        Context.current().withValue(Caller.KEY, caller), call, headers, next);
  }

  static Caller fromCertificate(SSLSession tls, SocketAddress address) {
    Certificate[] chain;
    try {
      chain = tls.getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return Caller.anonymous(address);
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate cert)) {
      return Caller.anonymous(address);
    }
    return identity(cert, address);
  }

  /** The identity a verified certificate proves. */
  public static Caller identity(X509Certificate cert, SocketAddress address) {
    String host = null;
    Role role = Role.READER;
    Collection<List<?>> names;
    try {
      names = cert.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      names = null;
    }
    if (names != null) {
      for (List<?> san : names) {
        int type = (Integer) san.get(0);
        String value = String.valueOf(san.get(1));
        if (type == SAN_DNS && host == null) {
          host = value;
        } else if (type == SAN_URI && value.startsWith(ROLE_URI)) {
          try {
            role = Role.of(value.substring(ROLE_URI.length()));
          } catch (IllegalArgumentException e) {
            role = Role.READER; // an unknown role grants nothing beyond reading
          }
        }
      }
    }
    if (host == null) {
      host = cert.getSubjectX500Principal().getName();
    }
    return new Caller(host, role, true, address);
  }
}
