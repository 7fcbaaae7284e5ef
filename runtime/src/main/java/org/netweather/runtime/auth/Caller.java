package org.netweather.runtime.auth;

import io.grpc.Context;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Who is calling: the identity proven by the caller's certificate ({@code host} from its subject
 * alternative name, {@code role}), or an anonymous caller known only by its address. Set on every
 * call's context by {@link CallerInterceptor}; services read it with {@link #current()}.
 *
 * @param host the host the certificate names; for an anonymous caller, the address it called from
 * @param role what the caller may act as
 * @param authenticated whether a verified certificate proved it
 * @param address where the call came from (null in process)
 */
public record Caller(String host, Role role, boolean authenticated, SocketAddress address) {
  static final Context.Key<Caller> KEY = Context.key("netweather-caller");

  /** An unauthenticated caller at {@code address}. */
  public static Caller anonymous(SocketAddress address) {
    String host =
        address instanceof InetSocketAddress a && a.getAddress() != null
            ? a.getAddress().getHostAddress()
            : String.valueOf(address);
    return new Caller(host, Role.ANONYMOUS, false, address);
  }

  /** The caller of the call being served; anonymous with no address outside a call. */
  public static Caller current() {
    Caller c = KEY.get();
    return c != null ? c : anonymous(null);
  }

  /**
   * What per-caller limits count by: the proven identity when there is one, else the calling
   * address's host (one count per machine, whatever port it calls from).
   */
  public String key() {
    return authenticated ? role.label() + "@" + host : host;
  }
}
