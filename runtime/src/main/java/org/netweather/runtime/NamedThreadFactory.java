package org.netweather.runtime;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code prefix-N}, so thread dumps say whose each thread is. */
public final class NamedThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger next = new AtomicInteger();

  public NamedThreadFactory(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable r) {
    Thread t = new Thread(r, prefix + "-" + next.incrementAndGet());
    t.setDaemon(true);
    return t;
  }
}
