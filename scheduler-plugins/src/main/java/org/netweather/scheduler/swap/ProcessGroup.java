package org.netweather.scheduler.swap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs an over-allocated iterative application in this JVM: one single-threaded "process" per host,
 * the first p active, BSP iterations, and a swap point every {@code period} iterations where the
 * manager's decisions move a rank's saved state from one process to another.
 *
 * <p>Each process owns its own {@link IterativeProcess} object, so state really moves as bytes
 * between processes; only scheduling is shared. Thread-safety: {@link #run} is for one caller.
 */
public final class ProcessGroup implements AutoCloseable {
  private final SwapManager manager;
  private final Map<String, IterativeProcess> processes = new HashMap<>();
  private final Map<String, SwapState> states = new HashMap<>();
  private final Map<String, ExecutorService> threads = new HashMap<>();

  public ProcessGroup(SwapManager manager, Supplier<IterativeProcess> factory) {
    this.manager = manager;
    for (String host : manager.hosts()) {
      IterativeProcess p = factory.get();
      SwapState s = new SwapState();
      p.register(s);
      processes.put(host, p);
      states.put(host, s);
      threads.put(
          host,
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, "swap-process-" + host);
                t.setDaemon(true);
                return t;
              }));
    }
  }

  /** The process now on {@code host} (for checks after a run). */
  public IterativeProcess process(String host) {
    return processes.get(host);
  }

  /**
   * Runs {@code iterations} iterations; every {@code period} the epoch built by {@code epochs}
   * (from the iteration number) goes to the manager. Returns the swaps made.
   */
  public List<SwapManager.Event> run(
      int iterations, int period, Function<Integer, SwapPolicy.Epoch> epochs) {
    List<SwapManager.Event> all = new ArrayList<>();
    for (int it = 0; it < iterations; it++) {
      if (it > 0 && it % period == 0) {
        for (SwapManager.Event e : manager.swapPoint(epochs.apply(it))) {
          byte[] saved = call(e.out(), () -> states.get(e.out()).save());
          call(
              e.in(),
              () -> {
                states.get(e.in()).restore(saved);
                return null;
              });
          all.add(e);
        }
      }
      int iteration = it;
      List<Future<?>> step = new ArrayList<>();
      for (Map.Entry<Integer, String> r : manager.ranks().entrySet()) {
        step.add(
            threads
                .get(r.getValue())
                .submit(() -> processes.get(r.getValue()).iterate(r.getKey(), iteration)));
      }
      for (Future<?> f : step) {
        await(f);
      }
    }
    return all;
  }

  private <T> T call(String host, java.util.concurrent.Callable<T> task) {
    return await(threads.get(host).submit(task));
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("process failed: " + e.getCause(), e.getCause());
    }
  }

  @Override
  public void close() {
    threads.values().forEach(ExecutorService::shutdownNow);
  }
}
