package org.netweather.benchmarks;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * What RocksDB's read checksum verification costs the memory-host: CHUNKS values of 1 000 bytes (a
 * sealed chunk of 120 points that barely compress) in one uncompressed table with the store's 16
 * KiB blocks, read whole by a fresh database each round (so every block comes from the file and is
 * verified), ROUNDS rounds with {@code verify_checksums} on and as many with it off.
 *
 * <pre>
 *   benchmarks/run ChecksumCostBenchmark [CHUNKS] [ROUNDS]
 * </pre>
 *
 * <p>Last results (2-vCPU VM shared with other builds, load 13-18, RocksDB 10.2.1, 2026-11-26): 100
 * 000 chunks, 20 rounds: verified 0.75 us per chunk at best, 1.35 us median; not verified 0.68 us
 * and 1.28 us. About 0.07 us per kilobyte read from a table; the store keeps it on.
 */
public final class ChecksumCostBenchmark {
  private ChecksumCostBenchmark() {}

  public static void main(String[] args) throws Exception {
    int chunks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    RocksDB.loadLibrary();
    Path dir = Files.createTempDirectory("nws-checksum");
    Random rnd = new Random(1);
    try (Options o =
            new Options()
                .setCreateIfMissing(true)
                .setCompressionType(CompressionType.NO_COMPRESSION)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockSize(16 << 10));
        RocksDB db = RocksDB.open(o, dir.toString());
        WriteOptions w = new WriteOptions().setDisableWAL(true);
        FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      byte[] v = new byte[1000];
      for (int i = 0; i < chunks; i++) {
        rnd.nextBytes(v);
        db.put(w, ByteBuffer.allocate(16).putLong(i / 30).putLong(i % 30).array(), v);
      }
      db.flush(f);
      db.compactRange();
    }
    List<Double> on = new ArrayList<>();
    List<Double> off = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      for (boolean verify : new boolean[] {true, false}) {
        (verify ? on : off).add(readAll(dir, verify) / (double) chunks);
      }
    }
    report("verified", on);
    report("not verified", off);
  }

  /** Nanoseconds to read every value once with a fresh database. */
  private static long readAll(Path dir, boolean verify) throws Exception {
    try (Options o =
            new Options().setTableFormatConfig(new BlockBasedTableConfig().setBlockSize(16 << 10));
        RocksDB db = RocksDB.open(o, dir.toString());
        ReadOptions r = new ReadOptions().setVerifyChecksums(verify);
        RocksIterator it = db.newIterator(r)) {
      long start = System.nanoTime();
      long bytes = 0;
      for (it.seekToFirst(); it.isValid(); it.next()) {
        bytes += it.value().length;
      }
      it.status();
      if (bytes == 0) {
        throw new IllegalStateException("nothing read");
      }
      return System.nanoTime() - start;
    }
  }

  private static void report(String what, List<Double> nsPerChunk) {
    Collections.sort(nsPerChunk);
    System.out.printf(
        Locale.ROOT,
        "%-13s %.2f us per chunk at best, %.2f us median (%d rounds)%n",
        what,
        nsPerChunk.get(0) / 1000,
        nsPerChunk.get(nsPerChunk.size() / 2) / 1000,
        nsPerChunk.size());
  }
}
