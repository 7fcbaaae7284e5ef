package org.netweather.registry;

/**
 * A value of the key/value area with the version it was read at; pass the version back to {@link
 * Registry#compareAndSet} to change it only if nobody else has.
 */
public record Versioned(byte[] data, int version) {
  /** The expected version of a key that must not exist yet. */
  public static final int ABSENT = -1;

  public Versioned {
    data = data.clone();
  }

  @Override
  public byte[] data() {
    return data.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Versioned v
        && v.version == version
        && java.util.Arrays.equals(v.data, data);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(data) + version;
  }

  @Override
  public String toString() {
    return "Versioned[" + data.length + " bytes, version " + version + "]";
  }
}
