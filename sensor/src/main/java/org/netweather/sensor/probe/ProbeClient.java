package org.netweather.sensor.probe;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.netweather.sensor.Reading;
import org.netweather.sensor.Ticker;

/**
 * Measures the path to a peer's {@link ProbeServer}: {@code tcp.connect}, {@code tcp.latency},
 * {@code tcp.bandwidth}; and runs paced transfers for interference experiments.
 *
 * <pre>{@code
 * ProbeClient client = new ProbeClient(loops, ProbeClientOptions.defaults(), Ticker.system());
 * Reading rtt = client.latency(peer).get();       // ms, median of 5 one-byte round trips
 * Reading connect = client.connectTime(peer).get(); // ms to open a connection (see there)
 * Reading bw = client.bandwidth(peer).get();      // Mbit/s; bw.bytesSpent() = cost
 * try (PLogPConnection c = client.plogp(peer).get()) { long ns = c.burst(64, 0).get(); }
 * client.close();
 * }</pre>
 *
 * <p>Latency probes reuse one open echo connection per peer (a blocking socket, see {@link
 * BlockingEcho}), so they time a message rather than a handshake; the first probe pays 16 bytes of
 * hello. Bandwidth, transfers and pLogP open a fresh connection each. Every future fails with an
 * {@link IOException} (or a time-out) when the peer does not answer within {@link
 * ProbeClientOptions#timeout()}.
 *
 * <p>Thread-safe. The client does not own the event-loop group; {@link #close()} closes its cached
 * connections.
 */
public final class ProbeClient implements AutoCloseable {

  private final EventLoopGroup group;
  private final ProbeClientOptions options;
  private final Ticker ticker;
  private final ConcurrentMap<InetSocketAddress, BlockingEcho> echoes = new ConcurrentHashMap<>();

  /** Peers {@link #connectTime} has connected to once, untimed. */
  private final Set<InetSocketAddress> connectWarmed = ConcurrentHashMap.newKeySet();

  // Latency probes block on their socket; one thread keeps them off the event loops and
  // sequential, as one prober's experiments should be.
  private final ExecutorService latencyThread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "probe-latency");
            t.setDaemon(true);
            return t;
          });

  private record Connected(Channel channel, long connectNanos) {}

  public ProbeClient(EventLoopGroup group, ProbeClientOptions options, Ticker ticker) {
    this.group = group;
    this.options = options;
    this.ticker = ticker;
  }

  /**
   * Time to open a TCP connection to {@code peer}, in ms; no payload is sent. The first time a peer
   * is measured, one untimed connect (opened and closed) goes first: the first connect of a JVM
   * pays class loading and initialisation of the connect path (on loopback a fresh {@code nws probe
   * tcp.connect} read 2.5-5.9 ms where a long-running sensor read 0.24 ms), so a one-shot probe
   * would time the JVM, not the path. It also fills the route and neighbour caches to that peer, as
   * a sensor's repeated probes find them.
   */
  public CompletableFuture<Reading> connectTime(InetSocketAddress peer) {
    CompletableFuture<Void> warm =
        connectWarmed.contains(peer)
            ? CompletableFuture.completedFuture(null)
            : connect(peer, (ch, took) -> {})
                .thenCompose(
                    c -> {
                      CompletableFuture<Void> closed = new CompletableFuture<>();
                      c.channel().close().addListener(f -> closed.complete(null));
                      return closed;
                    })
                .thenRun(() -> connectWarmed.add(peer));
    return warm.thenCompose(w -> connect(peer, (ch, took) -> {}))
        .thenApply(
            c -> {
              c.channel().close();
              return Reading.of(c.connectNanos() / 1e6, "ms", 0);
            });
  }

  /**
   * Round trip of a one-byte message on an open connection, in ms: the median of {@link
   * ProbeClientOptions#latencyPings()} sequential round trips after {@value #LATENCY_WARMUPS}
   * warm-up round trips. Extras: {@code minMs}, {@code maxMs}.
   */
  static final int LATENCY_WARMUPS = 200;

  public CompletableFuture<Reading> latency(InetSocketAddress peer) {
    // Unreported round trips first: they wake both ends, the path's caches and the JIT, which
    // a probe every minute (or a fresh process) otherwise finds cold. 200 because the peer's
    // echo path is only compiled after a couple of hundred messages: with 20, the first probe
    // against a fresh peer read 0.13-0.36 ms where ping read 0.05. About 400 bytes.
    int pings = options.latencyPings() + LATENCY_WARMUPS;
    CompletableFuture<Reading> result = new CompletableFuture<>();
    try {
      latencyThread.execute(
          () -> {
            try {
              BlockingEcho echo = echoes.get(peer);
              if (echo == null || !echo.isOpen()) {
                echo = BlockingEcho.open(peer, options.timeout(), options.key(), ticker);
                echoes.put(peer, echo);
              }
              long hello = echo.takeFresh() ? options.helloBytes() : 0;
              long[] rtts = echo.ping(pings);
              result.complete(
                  latencyReading(
                      Arrays.copyOfRange(rtts, LATENCY_WARMUPS, pings), hello + 2L * pings));
            } catch (IOException | RuntimeException e) {
              BlockingEcho dead = echoes.remove(peer);
              if (dead != null) {
                dead.close();
              }
              result.completeExceptionally(e);
            }
          });
    } catch (RejectedExecutionException e) {
      result.completeExceptionally(new IOException("probe client is closed"));
    }
    return result;
  }

  private static Reading latencyReading(long[] rtts, long bytes) {
    long[] sorted = rtts.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    return new Reading(
        median / 1e6, "ms", bytes, Map.of("minMs", sorted[0] / 1e6, "maxMs", sorted[n - 1] / 1e6));
  }

  /**
   * Bulk-transfer rate to {@code peer} in Mbit/s, by the converging train of {@link
   * TrainRateEstimator}. Extras: {@code converged} (1 or 0), {@code trainMs}, {@code
   * receivedBytes}, {@code marks}.
   */
  public CompletableFuture<Reading> bandwidth(InetSocketAddress peer) {
    CompletableFuture<Reading> result = new CompletableFuture<>();
    connect(
            peer,
            (ch, rtt) ->
                ch.pipeline()
                    .addLast("marks", new SinkMarkDecoder())
                    .addLast("train", new BandwidthClientHandler(options, rtt, result)))
        .whenComplete(
            (c, e) -> {
              if (e != null) {
                result.completeExceptionally(e);
              } else {
                // A cancelled or timed-out train must stop sending at once: a clique holder's
                // turn may have moved on, and its bytes would disturb the next holder's probes.
                result.whenComplete(
                    (r, err) -> {
                      if (err != null) {
                        c.channel().close();
                      }
                    });
              }
            });
    // The handler reports at its own deadline; this only guards a connection that never forms.
    return result.orTimeout(options.timeout().toNanos() * 2, TimeUnit.NANOSECONDS);
  }

  /**
   * Starts a paced transfer with {@code peer}: sending into its sink, or receiving from its source.
   * The transfer runs until closed or {@link ProbeClientOptions#maxTransferBytes()}.
   *
   * @param bytesPerSecond target rate; 0 or less for as fast as possible
   */
  public CompletableFuture<ProbeTransfer> startTransfer(
      InetSocketAddress peer, boolean send, double bytesPerSecond) {
    TransferClientHandler h =
        new TransferClientHandler(send, bytesPerSecond, options.maxTransferBytes(), ticker);
    return connect(peer, (ch, rtt) -> ch.pipeline().addLast("transfer", h))
        .thenApply(c -> new ProbeTransfer(c.channel(), h));
  }

  /**
   * Opens a fresh {@link ProbeMode#PLOGP} connection to {@code peer} for pLogP timings; each timing
   * on it fails after {@link ProbeClientOptions#timeout()}.
   */
  public CompletableFuture<PLogPConnection> plogp(InetSocketAddress peer) {
    PLogPClientHandler h = new PLogPClientHandler(ticker, options.helloBytes());
    return connect(peer, (ch, rtt) -> ch.pipeline().addLast("plogp", h))
        .thenApply(c -> new PLogPConnection(c.channel(), h, options.timeout().toNanos()));
  }

  /** What to put in a connected channel's pipeline, given the connect time in ns. */
  @FunctionalInterface
  private interface Setup {
    void accept(Channel channel, long connectNanos);
  }

  /**
   * Registers a channel, times its connect from the event loop, and sets up its pipeline there
   * before the future completes, so handlers are in place (and know their context) by then.
   */
  private CompletableFuture<Connected> connect(InetSocketAddress peer, Setup setup) {
    CompletableFuture<Connected> result = new CompletableFuture<>();
    Bootstrap b =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, options.timeout().toMillis()))
            .option(
                ChannelOption.WRITE_BUFFER_WATER_MARK,
                new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
            .handler(new ChannelInboundHandlerAdapter());
    ChannelFuture registered = b.register();
    registered.addListener(
        rf -> {
          if (!rf.isSuccess()) {
            result.completeExceptionally(rf.cause());
            return;
          }
          Channel ch = registered.channel();
          // Timed on the event loop that completes the connect, so no thread hand-off is in it.
          long start = ticker.nanoTime();
          ch.connect(peer)
              .addListener(
                  cf -> {
                    long took = ticker.nanoTime() - start;
                    if (cf.isSuccess()) {
                      try {
                        if (options.key() != null) {
                          ch.pipeline().addFirst("seal", new HelloSealer(options.key()));
                        }
                        setup.accept(ch, took);
                      } catch (RuntimeException e) {
                        ch.close();
                        result.completeExceptionally(e);
                        return;
                      }
                      result.complete(new Connected(ch, took));
                    } else {
                      ch.close();
                      result.completeExceptionally(
                          new IOException("cannot connect to " + peer, cf.cause()));
                    }
                  });
        });
    return result;
  }

  @Override
  public void close() {
    latencyThread.shutdownNow();
    for (BlockingEcho e : echoes.values()) {
      e.close();
    }
    echoes.clear();
  }
}
