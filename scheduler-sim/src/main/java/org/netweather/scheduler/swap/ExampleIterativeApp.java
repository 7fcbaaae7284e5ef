package org.netweather.scheduler.swap;

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An iterative application that runs for real with swapping: each rank smooths its own strip of a
 * 1-D field (a Jacobi step with fixed ends), over-allocated on four "hosts" that are threads of
 * this JVM, two active. The manager's swaps move a rank's strip and iteration counter as bytes
 * between processes.
 *
 * <p>Host load is synthetic ({@code loads}: background run-queue per host from a given iteration
 * on), and a rank on a loaded host sleeps {@code millisPerLoad} × load per iteration to feel it,
 * since the threads share one machine. Run it with the dispatcher listening so {@code nws swap
 * status|force} can watch and steer it:
 *
 * <pre>{@code
 * java -cp ... org.netweather.scheduler.swap.ExampleIterativeApp [port] [iterations]
 * }</pre>
 */
public final class ExampleIterativeApp implements IterativeProcess {
  static final int CELLS = 64;
  private double[] strip = new double[CELLS];
  private int done;

  @Override
  public void register(SwapState state) {
    state.register(
        "iteration",
        () -> ByteBuffer.allocate(4).putInt(done).array(),
        b -> done = ByteBuffer.wrap(b).getInt());
    state.register(
        "strip",
        () -> {
          ByteBuffer b = ByteBuffer.allocate(8 * strip.length);
          for (double v : strip) {
            b.putDouble(v);
          }
          return b.array();
        },
        b -> {
          ByteBuffer in = ByteBuffer.wrap(b);
          strip = new double[b.length / 8];
          for (int i = 0; i < strip.length; i++) {
            strip[i] = in.getDouble();
          }
        });
  }

  @Override
  public void iterate(int rank, int iteration) {
    if (done == 0 && iteration == 0) {
      strip[0] = rank + 1; // a different hot end per rank
    }
    double[] next = strip.clone();
    for (int i = 1; i < strip.length - 1; i++) {
      next[i] = (strip[i - 1] + strip[i + 1]) / 2;
    }
    strip = next;
    done++;
  }

  /** Sum of the strip and the iterations done, for checking that swaps lose nothing. */
  public double checksum() {
    double s = done;
    for (double v : strip) {
      s += v;
    }
    return s;
  }

  /**
   * Runs the application; {@code loadFrom} maps host → iteration from which it carries a background
   * load of 2. Returns checksum per rank, then the swaps as "out->in" strings.
   */
  public static Result run(
      SwapManager manager,
      int iterations,
      int period,
      Map<String, Integer> loadFrom,
      long millisPerLoad) {
    List<String> hosts = manager.hosts();
    try (ProcessGroup group = new ProcessGroup(manager, ExampleIterativeApp::new)) {
      List<SwapManager.Event> swaps =
          group.run(
              iterations,
              period,
              it -> {
                List<HostView> views = new ArrayList<>();
                for (String h : hosts) {
                  double bg = it >= loadFrom.getOrDefault(h, Integer.MAX_VALUE) ? 2 : 0;
                  boolean active = manager.isActive(h);
                  double load = bg + (active ? 1 : 0);
                  views.add(
                      new HostView(
                          h, active, load, SelfLoad.availability(load, active), 0.01, 600));
                  if (active && bg > 0 && millisPerLoad > 0) {
                    sleep((long) (bg * millisPerLoad));
                  }
                }
                return new SwapPolicy.Epoch(
                    it,
                    views,
                    iterations - it,
                    1,
                    0.02,
                    8 * CELLS,
                    0.5,
                    (a, b) -> 1e8,
                    manager.cooldown());
              });
      double[] sums = new double[manager.ranks().size()];
      for (Map.Entry<Integer, String> r : manager.ranks().entrySet()) {
        sums[r.getKey()] = ((ExampleIterativeApp) group.process(r.getValue())).checksum();
      }
      return new Result(sums, swaps.stream().map(e -> e.out() + "->" + e.in()).toList());
    }
  }

  /** Checksums per rank and the swaps made. */
  public record Result(double[] checksums, List<String> swaps) {}

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  public static void main(String[] args) {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : SwapDispatcher.DEFAULT_PORT;
    int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 600;
    SwapDispatcher dispatcher = new SwapDispatcher();
    SwapManager m =
        dispatcher.start(
            "example",
            List.of("h0", "h1", "h2", "h3"),
            2,
            new FphPolicy(FphParameters.defaults()),
            2);
    // Loopback only: the dispatcher lets anyone who reaches it force swaps.
    NettyServerBuilder loopback =
        NettyServerBuilder.forAddress(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    try (SwapDispatcherServer server = SwapDispatcherServer.start(dispatcher, loopback)) {
      System.err.println(
          "swap dispatcher on port "
              + server.getPort()
              + "; try: nws swap status, nws swap force example h1 h3");
      Result r = run(m, iterations, 10, Map.of("h0", iterations / 3), 50);
      System.out.println("swaps: " + r.swaps() + "; ranks now " + m.ranks());
    }
  }
}
