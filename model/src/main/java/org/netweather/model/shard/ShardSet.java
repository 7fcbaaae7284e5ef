package org.netweather.model.shard;

import java.util.Base64;
import java.util.BitSet;
import java.util.function.IntConsumer;

/**
 * A set of shards, e.g. those a forecaster owns or has warm. Its text form is the base64 of a
 * {@value Shards#COUNT}-bit little-endian bitmap (at most 684 characters, the same whatever the
 * count), short enough to ride in a registration attribute or a ZooKeeper member record.
 *
 * <p>Not thread-safe; publish copies.
 */
public final class ShardSet {
  private final BitSet bits;

  private ShardSet(BitSet bits) {
    this.bits = bits;
  }

  public static ShardSet none() {
    return new ShardSet(new BitSet(Shards.COUNT));
  }

  public static ShardSet all() {
    BitSet b = new BitSet(Shards.COUNT);
    b.set(0, Shards.COUNT);
    return new ShardSet(b);
  }

  /**
   * Parses the text form.
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static ShardSet parse(String text) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("shard set is not base64: " + e.getMessage(), e);
    }
    if (bytes.length > Shards.COUNT / 8) {
      throw new IllegalArgumentException(
          "shard set holds "
              + bytes.length
              + " bytes; at most "
              + Shards.COUNT / 8
              + " (one bit per shard)");
    }
    return new ShardSet(BitSet.valueOf(bytes));
  }

  public ShardSet add(int shard) {
    bits.set(Shards.check(shard));
    return this;
  }

  public ShardSet remove(int shard) {
    bits.clear(Shards.check(shard));
    return this;
  }

  public boolean contains(int shard) {
    return shard >= 0 && shard < Shards.COUNT && bits.get(shard);
  }

  public int size() {
    return bits.cardinality();
  }

  public boolean isEmpty() {
    return bits.isEmpty();
  }

  public void forEach(IntConsumer action) {
    bits.stream().forEach(action);
  }

  public ShardSet copy() {
    return new ShardSet((BitSet) bits.clone());
  }

  /** The text form: base64 of the bitmap, trailing zero bytes left out. */
  public String text() {
    return Base64.getEncoder().encodeToString(bits.toByteArray());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShardSet other && bits.equals(other.bits);
  }

  @Override
  public int hashCode() {
    return bits.hashCode();
  }

  @Override
  public String toString() {
    return "ShardSet(" + size() + " shards)";
  }
}
