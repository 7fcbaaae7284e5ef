package org.netweather.sensor.clique;

import java.time.Duration;
import java.util.PriorityQueue;

/** A {@link CliqueScheduler} whose clock moves only in {@link #advance}; tasks run in order. */
final class FakeCliqueScheduler implements CliqueScheduler {

  private static final class Task {
    final long due;
    final long order;
    final Runnable body;
    boolean cancelled;

    Task(long due, long order, Runnable body) {
      this.due = due;
      this.order = order;
      this.body = body;
    }
  }

  private final PriorityQueue<Task> queue =
      new PriorityQueue<>(
          (a, b) -> a.due != b.due ? Long.compare(a.due, b.due) : Long.compare(a.order, b.order));
  private long now;
  private long order;

  @Override
  public long nanoTime() {
    return now;
  }

  @Override
  public Cancellable schedule(Runnable task, long delayNanos) {
    Task t = new Task(now + Math.max(0, delayNanos), order++, task);
    queue.add(t);
    return () -> t.cancelled = true;
  }

  /** Runs every task due within {@code d}, moving the clock to each task's time. */
  void advance(Duration d) {
    long end = now + d.toNanos();
    while (!queue.isEmpty() && queue.peek().due <= end) {
      Task t = queue.poll();
      now = t.due;
      if (!t.cancelled) {
        t.body.run();
      }
    }
    now = end;
  }

  /** Runs what is due now. */
  void runPending() {
    advance(Duration.ZERO);
  }

  long nowMillis() {
    return now / 1_000_000;
  }
}
