package org.netweather.sensor.probe;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The site's probe key: with it a probe client seals its {@link ProbeHello} and a probe server
 * serves only hellos sealed with the same key, so that nobody without the key can make a sensor
 * echo, sink or source a single byte (an allow-list of addresses alone trusts whoever can send from
 * a member's address).
 *
 * <p>A sealed hello is the 16-byte hello with version 2, then the client's wall-clock time in ms, a
 * random 64-bit nonce and the first 16 bytes of HMAC-SHA256 over the 32 bytes before it:
 *
 * <pre>
 *  0               16              24              32                              48
 * | hello (v2)    | time ms (u64) | nonce (u64)   | HMAC-SHA256[0..16)             |
 * </pre>
 *
 * A server takes a sealed hello at most once (nonces are remembered for the accepted clock skew)
 * and only within {@link #SKEW} of its own clock, so a captured hello cannot be replayed. The
 * measured transfer after the hello stays raw TCP: bandwidth is not cipher throughput.
 */
public final class ProbeKey {
  /** Length of a sealed hello. */
  public static final int SEALED_LENGTH = 48;

  static final int VERSION = 2;

  /** How far a hello's clock may be from the server's. */
  static final long SKEW = 30_000;

  /** Nonces remembered at most; past it new hellos are refused until old ones age out. */
  static final int MAX_REMEMBERED = 65_536;

  private static final String HMAC = "HmacSHA256";

  private final SecretKeySpec key;
  private final LongSupplier clockMs;
  private final SecureRandom random = new SecureRandom();
  private final Map<Long, Long> seen = new LinkedHashMap<>(); // nonce -> time, oldest first

  public ProbeKey(byte[] secret, LongSupplier clockMs) {
    if (secret.length < 16) {
      throw new IllegalArgumentException("a probe key needs at least 16 bytes of secret");
    }
    try {
      // Hashing lets the secret be any length or text without weakening the MAC key.
      this.key = new SecretKeySpec(MessageDigest.getInstance("SHA-256").digest(secret), HMAC);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    this.clockMs = clockMs;
  }

  /**
   * The key in {@code file} (at least 16 bytes; surrounding white space ignored).
   *
   * @throws IllegalArgumentException naming the file when it is unreadable or too short
   */
  public static ProbeKey fromFile(Path file, LongSupplier clockMs) {
    byte[] secret;
    try {
      secret = Files.readString(file).strip().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException("probeKeyFile '" + file + "' cannot be read: " + e, e);
    }
    if (secret.length < 16) {
      throw new IllegalArgumentException(
          "probeKeyFile '" + file + "' holds " + secret.length + " bytes; a key needs 16 or more");
    }
    return new ProbeKey(secret, clockMs);
  }

  /** {@code hello}, sealed, in a new buffer. */
  public ByteBuf seal(ProbeHello hello, ByteBufAllocator alloc) {
    ByteBuf plain = hello.encode(alloc);
    ByteBuf out = alloc.buffer(SEALED_LENGTH);
    out.writeBytes(plain);
    plain.release();
    out.setByte(2, VERSION);
    long nonce;
    synchronized (random) {
      nonce = random.nextLong();
    }
    out.writeLong(clockMs.getAsLong()).writeLong(nonce);
    byte[] signed = new byte[32];
    out.getBytes(0, signed);
    out.writeBytes(mac(signed), 0, 16);
    return out;
  }

  /** {@code hello}, sealed, as bytes (for a blocking socket). */
  byte[] sealBytes(ProbeHello hello) {
    ByteBuf b = seal(hello, io.netty.buffer.UnpooledByteBufAllocator.DEFAULT);
    try {
      byte[] out = new byte[b.readableBytes()];
      b.readBytes(out);
      return out;
    } finally {
      b.release();
    }
  }

  /**
   * Reads and checks a sealed hello from the next {@link #SEALED_LENGTH} bytes of {@code in}.
   *
   * @throws IllegalArgumentException if it is not sealed with this key, is stale, or was seen
   */
  ProbeHello open(ByteBuf in) {
    byte[] sealed = new byte[SEALED_LENGTH];
    in.readBytes(sealed);
    byte[] signed = java.util.Arrays.copyOf(sealed, 32);
    byte[] expected = java.util.Arrays.copyOf(mac(signed), 16);
    byte[] given = java.util.Arrays.copyOfRange(sealed, 32, SEALED_LENGTH);
    if (!MessageDigest.isEqual(expected, given)) {
      throw new IllegalArgumentException("probe hello not sealed with this site's probe key");
    }
    ByteBuf b = io.netty.buffer.Unpooled.wrappedBuffer(sealed);
    long time = b.getLong(16);
    long nonce = b.getLong(24);
    long now = clockMs.getAsLong();
    if (Math.abs(now - time) > SKEW) {
      throw new IllegalArgumentException(
          "probe hello's clock is " + (time - now) + " ms from ours (more than " + SKEW + ")");
    }
    remember(nonce, now);
    return ProbeHello.decode(b, VERSION);
  }

  private synchronized void remember(long nonce, long now) {
    for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
      if (now - it.next() <= 2 * SKEW) {
        break; // oldest first: the rest are younger
      }
      it.remove();
    }
    if (seen.containsKey(nonce)) {
      throw new IllegalArgumentException("probe hello replayed");
    }
    if (seen.size() >= MAX_REMEMBERED) {
      throw new IllegalArgumentException("too many probe hellos in the last minute");
    }
    seen.put(nonce, now);
  }

  private byte[] mac(byte[] data) {
    try {
      Mac m = Mac.getInstance(HMAC);
      m.init(key);
      return m.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }
}
