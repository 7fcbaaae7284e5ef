package org.netweather.client;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One channel over a list of equivalent servers (the nameservers of a site that share their state):
 * every call goes to the server in use, and a call that ends UNAVAILABLE or DEADLINE_EXCEEDED moves
 * the next calls to the next server of the list, round the list. The failed call itself is not
 * retried here: the caller's own retry (the client's {@link Retrier}, a registrar's next try, a
 * watcher's reconnect) is what reaches the next server, so a call that may not be repeated never
 * is.
 *
 * <p>Nothing is checked in the background: a dead server costs the one call that finds it, and the
 * list is followed in order, so all callers of one process tend to sit on the same server.
 *
 * <pre>{@code
 * ManagedChannel ns = FailoverChannel.open("ns1:8090,ns2:8090", Channels::plaintext);
 * }</pre>
 *
 * <p>Thread-safety: safe for concurrent calls, as any channel.
 */
public final class FailoverChannel extends ManagedChannel {
  private final List<String> addresses;
  private final List<ManagedChannel> channels;
  private final AtomicInteger current = new AtomicInteger();

  private FailoverChannel(List<String> addresses, List<ManagedChannel> channels) {
    this.addresses = List.copyOf(addresses);
    this.channels = List.copyOf(channels);
  }

  /**
   * The addresses of a list {@code host:port,host:port,...} (blanks around commas ignored).
   *
   * @throws IllegalArgumentException if the list or one of its entries is empty
   */
  public static List<String> addresses(String list) {
    if (list == null || list.isBlank()) {
      throw new IllegalArgumentException("the nameserver address list is empty");
    }
    List<String> out = new ArrayList<>();
    for (String part : list.split(",", -1)) {
      String a = part.strip();
      if (a.isEmpty()) {
        throw new IllegalArgumentException(
            "the nameserver address list '" + list + "' has an empty entry");
      }
      out.add(a);
    }
    return out;
  }

  /**
   * A channel to {@code list}: the channel {@code open} makes for it when the list has one address,
   * else a failover channel over one channel per address, all owned by what is returned.
   */
  public static ManagedChannel open(String list, Function<String, ManagedChannel> open) {
    List<String> addresses = addresses(list);
    if (addresses.size() == 1) {
      return open.apply(addresses.get(0));
    }
    List<ManagedChannel> channels = new ArrayList<>();
    try {
      for (String a : addresses) {
        channels.add(open.apply(a));
      }
    } catch (RuntimeException e) {
      channels.forEach(ManagedChannel::shutdownNow);
      throw e;
    }
    return new FailoverChannel(addresses, channels);
  }

  /** The address calls go to now. */
  public String currentAddress() {
    return addresses.get(current.get());
  }

  /** How many servers the list has. */
  public int size() {
    return channels.size();
  }

  @Override
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    int used = current.get();
    return new ForwardingClientCall.SimpleForwardingClientCall<Q, R>(
        channels.get(used).newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<R>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                if (status.getCode() == Status.Code.UNAVAILABLE
                    || status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
                  // Only the first call to fail on this server moves the others on.
                  current.compareAndSet(used, (used + 1) % channels.size());
                }
                super.onClose(status, trailers);
              }
            },
            headers);
      }
    };
  }

  @Override
  public String authority() {
    return channels.get(current.get()).authority();
  }

  @Override
  public void resetConnectBackoff() {
    channels.forEach(ManagedChannel::resetConnectBackoff);
  }

  @Override
  public ManagedChannel shutdown() {
    channels.forEach(ManagedChannel::shutdown);
    return this;
  }

  @Override
  public boolean isShutdown() {
    return channels.stream().allMatch(ManagedChannel::isShutdown);
  }

  @Override
  public boolean isTerminated() {
    return channels.stream().allMatch(ManagedChannel::isTerminated);
  }

  @Override
  public ManagedChannel shutdownNow() {
    channels.forEach(ManagedChannel::shutdownNow);
    return this;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    long end = System.nanoTime() + unit.toNanos(timeout);
    for (ManagedChannel c : channels) {
      if (!c.awaitTermination(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "FailoverChannel" + addresses + " at " + currentAddress();
  }
}
