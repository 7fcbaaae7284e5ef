package org.netweather.memoryhost.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.netweather.runtime.DataLossException;
import org.netweather.runtime.recordlog.Watermark;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.Status;
import org.rocksdb.WALRecoveryMode;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raw points of every series in one RocksDB database: a bounded number of open files and no thread
 * or map per series, whatever the series count.
 *
 * <p>Column families:
 *
 * <pre>
 *   series   name:UTF-8            -&gt; id, created, sealed count, first, max, last value
 *   log      seq:8                 -&gt; {@link PointLog} record: one write group's new points
 *   head     id:8                  -&gt; heads stored by earlier versions, read once
 *   chunks   id:8 minTime:8        -&gt; {@link Chunk}  sealed runs, disjoint and ordered
 *   archives id:8                  -&gt; consolidated archive bytes, in blob files
 *   default  "next-id", "log-next" -&gt; the next series id (never reused), the next log record
 * </pre>
 *
 * <p>RocksDB's write-ahead log is the durability point: a group of appends is one atomic write
 * batch, synced once, holding one point-log record with the group's new points (about 11 bytes
 * each) and the records of the series it creates, so an acknowledged point is on disk and a failed
 * group stores nothing. The heads (each series' newest points, Gorilla-encoded) change only in
 * memory. A checkpoint, every 2 minutes or 128 MiB of log, copies every head into one file beside
 * the database ({@link HeadCheckpoint}) on a thread of its own, then drops the log records that
 * every head holds; each head in the file names the last record it holds, so opening replays only
 * what came after. A head fills to {@link #CHUNK_POINTS} points and is then sealed into a chunk. A
 * point older than a series' sealed chunks (a back-dated measurement) is merged into the chunk that
 * covers it, so chunks never overlap. On open the series records and the checkpointed heads are
 * read (less what was sealed since) and the log since replayed, skipping what a head or chunk
 * already holds and what belongs to deleted series or lies before sealed chunks.
 *
 * <p>Thread-safety: {@link #commit}, {@link #seal}, {@link #delete} and {@link #trim} are for one
 * writer thread; {@link #checkpoint} and reads may come from any thread.
 */
public final class SeriesDb implements AutoCloseable {
  /** Points per sealed chunk. */
  public static final int CHUNK_POINTS = 120;

  private static final Logger log = LoggerFactory.getLogger(SeriesDb.class);

  private static final byte[] NEXT_ID = "next-id".getBytes(StandardCharsets.UTF_8);
  private static final List<String> FAMILIES =
      List.of("default", "series", "head", "chunks", "archives", "log");
  private static final byte[] LOG_NEXT = "log-next".getBytes(StandardCharsets.UTF_8);
  // Beside RocksDB's files: the next point-log record after the last one acknowledged.
  static final String WATERMARK = "acknowledged";

  static {
    RocksDB.loadLibrary();
  }

  private final Path dir;
  // The write-ahead log files found before RocksDB opened, for naming them in errors.
  private final String logsAtOpen;
  private final DBOptions dbOptions;
  private final List<ColumnFamilyOptions> cfOptions = new ArrayList<>();
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final RocksDB db;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyHandle seriesCf;
  private final ColumnFamilyHandle headCf;
  private final ColumnFamilyHandle chunksCf;
  private final ColumnFamilyHandle archivesCf;
  private final LongAdder archiveWrites = new LongAdder();
  private final LongAdder damagedReads = new LongAdder();
  // Series found damaged, each with the first error: logged once per series.
  private final Map<String, String> damagedSeries = new ConcurrentHashMap<>();
  private final ColumnFamilyHandle logCf;
  // Writer thread only: the record being built and the next record's key.
  private final PointLog pointLog = new PointLog();
  private long nextSeq;
  // The last log record whose points every head holds, and the bytes logged since the last
  // checkpoint began (what a restart would replay).
  private volatile long appliedThrough = -1;
  private final AtomicLong loggedBytes = new AtomicLong();
  // One checkpoint at a time; heads stored in the head family by earlier versions are dropped by
  // the first checkpoint file.
  private final Object checkpointLock = new Object();
  private boolean legacyHeads;
  private final WriteOptions sync = new WriteOptions().setSync(true);
  private final WriteOptions noSync = new WriteOptions();
  // Archives are rebuilt from raw points after a crash: they need not be logged at all.
  private final WriteOptions unlogged = new WriteOptions().setDisableWAL(true);
  private final Map<String, SeriesState> byName = new ConcurrentHashMap<>();
  // Names in order, for paged listings.
  private final java.util.concurrent.ConcurrentSkipListMap<String, SeriesState> sorted =
      new java.util.concurrent.ConcurrentSkipListMap<>();
  private long nextId;
  private final java.util.concurrent.locks.ReentrantReadWriteLock guard =
      new java.util.concurrent.locks.ReentrantReadWriteLock();
  private boolean closed;

  private SeriesDb(Path dir) throws IOException {
    this.dir = dir;
    Files.createDirectories(dir);
    dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            // Bounded descriptors whatever the data size; SST files are large, so few are needed.
            .setMaxOpenFiles(256)
            .setMaxBackgroundJobs(2)
            .setKeepLogFileNum(3)
            // A small log total keeps recovery after SIGKILL short: memtables are flushed sooner.
            .setMaxTotalWalSize(64L << 20)
            // Recovery replays the log without writing tables, so a daemon starts on a nearly
            // full disk; no preallocation, so a log takes only the space it fills.
            .setAvoidFlushDuringRecovery(true)
            .setAllowFAllocate(false)
            // Point-in-time recovery (RocksDB's default, named because it matters) stops replaying
            // its log at the first bad record and opens without a word: right for the garbage a
            // power cut can leave after the last synced write, silent loss for damage before it.
            // The watermark tells them apart (refuseIfLogCutShort): a replay that ends before the
            // last acknowledged group refuses the open. Stricter modes would refuse to start
            // after every power cut that left such garbage.
            .setWalRecoveryMode(WALRecoveryMode.PointInTimeRecovery);
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (String name : FAMILIES) {
      ColumnFamilyOptions o = familyOptions(name);
      cfOptions.add(o);
      descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), o));
    }
    // Named as found: an open that replays nothing from a log deletes it.
    logsAtOpen = writeAheadLogs();
    try {
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException(
          "cannot open the measurement database in "
              + dir
              + ": "
              + e.getMessage()
              + namingLogs(e.getMessage()),
          e);
    }
    meta = handles.get(0);
    seriesCf = handles.get(1);
    headCf = handles.get(2);
    chunksCf = handles.get(3);
    archivesCf = handles.get(4);
    logCf = handles.get(5);
  }

  /**
   * The options of the column family {@code name}; the caller closes them. Public for the archive
   * benchmark, which measures this very configuration.
   */
  public static ColumnFamilyOptions familyOptions(String name) {
    ColumnFamilyOptions o =
        new ColumnFamilyOptions()
            .setWriteBufferSize(32L << 20)
            .setTargetFileSizeBase(64L << 20)
            // Chunks are Gorilla-encoded already; the rest compresses well (archives are mostly
            // NaN rows).
            .setCompressionType(
                name.equals("chunks") || name.equals("log")
                    ? CompressionType.NO_COMPRESSION
                    : CompressionType.LZ4_COMPRESSION)
            .setTableFormatConfig(new BlockBasedTableConfig().setBlockSize(16 << 10));
    if (name.equals("archives")) {
      // An archive (about 100 KB) is rewritten whole at each consolidation. Kept in blob files
      // beside the tables, it is not copied again by every compaction that passes its key.
      // Blob garbage collection stays off: every archive is rewritten once per consolidation
      // interval (ArchiveConsolidator), so within an interval every blob of a file is garbage
      // and the file goes once compaction drops the last key pointing into it. Collection
      // would move blobs that are about to be replaced anyway: with archives holding data it
      // cost 2.2-2.6 ms of compaction per archive written, ten times the write itself
      // (benchmarks/run ArchiveChurnBenchmark).
      o.setEnableBlobFiles(true)
          .setMinBlobSize(4096)
          .setBlobFileSize(64L << 20)
          .setBlobCompressionType(CompressionType.LZ4_COMPRESSION)
          .setEnableBlobGarbageCollection(false);
    }
    return o;
  }

  /**
   * RocksDB's errors about its write-ahead log name no file: names them, unless the message already
   * names a file of the database.
   */
  private String namingLogs(String message) {
    String m = String.valueOf(message);
    if (m.contains(".sst") || m.contains("MANIFEST") || m.contains(".blob") || m.contains(".log")) {
      return "";
    }
    return logsAtOpen.isEmpty() ? "" : " (its write-ahead log: " + logsAtOpen + ")";
  }

  /** The write-ahead log files in the directory, by name. */
  private String writeAheadLogs() {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".log"))
          .sorted()
          .collect(java.util.stream.Collectors.joining(", "));
    } catch (IOException e) {
      return "";
    }
  }

  /** Opens (or creates) the database in {@code dir} and loads every series' summary and head. */
  public static SeriesDb open(Path dir) throws IOException {
    SeriesDb db = new SeriesDb(dir);
    try {
      db.load();
    } catch (IOException | RuntimeException e) {
      db.close();
      throw e;
    }
    return db;
  }

  private void load() throws IOException {
    long start = System.nanoTime();
    try {
      byte[] next = db.get(meta, NEXT_ID);
      nextId = next == null ? 1 : Keys.get(next, 0);
    } catch (RocksDBException e) {
      throw io(e);
    }
    // The checkpoint file is read and decoded on a second thread while the series records are
    // read here: the steps overlap, and under load the open gets two threads' share of the CPU.
    int headCapacity = (int) Math.min(nextId + 16, 1 << 22);
    CompletableFuture<CheckpointedHeads> fromFile =
        CompletableFuture.supplyAsync(
            () -> CheckpointedHeads.read(dir, headCapacity),
            r -> {
              Thread t = new Thread(r, "memory-open-heads");
              t.setDaemon(true);
              t.start();
            });
    // Ids are dense (one counter, never reused): an array finds a series by id without boxing.
    SeriesState[] idIndex = new SeriesState[(int) Math.min(nextId + 1024, Integer.MAX_VALUE - 8)];
    try (RocksIterator it = db.newIterator(seriesCf)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        SeriesState s =
            SeriesState.fromRecord(new String(it.key(), StandardCharsets.UTF_8), it.value());
        byName.put(s.name, s);
        sorted.put(s.name, s);
        if (s.id >= idIndex.length) {
          idIndex = Arrays.copyOf(idIndex, (int) Math.min(2 * s.id + 1, Integer.MAX_VALUE - 8));
        }
        idIndex[(int) s.id] = s;
        nextId = Math.max(nextId, s.id + 1);
      }
      refuseIfUnreadable(it, "the series catalog");
    }
    long seriesDone = System.nanoTime();
    SeriesState[] byId = idIndex;
    try (RocksIterator it = db.newIterator(headCf)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        legacyHeads = true;
        takeHead(byId, Keys.id(it.key()), it.value());
      }
      refuseIfUnreadable(it, "the stored heads");
    }
    CheckpointedHeads checkpointed;
    try {
      checkpointed = fromFile.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof UncheckedIOException u) {
        throw u.getCause();
      }
      throw e;
    }
    checkpointed.attachTo(byId);
    for (SeriesState s : byName.values()) {
      if (s.head != null && s.head.minTime() <= s.sealedMax) {
        dropSealedFromHead(s);
      }
    }
    long headsDone = System.nanoTime();
    replay(idIndex);
    refuseIfLogCutShort();
    watermark = Watermark.open(dir.resolve(WATERMARK));
    watermark.record(nextSeq);
    long replayDone = System.nanoTime();
    loaded = true;
    for (SeriesState s : byName.values()) {
      synchronized (s) {
        // Every record in the log is now in the heads, in chunks or rightly skipped.
        s.headSeq = Math.max(s.headSeq, nextSeq - 1);
        s.summarize();
      }
    }
    openTimes =
        String.format(
            java.util.Locale.ROOT,
            "series %.1f s, heads %.1f s, %d points replayed in %.1f s, summaries %.1f s",
            (seriesDone - start) / 1e9,
            (headsDone - seriesDone) / 1e9,
            replayedPoints,
            (replayDone - headsDone) / 1e9,
            (System.nanoTime() - replayDone) / 1e9);
  }

  private static void takeHead(SeriesState[] byId, long id, byte[] stored) {
    SeriesState s = id >= 0 && id < byId.length ? byId[(int) id] : null;
    if (s != null) {
      offerHead(s, storedHeadSeq(stored), decodeHead(stored));
    }
  }

  /** Gives a series a stored head unless it holds a newer one (from the other place read). */
  private static void offerHead(SeriesState s, long seq, GorillaEncoder head) {
    if (s.head == null || seq > s.headSeq) {
      s.headSeq = seq;
      s.head = head;
    }
  }

  /**
   * The heads of the checkpoint file, decoded, in the file's order. Held as read, not indexed by
   * id, so what a damaged file can make the open hold is bounded by the file's own entries.
   */
  private static final class CheckpointedHeads {
    private long[] ids;
    private long[] seqs;
    private GorillaEncoder[] heads;
    private int size;

    private CheckpointedHeads(int capacity) {
      ids = new long[capacity];
      seqs = new long[capacity];
      heads = new GorillaEncoder[capacity];
    }

    static CheckpointedHeads read(Path dir, int capacity) {
      CheckpointedHeads h = new CheckpointedHeads(capacity);
      try {
        HeadCheckpoint.read(dir, h::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return h;
    }

    private void add(long id, byte[] stored) throws IOException {
      if (size == ids.length) {
        int n = Math.max(16, 2 * size);
        ids = Arrays.copyOf(ids, n);
        seqs = Arrays.copyOf(seqs, n);
        heads = Arrays.copyOf(heads, n);
      }
      ids[size] = id;
      seqs[size] = storedHeadSeq(stored);
      heads[size] = decodeHead(stored);
      size++;
    }

    /** Offers each live series its head from the file. */
    void attachTo(SeriesState[] byId) {
      for (int i = 0; i < size; i++) {
        SeriesState s = ids[i] >= 0 && ids[i] < byId.length ? byId[(int) ids[i]] : null;
        if (s != null) {
          offerHead(s, seqs[i], heads[i]);
        }
      }
    }
  }

  /**
   * A checkpointed head may predate a seal stored since: its points are in chunks now (a seal moves
   * a whole head, so they are all at or before the sealed chunks' newest time) and must not be
   * counted twice.
   */
  private static void dropSealedFromHead(SeriesState s) {
    GorillaEncoder kept = null;
    GorillaDecoder d = s.head.decoder();
    while (d.hasNext()) {
      d.next();
      if (d.time() > s.sealedMax) {
        if (kept == null) {
          kept = new GorillaEncoder();
        }
        kept.add(d.time(), d.value());
      }
    }
    s.head = kept;
  }

  /** How long the last open spent on each step, for the log. */
  public String openTimes() {
    return openTimes;
  }

  /**
   * Applies the point log written since the last checkpoint to the heads just loaded. A point the
   * stored head or a chunk already holds (the checkpoint ran on while appends went on, or the head
   * was sealed since) is skipped, as is any point at or before a series' sealed chunks (stored
   * there when it was appended, or dropped by retention since) and any point of a deleted series:
   * replay never revives what is gone and is safe to repeat.
   */
  private void replay(SeriesState[] byId) throws IOException {
    try {
      byte[] next = db.get(meta, LOG_NEXT);
      nextSeq = next == null ? 0 : Keys.get(next, 0);
    } catch (RocksDBException e) {
      throw io(e);
    }
    long[] replayed = {0};
    try (RocksIterator it = db.newIterator(logCf)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        long seq = Keys.id(it.key());
        nextSeq = Math.max(nextSeq, seq + 1);
        byte[] record = it.value();
        loggedBytes.addAndGet(record.length);
        PointLog.decode(
            record,
            (id, time, value) -> {
              SeriesState s = id >= 0 && id < byId.length ? byId[(int) id] : null;
              // A head stored after this record holds its points: nothing to look up.
              if (s == null || seq <= s.headSeq || time <= s.sealedMax) {
                return;
              }
              if (s.head == null) {
                s.head = new GorillaEncoder();
              } else if (time <= s.head.maxTime() && headHolds(s.head, time)) {
                return;
              }
              s.head.add(time, value);
              replayed[0]++;
            });
      }
      refuseIfUnreadable(it, "the point log (points acknowledged since the last checkpoint)");
    }
    this.replayedPoints = replayed[0];
    appliedThrough = nextSeq - 1;
  }

  /**
   * Fails the open when the point log ends before a record that was acknowledged: RocksDB replays a
   * write-ahead log that is damaged, cut short or lost up to the first bad record and reports
   * nothing.
   */
  private void refuseIfLogCutShort() throws IOException {
    java.util.OptionalLong witnessed = Watermark.read(dir.resolve(WATERMARK));
    if (witnessed.isPresent() && witnessed.getAsLong() > nextSeq) {
      throw new IOException(
          "the write-ahead log of the measurement database in "
              + dir
              + " ("
              + (logsAtOpen.isEmpty() ? "no log file" : logsAtOpen)
              + ") ends before point-log record "
              + (witnessed.getAsLong() - 1)
              + ", which was acknowledged (as the file "
              + WATERMARK
              + " witnesses): records "
              + nextSeq
              + ".."
              + (witnessed.getAsLong() - 1)
              + " and the points they hold are missing (the log is damaged, cut short or lost);"
              + " refusing"
              + " to start with acknowledged points missing (restore the directory from a backup,"
              + " or move it aside to start empty)");
    }
  }

  private static boolean headHolds(GorillaEncoder head, long time) {
    GorillaDecoder d = head.decoder();
    while (d.hasNext()) {
      d.next();
      if (d.time() == time) {
        return true;
      }
    }
    return false;
  }

  private long replayedPoints;
  // Writer thread only, once loaded.
  private Watermark watermark;
  private String openTimes = "";
  // Set once the heads and the log are wholly loaded: only then may a checkpoint drop the log.
  private volatile boolean loaded;

  /** Points the last open took from the point log (not yet in a checkpoint). */
  public long replayedPoints() {
    return replayedPoints;
  }

  /** The series named so, or null. */
  public SeriesState get(String name) {
    return byName.get(name);
  }

  public int seriesCount() {
    return byName.size();
  }

  /** Series with names after {@code name} (all if empty), in name order; a live view. */
  public Collection<SeriesState> seriesAfter(String name) {
    return name.isEmpty() ? sorted.values() : sorted.tailMap(name, false).values();
  }

  /** Series named {@code name} or after it, in name order. */
  public Collection<SeriesState> seriesFrom(String name) {
    return sorted.tailMap(name, true).values();
  }

  public Collection<SeriesState> series() {
    return byName.values();
  }

  public Path directory() {
    return dir;
  }

  /** A new series, not stored until a {@link #commit} that lists it succeeds. */
  public SeriesState draft(String name, long nowMs) {
    return new SeriesState(nextId++, name, nowMs);
  }

  /** Whether a point with this time is stored (cheap when it is newer than every stored one). */
  public boolean contains(SeriesState s, long time) throws IOException {
    enter();
    try {
      synchronized (s) {
        if (s.count == 0 || time > s.lastTime) {
          return false;
        }
        if (time > s.sealedMax) {
          GorillaDecoder d = s.head.decoder();
          while (d.hasNext()) {
            d.next();
            if (d.time() == time) {
              return true;
            }
          }
          return false;
        }
        byte[] chunk = chunkCovering(s.id, time, null);
        if (chunk == null || time > Chunk.maxTime(chunk)) {
          return false;
        }
        PointBuffer p = new PointBuffer(Chunk.count(chunk));
        Chunk.decodeInto(chunk, p);
        return Arrays.binarySearch(p.times, 0, p.size, time) >= 0;
      }
    } finally {
      exit();
    }
  }

  /**
   * Makes a group of appends durable in one synced batch, then applies it in memory. On failure
   * nothing is stored and nothing in memory changed.
   *
   * @param created drafts first stored by this group
   * @param fresh new points per series (no duplicates of stored points or of each other)
   */
  public void commit(List<SeriesState> created, Map<SeriesState, PointBuffer> fresh)
      throws IOException {
    enter();
    try {
      Map<SeriesState, Merge> merges = null;
      pointLog.clear();
      try (WriteBatch batch = new WriteBatch()) {
        for (SeriesState s : created) {
          put(batch, seriesCf, s.name.getBytes(StandardCharsets.UTF_8), s.record());
        }
        if (!created.isEmpty()) {
          put(batch, meta, NEXT_ID, Keys.of(nextId));
        }
        for (Map.Entry<SeriesState, PointBuffer> e : fresh.entrySet()) {
          SeriesState s = e.getKey();
          PointBuffer p = e.getValue();
          pointLog.add(s.id, p);
          for (int i = 0; i < p.size; i++) {
            if (p.times[i] <= s.sealedMax) {
              if (merges == null) {
                merges = new java.util.HashMap<>();
              }
              merges.computeIfAbsent(s, k -> new Merge()).points.add(p.times[i], p.values[i]);
            }
          }
        }
        if (merges != null) {
          for (Map.Entry<SeriesState, Merge> m : merges.entrySet()) {
            m.getValue().prepare(m.getKey(), batch);
          }
        }
        byte[] record = pointLog.toByteArray();
        put(batch, logCf, Keys.of(nextSeq), record);
        write(sync, batch);
        nextSeq++;
        watermark.record(nextSeq);
        loggedBytes.addAndGet(record.length);
      }
      long seq = nextSeq - 1;
      for (SeriesState s : created) {
        byName.put(s.name, s);
        sorted.put(s.name, s);
      }
      // Durable: now the heads take the points, in place (a reader's snapshot of a head reads
      // only the bits it had, and appending never rewrites them).
      for (Map.Entry<SeriesState, PointBuffer> e : fresh.entrySet()) {
        SeriesState s = e.getKey();
        PointBuffer p = e.getValue();
        Merge m = merges == null ? null : merges.get(s);
        synchronized (s) {
          for (int i = 0; i < p.size; i++) {
            if (p.times[i] > s.sealedMax) {
              if (s.head == null) {
                s.head = new GorillaEncoder();
              }
              s.head.add(p.times[i], p.values[i]);
              s.headSeq = seq;
            }
          }
          if (m != null) {
            m.apply(s);
          }
          s.summarize();
        }
      }
      appliedThrough = seq;
    } finally {
      exit();
    }
  }

  /** Back-dated points of one series merged into the sealed chunks that cover them. */
  private final class Merge {
    final PointBuffer points = new PointBuffer(4);
    long countAfter;
    long firstAfter;

    void prepare(SeriesState s, WriteBatch batch) throws IOException {
      points.sort();
      countAfter = s.sealedCount;
      firstAfter = s.sealedFirst;
      int i = 0;
      while (i < points.size) {
        byte[][] key = new byte[1][];
        byte[] chunk = chunkCovering(s.id, points.times[i], key);
        if (chunk == null) {
          // Older than every chunk: the first chunk takes it.
          chunk = firstChunk(s.id, key);
        }
        if (chunk == null) {
          // Every chunk was dropped by retention: the points make a chunk of their own.
          PointBuffer rest = new PointBuffer(points.size - i);
          for (; i < points.size; i++) {
            rest.add(points.times[i], points.values[i]);
          }
          put(
              batch,
              chunksCf,
              Keys.of(s.id, rest.times[0]),
              Chunk.encode(rest.times, rest.values, 0, rest.size));
          countAfter += rest.size;
          firstAfter = Math.min(firstAfter, rest.times[0]);
          break;
        }
        PointBuffer all = new PointBuffer(Chunk.count(chunk) + 4);
        Chunk.decodeInto(chunk, all);
        long upper = nextChunkStart(s.id, Keys.time(key[0]));
        int added = 0;
        while (i < points.size && points.times[i] < upper) {
          all.add(points.times[i], points.values[i]);
          i++;
          added++;
        }
        all.sort();
        del(batch, chunksCf, key[0]);
        put(
            batch,
            chunksCf,
            Keys.of(s.id, all.times[0]),
            Chunk.encode(all.times, all.values, 0, all.size));
        countAfter += added;
        firstAfter = Math.min(firstAfter, all.times[0]);
      }
      SeriesState next = copySummary(s);
      next.sealedCount = countAfter;
      next.sealedFirst = firstAfter;
      put(batch, seriesCf, s.name.getBytes(StandardCharsets.UTF_8), next.record());
    }

    void apply(SeriesState s) {
      s.sealedCount = countAfter;
      s.sealedFirst = firstAfter;
    }
  }

  private static SeriesState copySummary(SeriesState s) {
    SeriesState c = new SeriesState(s.id, s.name, s.createdMs);
    c.sealedCount = s.sealedCount;
    c.sealedFirst = s.sealedFirst;
    c.sealedMax = s.sealedMax;
    c.sealedLastValue = s.sealedLastValue;
    return c;
  }

  /** Seals the head of a series into a chunk if it is full (or {@code force} and not empty). */
  public boolean seal(SeriesState s, boolean force) throws IOException {
    enter();
    try {
      synchronized (s) {
        int n = s.headCount();
        if (s.deleted || n == 0 || (n < CHUNK_POINTS && !force)) {
          return false;
        }
        PointBuffer p = new PointBuffer(n);
        p.addAll(s.head.decoder());
        p.sort();
        SeriesState next = copySummary(s);
        next.sealedCount += p.size;
        next.sealedFirst = Math.min(next.sealedFirst, p.times[0]);
        next.sealedMax = p.times[p.size - 1];
        next.sealedLastValue = p.values[p.size - 1];
        try (WriteBatch batch = new WriteBatch()) {
          // A large group can leave more than a chunk's worth in the head: seal it in pieces.
          for (int from = 0; from < p.size; from += CHUNK_POINTS) {
            int to = Math.min(p.size, from + CHUNK_POINTS);
            put(
                batch,
                chunksCf,
                Keys.of(s.id, p.times[from]),
                Chunk.encode(p.times, p.values, from, to));
          }
          put(batch, seriesCf, s.name.getBytes(StandardCharsets.UTF_8), next.record());
          write(noSync, batch);
        }
        s.head = null;
        s.headSeenMs = 0;
        s.sealedCount = next.sealedCount;
        s.sealedFirst = next.sealedFirst;
        s.sealedMax = next.sealedMax;
        s.sealedLastValue = next.sealedLastValue;
        s.summarize();
        return true;
      }
    } finally {
      exit();
    }
  }

  /**
   * Drops a series' oldest chunks while it keeps more than {@code maxPoints} points without them,
   * or while they end before {@code minTime}, but never a chunk with points its archive does not
   * hold yet ({@link SeriesState#archivedThrough}): those wait for the consolidator. Whole chunks
   * go, so up to {@link #CHUNK_POINTS} more points than the bound may stay. Returns the points
   * dropped.
   */
  public long trim(SeriesState s, long maxPoints, long minTime) throws IOException {
    enter();
    try {
      synchronized (s) {
        if (s.deleted || s.sealedCount == 0) {
          return 0;
        }
        // Nothing to drop (the usual case while a series grows): skip reading its chunks.
        boolean overCount = s.sealedCount + s.headCount() >= maxPoints + CHUNK_POINTS;
        if (!overCount && s.sealedFirst >= minTime) {
          return 0;
        }
        long count = s.sealedCount;
        long first = s.sealedFirst;
        List<byte[]> drop = new ArrayList<>();
        try (RocksIterator it = db.newIterator(chunksCf)) {
          for (it.seek(Keys.of(s.id, 0)); it.isValid() && Keys.id(it.key()) == s.id; it.next()) {
            byte[] v = it.value();
            int c = Chunk.count(v);
            boolean tooMany = count + s.headCount() - c >= maxPoints;
            boolean tooOld = Chunk.maxTime(v) < minTime;
            boolean archived = Chunk.maxTime(v) <= s.archivedThroughMs;
            if ((!tooMany && !tooOld) || !archived) {
              first = Chunk.minTime(v);
              break;
            }
            drop.add(it.key());
            count -= c;
            first = Long.MAX_VALUE;
          }
          checkRead(it, s, "chunks");
        }
        if (drop.isEmpty()) {
          return 0;
        }
        SeriesState next = copySummary(s);
        next.sealedCount = count;
        next.sealedFirst = first;
        if (count == 0) {
          // Every chunk went: keep sealedMax so that newer points still go to the head.
          next.sealedLastValue = Double.NaN;
        }
        try (WriteBatch batch = new WriteBatch()) {
          for (byte[] k : drop) {
            del(batch, chunksCf, k);
          }
          put(batch, seriesCf, s.name.getBytes(StandardCharsets.UTF_8), next.record());
          write(noSync, batch);
        }
        long dropped = s.sealedCount - count;
        s.sealedCount = count;
        s.sealedFirst = first;
        s.sealedLastValue = next.sealedLastValue;
        s.summarize();
        return dropped;
      }
    } finally {
      exit();
    }
  }

  /** Deletes series and everything stored of them, durably, a thousand per batch. */
  public void delete(List<SeriesState> victims) throws IOException {
    enter();
    try {
      for (int from = 0; from < victims.size(); from += 1000) {
        List<SeriesState> part = victims.subList(from, Math.min(victims.size(), from + 1000));
        try (WriteBatch batch = new WriteBatch()) {
          for (SeriesState s : part) {
            del(batch, seriesCf, s.name.getBytes(StandardCharsets.UTF_8));
            del(batch, headCf, Keys.of(s.id));
            delRange(batch, chunksCf, Keys.of(s.id), Keys.of(s.id + 1));
            del(batch, archivesCf, Keys.of(s.id));
          }
          write(sync, batch);
        }
        for (SeriesState s : part) {
          synchronized (s) {
            s.deleted = true;
            s.head = null;
            byName.remove(s.name, s);
            sorted.remove(s.name, s);
          }
        }
      }
    } finally {
      exit();
    }
  }

  /** Point-log bytes that a restart would replay (written since the last checkpoint began). */
  public long loggedBytes() {
    return loggedBytes.get();
  }

  /**
   * Writes every head to a new checkpoint file and then drops the log records it covers. Runs on
   * any thread while the writer goes on: each head is copied under its own lock, with the last log
   * record it holds, so appends wait at most for one copy. Takes a few seconds for hundreds of
   * thousands of series.
   */
  public void checkpoint() throws IOException {
    checkpoint(Integer.MAX_VALUE, () -> {});
  }

  /** As {@link #checkpoint()}, running {@code atPause} after {@code pauseAfter} series (tests). */
  void checkpoint(int pauseAfter, Runnable atPause) throws IOException {
    synchronized (checkpointLock) {
      enter();
      try {
        // Every record up to appliedThrough is in the heads already; later ones stay in the log.
        long through = appliedThrough + 1;
        long logged = loggedBytes.get();
        try (HeadCheckpoint.Writer file = new HeadCheckpoint.Writer(dir)) {
          int visited = 0;
          for (SeriesState s : byName.values()) {
            if (visited++ == pauseAfter) {
              atPause.run();
            }
            byte[] head;
            synchronized (s) {
              if (s.deleted || s.head == null || s.head.count() == 0) {
                continue;
              }
              head = encodeHead(s.head, s.headSeq);
            }
            file.add(s.id, head);
          }
          try {
            // Seals are written unsynced: the chunks that now hold points the file's heads left
            // behind must be durable before the log that also holds those points goes.
            db.flushWal(true);
          } catch (RocksDBException e) {
            throw io(e);
          }
          file.commit();
        }
        try (WriteBatch batch = new WriteBatch()) {
          delRange(batch, logCf, Keys.of(0), Keys.of(through));
          // The log may be empty now: record numbers go on from here after a restart.
          put(batch, meta, LOG_NEXT, Keys.of(through));
          if (legacyHeads) {
            delRange(batch, headCf, Keys.of(0), Keys.of(Long.MAX_VALUE));
          }
          write(noSync, batch);
        }
        legacyHeads = false;
        loggedBytes.addAndGet(-logged);
      } finally {
        exit();
      }
    }
  }

  /**
   * Milliseconds since the first call that saw the series' current head (0 from that call), or 0 if
   * the head is empty. Called on every series about once a minute, the age is that close.
   */
  public long headAgeMs(SeriesState s, long nowMs) {
    synchronized (s) {
      if (s.head == null) {
        return 0;
      }
      if (s.headSeenMs == 0) {
        s.headSeenMs = nowMs;
      }
      return nowMs - s.headSeenMs;
    }
  }

  /** A stored setting, or {@code fallback} if none was stored. */
  public long setting(String key, long fallback) throws IOException {
    enter();
    try {
      try {
        byte[] v = db.get(meta, ("setting." + key).getBytes(StandardCharsets.UTF_8));
        return v == null ? fallback : Keys.get(v, 0);
      } catch (RocksDBException e) {
        throw io(e);
      }
    } finally {
      exit();
    }
  }

  /** Stores a setting durably. */
  public void putSetting(String key, long value) throws IOException {
    enter();
    try {
      try (WriteBatch batch = new WriteBatch()) {
        put(batch, meta, ("setting." + key).getBytes(StandardCharsets.UTF_8), Keys.of(value));
        write(sync, batch);
      }
    } finally {
      exit();
    }
  }

  /** Points with from &lt;= t &lt;= to, the oldest {@code limit} of them. */
  public Points range(SeriesState s, long from, long to, int limit) throws IOException {
    enter();
    try {
      PointBuffer out = new PointBuffer(16);
      synchronized (s) {
        if (from <= s.sealedMax) {
          try (RocksIterator it = db.newIterator(chunksCf)) {
            it.seekForPrev(Keys.of(s.id, from));
            if (!it.isValid() || Keys.id(it.key()) != s.id) {
              it.seek(Keys.of(s.id, 0));
            }
            for (; it.isValid() && Keys.id(it.key()) == s.id && out.size < limit; it.next()) {
              if (Keys.time(it.key()) > to) {
                break;
              }
              if (Chunk.maxTime(it.value()) >= from) {
                Chunk.decodeInto(it.value(), out);
              }
            }
            checkRead(it, s, "chunks");
          }
        }
        if (s.head != null && to > s.sealedMax) {
          PointBuffer h = new PointBuffer(s.head.count());
          h.addAll(s.head.decoder());
          h.sort();
          for (int i = 0; i < h.size; i++) {
            out.add(h.times[i], h.values[i]);
          }
        }
      }
      return out.range(from, to).first(limit);
    } finally {
      exit();
    }
  }

  /** The newest {@code n} points. */
  public Points last(SeriesState s, int n) throws IOException {
    enter();
    try {
      synchronized (s) {
        PointBuffer head = new PointBuffer(Math.max(4, s.headCount()));
        if (s.head != null) {
          head.addAll(s.head.decoder());
          head.sort();
        }
        if (head.size >= n || s.sealedCount == 0) {
          return head.toPoints().last(n);
        }
        List<byte[]> chunks = new ArrayList<>();
        long have = head.size;
        try (RocksIterator it = db.newIterator(chunksCf)) {
          for (it.seekForPrev(Keys.of(s.id, Long.MAX_VALUE));
              it.isValid() && Keys.id(it.key()) == s.id && have < n;
              it.prev()) {
            byte[] v = it.value();
            chunks.add(v);
            have += Chunk.count(v);
          }
          checkRead(it, s, "chunks");
        }
        PointBuffer out = new PointBuffer((int) Math.min(have, Integer.MAX_VALUE - 8));
        for (int i = chunks.size() - 1; i >= 0; i--) {
          Chunk.decodeInto(chunks.get(i), out);
        }
        for (int i = 0; i < head.size; i++) {
          out.add(head.times[i], head.values[i]);
        }
        return out.toPoints().last(n);
      }
    } finally {
      exit();
    }
  }

  /**
   * A consistent view of these series for reading them at one instant (watch backlogs). Take it
   * while nothing is appended, sealed or trimmed (the writer's lock): it holds the heads as they
   * are and the chunks as stored.
   */
  public View view(Collection<SeriesState> series) {
    return new View(series);
  }

  /** A head's points as they were: appending never rewrites bits already written. */
  private record HeadSnapshot(byte[] bits, long bitLength, int count) {}

  /** Reads series as they were when the view was taken. Close it promptly. */
  public final class View implements AutoCloseable {
    private final Snapshot snapshot = db.getSnapshot();
    private final ReadOptions read = new ReadOptions().setSnapshot(snapshot);
    private final java.util.IdentityHashMap<SeriesState, HeadSnapshot> heads =
        new java.util.IdentityHashMap<>();

    private View(Collection<SeriesState> series) {
      for (SeriesState s : series) {
        synchronized (s) {
          if (s.head != null && s.head.count() > 0) {
            heads.put(s, new HeadSnapshot(s.head.bytes(), s.head.bitLength(), s.head.count()));
          }
        }
      }
    }

    /**
     * Points of a series with t &gt; since, the newest {@code maxPoints} of them, in order; empty
     * if the series did not exist then.
     */
    public Points after(SeriesState s, long since, int maxPoints) {
      guard.readLock().lock();
      try {
        return closed ? Points.EMPTY : afterOpen(s, since, maxPoints);
      } finally {
        guard.readLock().unlock();
      }
    }

    private Points afterOpen(SeriesState s, long since, int maxPoints) {
      PointBuffer out = new PointBuffer(16);
      try (RocksIterator it = db.newIterator(chunksCf, read)) {
        it.seekForPrev(Keys.of(s.id, Math.max(0, since)));
        if (!it.isValid() || Keys.id(it.key()) != s.id) {
          it.seek(Keys.of(s.id, 0));
        }
        for (; it.isValid() && Keys.id(it.key()) == s.id; it.next()) {
          if (Chunk.maxTime(it.value()) > since) {
            Chunk.decodeInto(it.value(), out);
          }
        }
        checkRead(it, s, "chunks");
      } catch (IOException e) {
        // A backlog has no status of its own to fail with: it leaves the stored points out, and
        // the damage is logged and counted; a Fetch of the series answers DATA_LOSS.
        if (!(e instanceof DataLossException)) {
          log.warn("watch backlog of {}: cannot read its chunks", s.name, e);
        }
        out = new PointBuffer(16);
      }
      HeadSnapshot head = heads.get(s);
      if (head != null) {
        out.addAll(new GorillaDecoder(head.bits(), 0, head.bitLength(), head.count()));
      }
      out.sort();
      return out.range(since + 1, Long.MAX_VALUE).last(maxPoints);
    }

    @Override
    public void close() {
      guard.readLock().lock();
      try {
        if (!closed) {
          read.close();
          db.releaseSnapshot(snapshot);
          snapshot.close();
        }
      } finally {
        guard.readLock().unlock();
      }
    }
  }

  /** How many archives were written since the database was opened. */
  public long archiveWrites() {
    return archiveWrites.sum();
  }

  /** The stored archive bytes of a series, or null. */
  public byte[] archive(SeriesState s) throws IOException {
    enter();
    try {
      try {
        return db.get(archivesCf, Keys.of(s.id));
      } catch (RocksDBException e) {
        throw readFailed(e, s, "archive");
      }
    } finally {
      exit();
    }
  }

  /** Replaces a series' archive bytes, unless the series was deleted meanwhile. */
  public void putArchive(SeriesState s, byte[] bytes) throws IOException {
    enter();
    try {
      synchronized (s) {
        if (s.deleted) {
          return;
        }
        try (WriteBatch batch = new WriteBatch()) {
          put(batch, archivesCf, Keys.of(s.id), bytes);
          write(unlogged, batch);
        }
        archiveWrites.increment();
      }
    } finally {
      exit();
    }
  }

  // A stored head: HEAD_MARK, the last log record it holds (every group up to that one), the value
  // at its newest time (so that opening need not decode 470 000 heads to find it), then the
  // encoder's state. The state begins with a non-negative count, so a mark tells the forms apart;
  // heads stored with OLD_HEAD_MARK (no value) or none (no record number) are still read.
  private static final byte HEAD_MARK = (byte) 0xFE;
  private static final byte OLD_HEAD_MARK = (byte) 0xFF;
  private static final int HEAD_PREFIX = 17;

  static byte[] encodeHead(GorillaEncoder head, long throughSeq) {
    byte[] v = head.state(HEAD_PREFIX);
    v[0] = HEAD_MARK;
    Keys.put(v, 1, throughSeq);
    Keys.put(v, 9, Double.doubleToRawLongBits(head.valueAtMax()));
    return v;
  }

  private static long storedHeadSeq(byte[] stored) {
    return stored.length > 9 && (stored[0] == HEAD_MARK || stored[0] == OLD_HEAD_MARK)
        ? Keys.get(stored, 1)
        : -1;
  }

  static GorillaEncoder decodeHead(byte[] stored) {
    if (stored.length > HEAD_PREFIX && stored[0] == HEAD_MARK) {
      return GorillaEncoder.resume(
          stored, HEAD_PREFIX, false, Double.longBitsToDouble(Keys.get(stored, 9)));
    }
    return GorillaEncoder.resume(
        stored, stored.length > 9 && stored[0] == OLD_HEAD_MARK ? 9 : 0, true, Double.NaN);
  }

  private byte[] chunkCovering(long id, long time, byte[][] keyOut) throws IOException {
    try (RocksIterator it = db.newIterator(chunksCf)) {
      it.seekForPrev(Keys.of(id, time));
      checkRead(it, id, "chunks");
      if (!it.isValid() || Keys.id(it.key()) != id) {
        return null;
      }
      if (keyOut != null) {
        keyOut[0] = it.key();
      }
      return it.value();
    }
  }

  private byte[] firstChunk(long id, byte[][] keyOut) throws IOException {
    try (RocksIterator it = db.newIterator(chunksCf)) {
      it.seek(Keys.of(id, 0));
      checkRead(it, id, "chunks");
      if (!it.isValid() || Keys.id(it.key()) != id) {
        return null;
      }
      keyOut[0] = it.key();
      return it.value();
    }
  }

  private long nextChunkStart(long id, long minTime) throws IOException {
    try (RocksIterator it = db.newIterator(chunksCf)) {
      it.seek(Keys.of(id, minTime + 1));
      checkRead(it, id, "chunks");
      return it.isValid() && Keys.id(it.key()) == id ? Keys.time(it.key()) : Long.MAX_VALUE;
    }
  }

  /** The live series with this id, or null (for naming a series in an error: rare, so a scan). */
  private SeriesState byId(long id) {
    for (SeriesState s : byName.values()) {
      if (s.id == id) {
        return s;
      }
    }
    return null;
  }

  /**
   * Fails the open, naming the file, when an iterator over {@code what} stopped on an error rather
   * than at the end: a damaged block reads as the end of the data otherwise, and the store would
   * start with part of its series, heads or log silently missing.
   */
  private void refuseIfUnreadable(RocksIterator it, String what) throws IOException {
    try {
      it.status();
    } catch (RocksDBException e) {
      throw new IOException(
          "cannot read "
              + what
              + " of the measurement database in "
              + dir
              + ": "
              + e.getMessage()
              + "; refusing to start with part of it missing (restore the directory from a"
              + " backup, or move it aside to start empty)",
          e);
    }
  }

  /**
   * Throws {@link DataLossException} when an iterator over a series' stored data stopped on an
   * error (checksum mismatch, unreadable block) rather than at the end of the data.
   */
  private void checkRead(RocksIterator it, SeriesState s, String what) throws IOException {
    try {
      it.status();
    } catch (RocksDBException e) {
      throw readFailed(e, s, what);
    }
  }

  /** As {@link #checkRead(RocksIterator, SeriesState, String)}, the series known by id. */
  private void checkRead(RocksIterator it, long id, String what) throws IOException {
    try {
      it.status();
    } catch (RocksDBException e) {
      throw readFailed(e, byId(id), what);
    }
  }

  /**
   * The error a failed read of a series' stored {@code what} ends with: DATA_LOSS naming the series
   * and RocksDB's message (which names the file), logged at ERROR the first time for that series
   * and counted; a full disk or another failure as before.
   */
  private IOException readFailed(RocksDBException e, SeriesState s, String what) {
    Status st = e.getStatus();
    boolean damage =
        st == null || st.getCode() == Status.Code.Corruption || st.getCode() == Status.Code.IOError;
    if (!damage) {
      return io(e);
    }
    String name = s == null ? "(unknown series)" : s.name;
    String message =
        "series " + name + ": its stored " + what + " cannot be read: " + e.getMessage();
    damagedReads.increment();
    if (damagedSeries.putIfAbsent(name, message) == null) {
      log.error("{} (in {}); it answers DATA_LOSS until restored from a backup", message, dir);
    }
    return new DataLossException(message, e);
  }

  /** Reads that found stored data unreadable since the database was opened. */
  public long damagedReads() {
    return damagedReads.sum();
  }

  /** Series found with stored data that cannot be read since the database was opened. */
  public int damagedSeries() {
    return damagedSeries.size();
  }

  /** Holds off {@link #close()} while an operation runs: RocksDB crashes on a closed handle. */
  private void enter() throws IOException {
    guard.readLock().lock();
    if (closed) {
      guard.readLock().unlock();
      throw new IOException("the measurement database in " + dir + " is closed");
    }
  }

  private void exit() {
    guard.readLock().unlock();
  }

  private void put(WriteBatch b, ColumnFamilyHandle cf, byte[] k, byte[] v) throws IOException {
    try {
      b.put(cf, k, v);
    } catch (RocksDBException e) {
      throw io(e);
    }
  }

  private void del(WriteBatch b, ColumnFamilyHandle cf, byte[] k) throws IOException {
    try {
      b.delete(cf, k);
    } catch (RocksDBException e) {
      throw io(e);
    }
  }

  private void delRange(WriteBatch b, ColumnFamilyHandle cf, byte[] from, byte[] to)
      throws IOException {
    if (Arrays.compareUnsigned(from, to) >= 0) {
      // Nothing to delete, and RocksDB must not log it: it counts an empty range deletion when
      // writing but not when replaying its log, and then refuses to open ("sequence number is
      // being set backwards").
      return;
    }
    try {
      b.deleteRange(cf, from, to);
    } catch (RocksDBException e) {
      throw io(e);
    }
  }

  private void write(WriteOptions options, WriteBatch batch) throws IOException {
    try {
      // After a failed write (a full disk) RocksDB refuses writes until its own recovery,
      // which polls for free space, clears the error; until then this fails fast.
      db.write(options, batch);
    } catch (RocksDBException e) {
      throw io(e);
    }
  }

  private IOException io(RocksDBException e) {
    Status st = e.getStatus();
    boolean full =
        (st != null && st.getSubCode() == Status.SubCode.NoSpace)
            || String.valueOf(e.getMessage()).contains("No space left");
    if (full) {
      return new StoreFullException(dir);
    }
    if (st != null && st.getCode() == Status.Code.Corruption) {
      return new DataLossException(
          "the measurement database in " + dir + " is damaged: " + e.getMessage(), e);
    }
    return new IOException(e.getMessage(), e);
  }

  /**
   * Closes as a SIGKILL after the last synced write would leave the files: no checkpoint, nothing
   * flushed; only for tests and benchmarks of recovery.
   */
  public void closeAsIfKilled() {
    loaded = false;
    close();
  }

  @Override
  public void close() {
    if (loaded && !closed) {
      try {
        checkpoint();
      } catch (IOException | RuntimeException e) {
        // The point log still holds what the heads hold: the next open replays it.
      }
    }
    guard.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
    } finally {
      guard.writeLock().unlock();
    }
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    if (db != null) {
      db.close();
    }
    sync.close();
    noSync.close();
    unlogged.close();
    closeOptions();
    if (watermark != null) {
      try {
        watermark.close();
      } catch (IOException e) {
        log.debug("closing {}: {}", WATERMARK, e.getMessage());
      }
    }
  }

  private void closeOptions() {
    dbOptions.close();
    for (ColumnFamilyOptions o : cfOptions) {
      o.close();
    }
  }
}
