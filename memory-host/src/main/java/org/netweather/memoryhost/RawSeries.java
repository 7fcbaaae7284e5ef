package org.netweather.memoryhost;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The recent raw points of one series: a timestamp-sorted window in memory, backed by an
 * append-only file. The newest {@code capacity} points are kept; older ones live on only in the
 * consolidated archive.
 *
 * <pre>
 *   file   = magic "NWSR":4  version:int32  nameLength:int16  name:UTF-8  record*
 *   record = timestampMs:int64  value:float64
 * </pre>
 *
 * <p>Writes go to the page cache; the store forces them at checkpoints, while its write-ahead
 * log makes every acknowledged point durable in between. Points are appended in arrival order,
 * so loading sorts them. Thread-safety: writes come from the store's writer thread; reads take
 * the instance's lock.
 */
final class RawSeries implements AutoCloseable {
  private static final int MAGIC = 0x4e575352; // "NWSR"
  private static final int VERSION = 1;
  private static final int RECORD = 16;

  private final String name;
  private final Path file;
  private final int capacity;
  private FileChannel channel;
  private long fileRecords;
  private boolean dirty;

  // Sorted window: points live in [start, start + size) of the arrays.
  private long[] times;
  private double[] values;
  private int start;
  private int size;

  private RawSeries(String name, Path file, int capacity) {
    this.name = name;
    this.file = file;
    this.capacity = capacity;
    this.times = new long[16];
    this.values = new double[16];
  }

  /** Creates a new, empty series file. */
  static RawSeries create(String name, Path file, int capacity) throws IOException {
    RawSeries s = new RawSeries(name, file, capacity);
    Files.createDirectories(file.getParent());
    s.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    s.writeHeader(s.channel);
    s.channel.force(true);
    return s;
  }

  /** Opens an existing series file; a torn record at its end is cut off. */
  static RawSeries open(Path file, int capacity) throws IOException {
    String name;
    long header;
    try (InputStream in = Files.newInputStream(file);
        DataInputStream din = new DataInputStream(in)) {
      if (din.readInt() != MAGIC || din.readInt() != VERSION) {
        throw new IOException(file + " is not a NetWeather series file");
      }
      byte[] n = new byte[din.readUnsignedShort()];
      din.readFully(n);
      name = new String(n, StandardCharsets.UTF_8);
      header = 10L + n.length;
    }
    RawSeries s = new RawSeries(name, file, capacity);
    s.channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
    long records = (s.channel.size() - header) / RECORD;
    if (s.channel.size() != header + records * RECORD) {
      s.channel.truncate(header + records * RECORD);
    }
    s.fileRecords = records;
    ByteBuffer buf = ByteBuffer.allocate(RECORD * 4096);
    s.channel.position(header);
    long[] ts = new long[(int) Math.min(records, Integer.MAX_VALUE - 8)];
    double[] vs = new double[ts.length];
    int n = 0;
    while (n < ts.length) {
      buf.clear();
      buf.limit((int) Math.min(buf.capacity(), (long) (ts.length - n) * RECORD));
      while (buf.hasRemaining() && s.channel.read(buf) > 0) {
        // keep reading
      }
      buf.flip();
      while (buf.remaining() >= RECORD) {
        ts[n] = buf.getLong();
        vs[n] = buf.getDouble();
        n++;
      }
    }
    s.channel.position(s.channel.size());
    s.loadSorted(ts, vs, n);
    return s;
  }

  private long writeHeader(FileChannel out) throws IOException {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(10 + n.length);
    b.putInt(MAGIC).putInt(VERSION).putShort((short) n.length).put(n).flip();
    while (b.hasRemaining()) {
      out.write(b);
    }
    return 10L + n.length;
  }

  private void loadSorted(long[] ts, double[] vs, int n) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // Stable sort: of two records with one timestamp, the first written wins.
    Arrays.sort(order, (a, b) -> Long.compare(ts[a], ts[b]));
    long[] t = new long[Math.max(16, n)];
    double[] v = new double[t.length];
    int m = 0;
    for (int i = 0; i < n; i++) {
      int k = order[i];
      if (m > 0 && t[m - 1] == ts[k]) {
        continue;
      }
      t[m] = ts[k];
      v[m] = vs[k];
      m++;
    }
    times = t;
    values = v;
    start = Math.max(0, m - capacity);
    size = m - start;
  }

  String name() {
    return name;
  }

  synchronized int size() {
    return size;
  }

  /** Whether a point with this timestamp is held (or is older than the window). */
  synchronized boolean contains(long timestampMs) {
    if (size == 0) {
      return false;
    }
    if (timestampMs < times[start]) {
      // Older than the window: treat as already stored rather than resurrect evicted history.
      return size >= capacity;
    }
    return Arrays.binarySearch(times, start, start + size, timestampMs) >= 0;
  }

  /** Adds points already known to be new; writes them to the page cache. */
  void add(long[] ts, double[] vs, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n * RECORD);
    for (int i = 0; i < n; i++) {
      b.putLong(ts[i]).putDouble(vs[i]);
    }
    b.flip();
    while (b.hasRemaining()) {
      channel.write(b);
    }
    fileRecords += n;
    dirty = true;
    synchronized (this) {
      for (int i = 0; i < n; i++) {
        insert(ts[i], vs[i]);
      }
    }
  }

  private void insert(long t, double v) {
    if (start + size == times.length) {
      makeRoom();
    }
    int end = start + size;
    if (size == 0 || t > times[end - 1]) {
      times[end] = t;
      values[end] = v;
    } else {
      int at = -(Arrays.binarySearch(times, start, end, t) + 1);
      System.arraycopy(times, at, times, at + 1, end - at);
      System.arraycopy(values, at, values, at + 1, end - at);
      times[at] = t;
      values[at] = v;
    }
    size++;
    if (size > capacity) {
      start++;
      size--;
    }
  }

  private void makeRoom() {
    if (start > 0 && size < times.length / 2) {
      System.arraycopy(times, start, times, 0, size);
      System.arraycopy(values, start, values, 0, size);
    } else {
      int cap = Math.max(16, Math.min(Math.max(capacity, 16) * 2, times.length * 2));
      long[] t = new long[Math.max(cap, size + 1)];
      double[] v = new double[t.length];
      System.arraycopy(times, start, t, 0, size);
      System.arraycopy(values, start, v, 0, size);
      times = t;
      values = v;
    }
    start = 0;
  }

  /** Points with from &lt;= t &lt;= to, at most {@code limit} of the oldest. */
  synchronized Points range(long from, long to, int limit) {
    int lo = lowerBound(from);
    int hi = lowerBound(to == Long.MAX_VALUE ? to : to + 1);
    return copy(lo, (int) Math.min(hi, (long) lo + limit));
  }

  /** The newest {@code n} points. */
  synchronized Points last(int n) {
    int end = start + size;
    return copy(Math.max(start, end - n), end);
  }

  /** Points with t &gt; since, at most {@code limit} of the oldest. */
  synchronized Points after(long since, int limit) {
    int lo = lowerBound(since == Long.MAX_VALUE ? since : since + 1);
    return copy(lo, (int) Math.min(start + size, (long) lo + limit));
  }

  private int lowerBound(long t) {
    int at = Arrays.binarySearch(times, start, start + size, t);
    if (at < 0) {
      return -(at + 1);
    }
    return at;
  }

  private Points copy(int from, int to) {
    int n = Math.max(0, to - from);
    return new Points(Arrays.copyOfRange(times, from, from + n),
        Arrays.copyOfRange(values, from, from + n));
  }

  synchronized long firstTime() {
    return size == 0 ? 0 : times[start];
  }

  synchronized long lastTime() {
    return size == 0 ? 0 : times[start + size - 1];
  }

  synchronized double lastValue() {
    return size == 0 ? Double.NaN : values[start + size - 1];
  }

  /** Forces written points to disk. */
  void sync() throws IOException {
    if (dirty) {
      channel.force(false);
      dirty = false;
    }
  }

  /** Rewrites the file with only the window, once it holds far more than that. */
  void compactIfLarge() throws IOException {
    if (fileRecords <= 2L * capacity + 1024) {
      return;
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Points keep;
    synchronized (this) {
      keep = copy(start, start + size);
    }
    try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      writeHeader(out);
      ByteBuffer b = ByteBuffer.allocate(keep.times().length * RECORD);
      for (int i = 0; i < keep.times().length; i++) {
        b.putLong(keep.times()[i]).putDouble(keep.values()[i]);
      }
      b.flip();
      while (b.hasRemaining()) {
        out.write(b);
      }
      out.force(true);
    }
    channel.close();
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    channel = FileChannel.open(file, StandardOpenOption.WRITE);
    channel.position(channel.size());
    fileRecords = keep.times().length;
    dirty = false;
  }

  @Override
  public void close() throws IOException {
    sync();
    channel.close();
  }

  /** Timestamps and values, index-aligned. */
  record Points(long[] times, double[] values) {
    int size() {
      return times.length;
    }
  }
}
