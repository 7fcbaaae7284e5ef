package org.netweather.memoryhost;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.netweather.api.v1.ConsolidatedPoint;
import org.netweather.api.v1.Measurement;
import org.netweather.api.v1.Resolution;
import org.netweather.api.v1.SeriesPoints;
import org.netweather.memoryhost.store.DataDirLock;
import org.netweather.memoryhost.store.Points;
import org.netweather.memoryhost.store.SeriesDb;
import org.netweather.memoryhost.store.SeriesState;
import org.netweather.model.SeriesPattern;
import org.netweather.runtime.NamedThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory-host's storage: every series' raw points in one {@link SeriesDb}, consolidated
 * archives written behind them by an {@link ArchiveConsolidator}, and a {@link WatchHub}.
 *
 * <p>All writes go through one writer thread. It drains every append waiting in its queue, drops
 * points whose (series, timestamp) is already stored, and makes the rest durable in one synced
 * batch (group commit), together with the series they create; then it completes the appends and
 * hands the new points to the hub. An append is therefore on disk before it is acknowledged,
 * retrying one adds nothing, and an append that fails stores nothing. Limits on series creation are
 * checked before an append is queued (per call and per caller) and again for the total inside the
 * group, where a refusal fails only the append concerned. Sealing heads into chunks and retention
 * run on the writer between groups, a slice at a time.
 *
 * <p>Reads run on the caller's thread against the series' own locks.
 */
public final class MeasurementStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MeasurementStore.class);
  private static final int QUEUE = 4096;
  // Queued appends hold their points as request objects (about 40 bytes a point): bounded by
  // points too, since 4 096 appends of 10 000 points each would be 40 million of them. A site's
  // sensors queue a few points per append; a backlog being delivered, a few thousand.
  static final long QUEUE_POINTS = 1_000_000;
  private static final int GROUP = 512;
  // A group closes once it holds this many points, so its one write stays tens of megabytes.
  private static final int GROUP_POINTS = 200_000;
  // A head not yet full is sealed once held this long, so a slow series' points do not sit for
  // days in its head (and in every checkpoint).
  private static final long MAX_HEAD_AGE_MS = 2 * 3600_000L;
  private static final int BACKLOG_POINTS_PER_MESSAGE = 4096;
  private static final long MAINTENANCE_PERIOD_MS = 200;
  // Heads reach the database at a checkpoint this often, or once the point log since the last one
  // outgrows CHECKPOINT_LOG_BYTES: the bound on what a restart replays.
  private static final long CHECKPOINT_PERIOD_MS = 2 * 60_000L;
  private static final long CHECKPOINT_LOG_BYTES = 128L << 20;
  // A group of fewer appends than this waits up to LINGER_NS for more; longer (BUSY_LINGER_NS)
  // while appends arrive faster than BUSY_RATE a second, when waiting is sure to gather several
  // and each synced write and wake-up saved is worth more than the milliseconds: on a virtual
  // disk a sync costs the writer about 200 us of CPU, a quarter of its time at 16 appends a group.
  private static final int LINGER_BELOW = 64;
  private static final long LINGER_NS = 2_000_000;
  private static final long BUSY_LINGER_NS = 20_000_000;
  private static final double BUSY_RATE = 100;

  private final SeriesDb db;
  private final DataDirLock lock;
  private final StoreOptions options;
  private final Clock clock;
  private final WatchHub hub;
  private final MemoryMetrics metrics;
  private final CreationLimiter limiter;
  private final ArchiveConsolidator archives;
  private final ScheduledExecutorService background;
  // Checkpoints run here, off the writer; one at a time.
  private final java.util.concurrent.ExecutorService checkpointer;
  private volatile boolean checkpointRunning;
  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(QUEUE);
  // Points of the appends in the queue.
  private final AtomicLong queuedPoints = new AtomicLong();
  // Appends and points each caller has in the queue ({appends, points}); a caller is absent when
  // it has none, so the map holds at most as many entries as the queue.
  private final ConcurrentHashMap<String, long[]> queuedByCaller = new ConcurrentHashMap<>();
  private final Thread writer;
  private volatile boolean closing;
  // Set by closeAsIfKilled (tests): close leaves the files as SIGKILL would.
  private volatile boolean killed;
  private volatile long maxPoints;
  private volatile long maxAgeMs;
  private Iterator<SeriesState> maintenance;
  private long lastMaintenanceMs;
  // How many queued appends end the writer's linger; MAX_VALUE while it is not lingering.
  private volatile int wakeWriterAt = Integer.MAX_VALUE;
  // Writer thread only: the append arrival rate, a second's moving average.
  private double appendRate;
  private long rateWindowStartNs = System.nanoTime();
  private int rateWindowCount;
  private long lastCheckpointMs;

  /** How an append went. */
  public record Result(long stored, long duplicates) {}

  private record Pending(
      List<SeriesPoints> batches,
      SeriesState[] known,
      String caller,
      int points,
      CompletableFuture<Result> done) {}

  private record Job<T>(Callable<T> body, CompletableFuture<T> done) {
    void run() {
      try {
        done.complete(body.call());
      } catch (Throwable t) {
        done.completeExceptionally(t);
      }
    }
  }

  private MeasurementStore(
      DataDirLock lock,
      SeriesDb db,
      StoreOptions options,
      Clock clock,
      Executor watchExecutor,
      MemoryMetrics metrics)
      throws IOException {
    this.lock = lock;
    this.db = db;
    this.options = options;
    this.clock = clock;
    this.metrics = metrics;
    this.hub = new WatchHub(watchExecutor);
    this.limiter = new CreationLimiter(options.maxNewSeriesPerCallerPerMinute(), clock);
    this.maxPoints = db.setting("retention.max-points", options.rawPoints());
    this.maxAgeMs = db.setting("retention.max-age-ms", options.rawMaxAge().toMillis());
    this.archives = new ArchiveConsolidator(db, clock, options.consolidationInterval());
    this.background =
        Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("memory-consolidator"));
    archives.start(background);
    this.checkpointer =
        Executors.newSingleThreadExecutor(new NamedThreadFactory("memory-checkpoint"));
    this.writer = new Thread(this::writeLoop, "memory-writer");
    this.writer.setDaemon(true);
    this.writer.start();
  }

  /**
   * Opens the store in {@code dir}, recovering whatever an earlier run left, with default options
   * but {@code rawPoints}.
   *
   * @param watchExecutor delivers watch messages; not owned
   */
  public static MeasurementStore open(Path dir, int rawPoints, Clock clock, Executor watchExecutor)
      throws IOException {
    return open(
        StoreOptions.defaults(dir).withRawPoints(rawPoints),
        clock,
        watchExecutor,
        MemoryMetrics.NONE);
  }

  /** Opens the store as {@code options} say. */
  public static MeasurementStore open(StoreOptions options, Clock clock, Executor watchExecutor)
      throws IOException {
    return open(options, clock, watchExecutor, MemoryMetrics.NONE);
  }

  /** Opens the store as {@code options} say, recording what it does in {@code metrics}. */
  static MeasurementStore open(
      StoreOptions options, Clock clock, Executor watchExecutor, MemoryMetrics metrics)
      throws IOException {
    DataDirLock lock = DataDirLock.acquire(options.dataDir());
    SeriesDb db;
    try {
      db = SeriesDb.open(options.dataDir().resolve("points"));
    } catch (IOException | RuntimeException e) {
      lock.close();
      throw e;
    }
    log.info("opened {} series in {} ({})", db.seriesCount(), options.dataDir(), db.openTimes());
    return new MeasurementStore(lock, db, options, clock, watchExecutor, metrics);
  }

  /**
   * Queues a validated append. The future completes once the points are durable; it fails with
   * {@link RejectedExecutionException} if the queue is full or the store is closing, with {@link
   * LimitExceededException} if a limit on series creation refuses it, and with {@link
   * org.netweather.memoryhost.store.StoreFullException} if the disk is full.
   *
   * @param caller who asks (the peer's host), for the per-caller creation limit
   */
  public CompletableFuture<Result> append(List<SeriesPoints> batches, String caller) {
    return append(batches, resolve(batches), caller);
  }

  /** The stored series each batch names, null for a series not stored yet. */
  public SeriesState[] resolve(List<SeriesPoints> batches) {
    SeriesState[] known = new SeriesState[batches.size()];
    for (int b = 0; b < known.length; b++) {
      known[b] = db.get(batches.get(b).getSeries());
    }
    return known;
  }

  /**
   * As {@link #append(List, String)}, with the series already {@linkplain #resolve resolved} (so
   * that the service looks each name up once).
   */
  public CompletableFuture<Result> append(
      List<SeriesPoints> batches, SeriesState[] known, String caller) {
    CompletableFuture<Result> done = new CompletableFuture<>();
    int created = 0;
    java.util.Set<String> seen = null;
    for (int b = 0; b < known.length; b++) {
      if (known[b] == null) {
        if (seen == null) {
          seen = new java.util.HashSet<>();
        }
        if (seen.add(batches.get(b).getSeries())) {
          created++;
        }
      }
    }
    try {
      if (created > options.maxNewSeriesPerCall()) {
        throw new LimitExceededException(
            "this append would create "
                + created
                + " new series; one append may create at most "
                + options.maxNewSeriesPerCall()
                + " (limit maxNewSeriesPerCall)");
      }
      if (created > 0 && db.seriesCount() + created > options.maxSeries()) {
        throw maxSeries(created);
      }
      if (created > 0 && !limiter.tryAcquire(caller, created)) {
        throw new LimitExceededException(
            caller
                + " created more than "
                + options.maxNewSeriesPerCallerPerMinute()
                + " new series in the last minute (limit"
                + " maxNewSeriesPerCallerPerMinute); retry later");
      }
    } catch (LimitExceededException e) {
      done.completeExceptionally(e);
      return done;
    }
    int points = 0;
    for (SeriesPoints sp : batches) {
      points += sp.getPointsCount();
    }
    long waiting = queuedPoints.addAndGet(points);
    // One append larger than the bound (only from inside the process) still goes in alone.
    if (waiting > QUEUE_POINTS && waiting > points) {
      queuedPoints.addAndGet(-points);
      refused(caller, created);
      done.completeExceptionally(
          new RejectedExecutionException(
              "write queue is full: "
                  + (waiting - points)
                  + " points wait to be written, at most "
                  + QUEUE_POINTS));
    } else if (!takeShare(caller, points)) {
      queuedPoints.addAndGet(-points);
      refused(caller, created);
      long[] mine = queuedByCaller.getOrDefault(caller, new long[2]);
      done.completeExceptionally(
          new RejectedExecutionException(
              caller
                  + " has "
                  + mine[0]
                  + " appends ("
                  + mine[1]
                  + " points) waiting to be written, its share of the write queue ("
                  + options.maxQueuedPerCaller()
                  + " appends, "
                  + pointsShare()
                  + " points; limit maxQueuedPerCaller)"));
    } else if (closing || !queue.offer(new Pending(batches, known, caller, points, done))) {
      queuedPoints.addAndGet(-points);
      giveShare(caller, points);
      refused(caller, created);
      done.completeExceptionally(
          new RejectedExecutionException(
              closing ? "memory-host is shutting down" : "write queue is full"));
    } else {
      int wake = wakeWriterAt;
      if (wake != Integer.MAX_VALUE && queue.size() >= wake) {
        LockSupport.unpark(writer);
      }
    }
    return done;
  }

  /** An append refused after its series creation was counted does not count against it. */
  private void refused(String caller, int created) {
    if (created > 0) {
      limiter.giveBack(caller, created);
    }
  }

  private long pointsShare() {
    return QUEUE_POINTS * options.maxQueuedPerCaller() / QUEUE;
  }

  /** Counts an append against its caller's share of the queue; false if over the share. */
  private boolean takeShare(String caller, int points) {
    boolean[] taken = new boolean[1];
    long maxPoints = pointsShare();
    queuedByCaller.compute(
        caller,
        (k, mine) -> {
          long[] m = mine == null ? new long[2] : mine;
          // An append larger than the points share (only from inside the process) goes in alone.
          if (m[0] >= options.maxQueuedPerCaller() || (m[0] > 0 && m[1] + points > maxPoints)) {
            return mine;
          }
          m[0]++;
          m[1] += points;
          taken[0] = true;
          return m;
        });
    return taken[0];
  }

  private void giveShare(String caller, int points) {
    queuedByCaller.computeIfPresent(
        caller,
        (k, m) -> {
          m[0]--;
          m[1] -= points;
          return m[0] <= 0 ? null : m;
        });
  }

  /** The writer took {@code p} from the queue. */
  private void dequeued(Pending p) {
    queuedPoints.addAndGet(-p.points());
    giveShare(p.caller(), p.points());
  }

  /** As {@link #append(List, String)} for a caller inside this process. */
  public CompletableFuture<Result> append(List<SeriesPoints> batches) {
    return append(batches, "local");
  }

  private LimitExceededException maxSeries(int created) {
    return new LimitExceededException(
        "this memory-host holds "
            + db.seriesCount()
            + " series and may hold at most "
            + options.maxSeries()
            + " (limit maxSeries); "
            + created
            + " more refused");
  }

  /** Checks an append as the service must before queuing it. */
  public static int validate(List<SeriesPoints> batches, long nowMs) {
    return AppendValidator.validate(batches, nowMs);
  }

  /** As {@link #validate(List, long)} for batches {@linkplain #resolve resolved} already. */
  public static int validate(List<SeriesPoints> batches, SeriesState[] known, long nowMs) {
    return AppendValidator.validate(batches, known, nowMs);
  }

  private void writeLoop() {
    List<Pending> group = new ArrayList<>();
    while (true) {
      Object first;
      try {
        first = queue.poll(200, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        return;
      }
      if (first == null) {
        if (closing) {
          return;
        }
        maintain();
        continue;
      }
      if (first instanceof Job<?> job) {
        job.run();
        continue;
      }
      Pending head = (Pending) first;
      dequeued(head);
      group.add(head);
      gather(group, head.points());
      countArrivals(group.size());
      try {
        writeGroup(group);
      } catch (Throwable t) {
        if (!(t instanceof IOException)) {
          log.error("write failed", t);
        }
        for (Pending p : group) {
          p.done().completeExceptionally(t);
        }
      } finally {
        group.clear();
      }
      maintain();
    }
  }

  /**
   * Adds queued appends to a group. When appends trickle in one at a time (a site's sensors each
   * send a few points every few seconds), waiting a moment for more lets one synced write serve
   * several of them: a group costs the same whether it holds one append or fifty.
   */
  private void gather(List<Pending> group, int points) {
    long lingerUntil = System.nanoTime() + (appendRate >= BUSY_RATE ? BUSY_LINGER_NS : LINGER_NS);
    while (group.size() < GROUP && points < GROUP_POINTS) {
      Object next = queue.peek();
      if (next instanceof Pending) {
        Pending p = (Pending) queue.poll();
        dequeued(p);
        points += p.points();
        group.add(p);
        continue;
      }
      if (next != null || group.size() >= LINGER_BELOW || closing) {
        return;
      }
      long left = lingerUntil - System.nanoTime();
      if (left <= 0) {
        return;
      }
      // Sleeps until enough appends are queued to close the group (the append that makes the
      // count wakes it) or the linger ends: one wake-up per group, not one per arrival, each of
      // which cost the appending thread a futex call and the writer a context switch.
      int wanted = LINGER_BELOW - group.size();
      wakeWriterAt = wanted;
      if (queue.size() < wanted) { // an append after this check sees wakeWriterAt and unparks
        LockSupport.parkNanos(this, left);
      }
      wakeWriterAt = Integer.MAX_VALUE;
      if (Thread.currentThread().isInterrupted()) {
        return;
      }
    }
  }

  private void countArrivals(int n) {
    rateWindowCount += n;
    long now = System.nanoTime();
    long elapsed = now - rateWindowStartNs;
    if (elapsed >= 1_000_000_000L) {
      appendRate = rateWindowCount * 1e9 / elapsed;
      rateWindowCount = 0;
      rateWindowStartNs = now;
    }
  }

  /** The points of one series gathered within a write group. */
  private static final class Gathered {
    final org.netweather.memoryhost.store.PointBuffer points =
        new org.netweather.memoryhost.store.PointBuffer(4);
    long max = Long.MIN_VALUE;
  }

  private void writeGroup(List<Pending> group) throws IOException {
    Map<String, SeriesState> drafts = new LinkedHashMap<>();
    Map<SeriesState, Gathered> fresh = new LinkedHashMap<>();
    long[] stored = new long[group.size()];
    long[] dups = new long[group.size()];
    boolean[] refused = new boolean[group.size()];
    long storedTotal = 0;
    long now = clock.millis();
    for (int g = 0; g < group.size(); g++) {
      List<SeriesPoints> batches = group.get(g).batches();
      SeriesState[] known = group.get(g).known();
      int created = 0;
      for (int b = 0; b < known.length; b++) {
        SeriesState k = known[b];
        if (k == null || k.deleted()) {
          // New when queued, or deleted since: look again (a group before this one may have
          // created it).
          k = db.get(batches.get(b).getSeries());
          known[b] = k;
          if (k == null && !drafts.containsKey(batches.get(b).getSeries())) {
            created++;
          }
        }
      }
      if (created > 0 && db.seriesCount() + drafts.size() + created > options.maxSeries()) {
        refused[g] = true;
        group.get(g).done().completeExceptionally(maxSeries(created));
        continue;
      }
      for (int b = 0; b < known.length; b++) {
        SeriesPoints sp = batches.get(b);
        SeriesState s = known[b];
        if (s == null) {
          s = drafts.computeIfAbsent(sp.getSeries(), n -> db.draft(n, now));
        }
        Gathered buf = fresh.computeIfAbsent(s, k -> new Gathered());
        for (int i = 0; i < sp.getPointsCount(); i++) {
          Measurement m = sp.getPoints(i);
          long t = m.getTimestampMs();
          if (isNew(s, buf, t)) {
            buf.points.add(t, m.getValue());
            buf.max = Math.max(buf.max, t);
            stored[g]++;
            storedTotal++;
          } else {
            dups[g]++;
          }
        }
      }
    }
    fresh.values().removeIf(b -> b.points.size() == 0);
    List<SeriesState> created = new ArrayList<>();
    for (SeriesState s : drafts.values()) {
      if (fresh.containsKey(s)) {
        created.add(s);
      }
    }
    Map<SeriesState, org.netweather.memoryhost.store.PointBuffer> points = new LinkedHashMap<>();
    // In the group's order: watchers need no order across series, and sorting hundreds of
    // names per group cost the writer a tenth of its time.
    List<Map.Entry<String, Points>> published = new ArrayList<>(fresh.size());
    for (Map.Entry<SeriesState, Gathered> e : fresh.entrySet()) {
      points.put(e.getKey(), e.getValue().points);
      published.add(Map.entry(e.getKey().name(), e.getValue().points.sortedCopy()));
    }
    if (!points.isEmpty()) {
      long start = System.nanoTime();
      // Under the hub's lock: a watcher subscribes wholly before or wholly after this group.
      synchronized (hub) {
        db.commit(created, points);
        metrics.walCommitted(System.nanoTime() - start);
        // Full heads are sealed (unsynced, cheap) before the reply, so a read after it sees
        // retention applied.
        for (SeriesState s : points.keySet()) {
          sealAndTrim(s, false);
        }
        // Counted once durable, before anyone is told: a scrape after the reply sees it.
        metrics.appended(storedTotal);
        for (int g = 0; g < group.size(); g++) {
          if (!refused[g]) {
            group.get(g).done().complete(new Result(stored[g], dups[g]));
          }
        }
        hub.publish(published);
      }
    } else {
      for (int g = 0; g < group.size(); g++) {
        if (!refused[g]) {
          group.get(g).done().complete(new Result(stored[g], dups[g]));
        }
      }
    }
  }

  /** Whether a point is new; cheap for the usual point newer than everything stored. */
  private boolean isNew(SeriesState s, Gathered buf, long t) throws IOException {
    if (t > s.lastTime() && t > buf.max) {
      return true;
    }
    return !buf.points.contains(t) && !db.contains(s, t);
  }

  private void sealAndTrim(SeriesState s, boolean force) {
    try {
      if (db.seal(s, force) || force) {
        long minTime = maxAgeMs > 0 ? clock.millis() - maxAgeMs : Long.MIN_VALUE;
        db.trim(s, maxPoints, minTime);
      }
    } catch (IOException e) {
      // Retried at the next append or maintenance visit; the head still holds the points.
      log.debug("sealing {} deferred: {}", s.name(), e.getMessage());
    }
  }

  /**
   * Seals old heads and applies age retention to a slice of the series, at most every 200 ms, so
   * that a pass over every series takes about a minute whatever the append rate.
   */
  private void maintain() {
    long now = clock.millis();
    if (now - lastMaintenanceMs < MAINTENANCE_PERIOD_MS) {
      return;
    }
    lastMaintenanceMs = now;
    checkpointIfDue(now);
    int slice = Math.max(64, db.seriesCount() / 300);
    // Under the hub's lock: a watcher's view sees a head either before or after it is sealed.
    synchronized (hub) {
      sealOld(now, slice);
    }
  }

  /** Starts a checkpoint on its own thread when one is due and none is running. */
  private void checkpointIfDue(long now) {
    if (checkpointRunning) {
      return;
    }
    if (lastCheckpointMs == 0) {
      lastCheckpointMs = now;
    }
    if (now - lastCheckpointMs < CHECKPOINT_PERIOD_MS && db.loggedBytes() < CHECKPOINT_LOG_BYTES) {
      return;
    }
    lastCheckpointMs = now;
    checkpointRunning = true;
    try {
      checkpointer.execute(
          () -> {
            try {
              db.checkpoint();
            } catch (IOException | RuntimeException e) {
              // Retried when next due; until one succeeds the point log keeps everything.
              log.warn("checkpoint deferred: {}", e.getMessage());
            } finally {
              checkpointRunning = false;
            }
          });
    } catch (RejectedExecutionException e) {
      checkpointRunning = false;
    }
  }

  private void sealOld(long now, int slice) {
    for (int i = 0; i < slice; i++) {
      if (maintenance == null || !maintenance.hasNext()) {
        maintenance = db.series().iterator();
        if (!maintenance.hasNext()) {
          return;
        }
      }
      SeriesState s = maintenance.next();
      boolean oldHead = s.count() > 0 && db.headAgeMs(s, now) > MAX_HEAD_AGE_MS;
      boolean expired = maxAgeMs > 0 && s.count() > 0 && s.firstTime() < now - maxAgeMs;
      if (oldHead || expired) {
        sealAndTrim(s, true);
      }
    }
  }

  /** Runs {@code body} on the writer thread, between groups. */
  private <T> T onWriter(Callable<T> body) throws IOException {
    CompletableFuture<T> done = new CompletableFuture<>();
    if (closing || !queue.offer(new Job<>(body, done))) {
      throw new RejectedExecutionException(
          closing ? "memory-host is shutting down" : "write queue is full");
    }
    try {
      return done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      if (c instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(c);
    }
  }

  /**
   * Deletes every series matching {@code pattern} (or only lists them, if {@code dryRun}), and
   * tells watchers. Returns the names, sorted.
   */
  public List<String> delete(SeriesPattern pattern, boolean dryRun) throws IOException {
    return onWriter(
        () -> {
          List<SeriesState> victims = new ArrayList<>();
          for (SeriesState s : db.series()) {
            if (pattern.matches(s.name())) {
              victims.add(s);
            }
          }
          victims.sort((a, b) -> a.name().compareTo(b.name()));
          List<String> names = new ArrayList<>();
          for (SeriesState s : victims) {
            names.add(s.name());
          }
          if (!dryRun && !victims.isEmpty()) {
            synchronized (hub) {
              db.delete(victims);
              hub.publishDeleted(names);
            }
          }
          return names;
        });
  }

  /** Retention of raw points: the bound on their number and age (0: none), stored. */
  public record Retention(long maxPoints, long maxAgeMs) {}

  /** Changes retention where the arguments are not null; returns the setting in force. */
  public Retention retention(Long newMaxPoints, Long newMaxAgeMs) throws IOException {
    if (newMaxPoints == null && newMaxAgeMs == null) {
      return new Retention(maxPoints, maxAgeMs);
    }
    return onWriter(
        () -> {
          if (newMaxPoints != null) {
            db.putSetting("retention.max-points", newMaxPoints);
            maxPoints = newMaxPoints;
          }
          if (newMaxAgeMs != null) {
            db.putSetting("retention.max-age-ms", newMaxAgeMs);
            maxAgeMs = newMaxAgeMs;
          }
          return new Retention(maxPoints, maxAgeMs);
        });
  }

  Optional<Points> range(String name, long fromMs, long toMs, int limit) throws IOException {
    SeriesState s = db.get(name);
    return s == null ? Optional.empty() : Optional.of(db.range(s, fromMs, toMs, limit));
  }

  Optional<Points> last(String name, int n) throws IOException {
    SeriesState s = db.get(name);
    return s == null ? Optional.empty() : Optional.of(db.last(s, n));
  }

  Optional<List<ConsolidatedPoint>> consolidated(String name, Resolution r, long fromMs, long toMs)
      throws IOException {
    SeriesState s = db.get(name);
    return s == null ? Optional.empty() : Optional.of(archives.fetch(s, r, fromMs, toMs));
  }

  /** Names of stored series matching {@code pattern} (null for all), sorted. */
  public List<String> names(SeriesPattern pattern) {
    List<String> out = new ArrayList<>();
    for (SeriesState s : db.series()) {
      if (pattern == null || pattern.matches(s.name())) {
        out.add(s.name());
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * Up to {@code n} series after {@code after} in name order (all if empty), matching {@code
   * pattern} (null for all).
   */
  List<SeriesState> page(SeriesPattern pattern, String after, int n) {
    List<SeriesState> out = new ArrayList<>();
    // Names are sorted: a pattern's matches all lie in the run that starts with its literal
    // prefix, so a listing of one resource or host does not walk all 470 000 series.
    String prefix = pattern == null ? "" : pattern.literalPrefix();
    Iterable<SeriesState> from =
        after.compareTo(prefix) >= 0 ? db.seriesAfter(after) : db.seriesFrom(prefix);
    for (SeriesState s : from) {
      if (out.size() == n || !s.name().startsWith(prefix)) {
        break;
      }
      if (pattern == null || pattern.matches(s.name())) {
        out.add(s);
      }
    }
    return out;
  }

  /** Series stored. */
  public int seriesCount() {
    return db.seriesCount();
  }

  /** Series found with stored data that cannot be read (answered DATA_LOSS) since opening. */
  public int damagedSeries() {
    return db.damagedSeries();
  }

  /** Reads that found stored data unreadable since the store was opened. */
  public long damagedReads() {
    return db.damagedReads();
  }

  /** Archives written since the store was opened. */
  long archiveWrites() {
    return db.archiveWrites();
  }

  /** Watch streams being served. */
  public int watchStreams() {
    return hub.watcherCount();
  }

  /** Raw points held for a series, or 0 if it is unknown. */
  public long count(String name) {
    SeriesState s = db.get(name);
    return s == null ? 0 : s.count();
  }

  /** A series' summary: count, first and last time, last value. */
  Optional<SeriesState> summary(String name) {
    return Optional.ofNullable(db.get(name));
  }

  /**
   * Subscribes a watcher; see {@link WatchHub}. Its backlog holds, per matching series, the points
   * after {@code sinceMs} (at most {@code perSeries} newest of them if positive).
   */
  WatchHub.Watcher watch(
      List<SeriesPattern> patterns,
      long sinceMs,
      boolean liveOnly,
      int perSeries,
      WatchHub.Sink sink) {
    return watch(patterns, null, sinceMs, liveOnly, perSeries, sink);
  }

  /** Like {@link #watch(List, long, boolean, int, WatchHub.Sink)}, for {@code shards} only. */
  WatchHub.Watcher watch(
      List<SeriesPattern> patterns,
      org.netweather.model.shard.ShardSet shards,
      long sinceMs,
      boolean liveOnly,
      int perSeries,
      WatchHub.Sink sink) {
    return hub.subscribe(
        patterns,
        shards,
        liveOnly ? null : () -> backlog(patterns, shards, sinceMs, perSeries),
        sink);
  }

  private WatchHub.Backlog backlog(
      List<SeriesPattern> patterns,
      org.netweather.model.shard.ShardSet shards,
      long sinceMs,
      int perSeries) {
    List<SeriesState> matching = new ArrayList<>();
    for (SeriesState s : db.series()) {
      if (shards != null && !shards.contains(WatchHub.shardOf(s.name()))) {
        continue;
      }
      for (SeriesPattern p : patterns) {
        if (p.matches(s.name())) {
          matching.add(s);
          break;
        }
      }
    }
    matching.sort((a, b) -> a.name().compareTo(b.name()));
    SeriesDb.View view = db.view(matching);
    int limit = perSeries > 0 ? perSeries : Integer.MAX_VALUE;
    return new WatchHub.Backlog() {
      private int next;
      private Points current;
      private int offset;

      @Override
      public org.netweather.api.v1.WatchResponse next() {
        org.netweather.api.v1.WatchResponse.Builder msg =
            org.netweather.api.v1.WatchResponse.newBuilder();
        int room = BACKLOG_POINTS_PER_MESSAGE;
        while (room > 0) {
          if (current == null || offset == current.size()) {
            if (next == matching.size()) {
              break;
            }
            current = view.after(matching.get(next++), sinceMs, limit);
            offset = 0;
            if (current.size() == 0) {
              continue;
            }
          }
          int to = Math.min(current.size(), offset + room);
          msg.addBatches(WatchHub.batch(matching.get(next - 1).name(), current, offset, to));
          room -= to - offset;
          offset = to;
        }
        return msg.getBatchesCount() == 0 ? null : msg.build();
      }

      @Override
      public void close() {
        view.close();
      }
    };
  }

  /** Finishes queued appends, then closes the database and releases the directory. */
  @Override
  public void close() throws IOException {
    closing = true;
    try {
      writer.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Object o : queue) {
      RejectedExecutionException closed = new RejectedExecutionException("memory-host closed");
      if (o instanceof Pending p) {
        p.done().completeExceptionally(closed);
      } else if (o instanceof Job<?> j) {
        j.done().completeExceptionally(closed);
      }
    }
    archives.close();
    background.shutdownNow();
    // A checkpoint under way finishes; the database's close writes the last one.
    checkpointer.shutdown();
    try {
      background.awaitTermination(10, TimeUnit.SECONDS);
      checkpointer.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (killed) {
      db.closeAsIfKilled();
    } else {
      db.close();
    }
    lock.close();
  }

  /**
   * Closes leaving the files as a SIGKILL after the last acknowledged append would: no checkpoint,
   * RocksDB's write-ahead log holding what its tables do not (tests of recovery and damage).
   */
  void closeAsIfKilled() throws IOException {
    killed = true;
    close();
  }
}
