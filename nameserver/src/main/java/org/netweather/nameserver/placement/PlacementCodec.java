package org.netweather.nameserver.placement;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bytes of one placement part (the memory-hosts of {@value PlacementPart#SHARDS} shards), as
 * stored in the registry value {@code placement/memory/{part}}. Compact, because every nameserver
 * reads all 16 and ZooKeeper values should stay small: each memory-host id once, then per shard a
 * count and one index per memory-host (about 600 bytes for a part at one memory-host per shard).
 *
 * <pre>
 *   byte    format (1)
 *   short   n ids, then n modified-UTF-8 ids
 *   256 x   byte k (memory-hosts of the shard, in order), then k shorts (index into the ids)
 * </pre>
 */
final class PlacementCodec {
  static final int FORMAT = 1;

  /** Far above any site; bounds what a damaged value can make a reader allocate. */
  static final int MAX_HOSTS_PER_SHARD = 8;

  private PlacementCodec() {}

  static byte[] encode(List<List<String>> shards) {
    if (shards.size() != PlacementPart.SHARDS) {
      throw new IllegalArgumentException(
          "a placement part holds " + PlacementPart.SHARDS + " shards, not " + shards.size());
    }
    Map<String, Integer> index = new LinkedHashMap<>();
    for (List<String> hosts : shards) {
      for (String h : hosts) {
        index.putIfAbsent(h, index.size());
      }
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 3 * PlacementPart.SHARDS);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(FORMAT);
      out.writeShort(index.size());
      for (String id : index.keySet()) {
        out.writeUTF(id);
      }
      for (List<String> hosts : shards) {
        if (hosts.size() > MAX_HOSTS_PER_SHARD) {
          throw new IllegalArgumentException(
              "a shard is placed on " + hosts.size() + " memory-hosts; at most 8");
        }
        out.writeByte(hosts.size());
        for (String h : hosts) {
          out.writeShort(index.get(h));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Reads what {@link #encode} wrote.
   *
   * @throws IllegalArgumentException naming {@code key} and what is wrong with the bytes
   */
  static List<List<String>> decode(String key, byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      int format = in.readUnsignedByte();
      if (format != FORMAT) {
        throw new IllegalArgumentException(
            key
                + " is in placement format "
                + format
                + ", not "
                + FORMAT
                + ": a newer NetWeather?");
      }
      int n = in.readUnsignedShort();
      List<String> ids = new ArrayList<>(n);
      Map<String, Integer> seen = new HashMap<>();
      for (int i = 0; i < n; i++) {
        String id = in.readUTF();
        if (seen.put(id, i) != null) {
          throw new IllegalArgumentException(key + " names memory-host '" + id + "' twice");
        }
        ids.add(id);
      }
      List<List<String>> shards = new ArrayList<>(PlacementPart.SHARDS);
      for (int s = 0; s < PlacementPart.SHARDS; s++) {
        int k = in.readUnsignedByte();
        if (k > MAX_HOSTS_PER_SHARD) {
          throw new IllegalArgumentException(
              key + " places a shard on " + k + " memory-hosts; at most " + MAX_HOSTS_PER_SHARD);
        }
        List<String> hosts = new ArrayList<>(k);
        for (int j = 0; j < k; j++) {
          int i = in.readUnsignedShort();
          if (i >= n) {
            throw new IllegalArgumentException(
                key + " refers to memory-host " + i + " of " + n + " it names");
          }
          hosts.add(ids.get(i));
        }
        shards.add(List.copyOf(hosts));
      }
      if (in.available() > 0) {
        throw new IllegalArgumentException(
            key + " has " + in.available() + " bytes after its last shard");
      }
      return List.copyOf(shards);
    } catch (EOFException e) {
      throw new IllegalArgumentException(key + " ends before its last shard", e);
    } catch (IOException e) {
      throw new IllegalArgumentException(key + " is not a placement: " + e.getMessage(), e);
    }
  }
}
