package org.netweather.nameserver;

import com.google.protobuf.MessageLite;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One page of a listing in key order, and how pages are cut: at most {@code size} items and about
 * {@link #MAX_BYTES} of encoded items (always at least one), so a page always fits in one gRPC
 * message whatever the items weigh. The token names the last key given, so a listing that changes
 * between pages neither repeats nor skips an entry that stayed.
 *
 * @param items the page's items
 * @param nextToken where the next page starts; empty when this page is the last
 */
record Page<T>(List<T> items, String nextToken) {
  static final int DEFAULT_SIZE = 1_000;
  static final int MAX_SIZE = 10_000;

  /** Well below gRPC's 4 MiB default message limit, leaving room for one large item more. */
  static final int MAX_BYTES = 1 << 20;

  /** The page size to use for a requested one: 0 (or less) means the default. */
  static int size(int requested) {
    return requested <= 0 ? DEFAULT_SIZE : Math.min(requested, MAX_SIZE);
  }

  /**
   * Cuts the page of {@code map} after {@code token}: the entries that pass {@code keep}, converted
   * by {@code toItem}.
   *
   * @throws IllegalArgumentException if the token is not one {@link #nextToken} made
   */
  static <V, T extends MessageLite> Page<T> of(
      NavigableMap<String, V> map,
      String token,
      int requestedSize,
      Predicate<V> keep,
      Function<V, T> toItem) {
    int size = size(requestedSize);
    Map<String, V> rest = token == null || token.isEmpty() ? map : map.tailMap(after(token), false);
    List<T> items = new ArrayList<>(Math.min(size, 64));
    long bytes = 0;
    String last = null;
    for (Map.Entry<String, V> e : rest.entrySet()) {
      if (!keep.test(e.getValue())) {
        continue;
      }
      if (items.size() >= size) {
        return new Page<>(items, encode(last));
      }
      T item = toItem.apply(e.getValue());
      int itemBytes = item.getSerializedSize();
      if (!items.isEmpty() && bytes + itemBytes > MAX_BYTES) {
        return new Page<>(items, encode(last));
      }
      items.add(item);
      bytes += itemBytes;
      last = e.getKey();
    }
    return new Page<>(items, "");
  }

  private static String encode(String lastKey) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastKey.getBytes(StandardCharsets.UTF_8));
  }

  private static String after(String token) {
    try {
      return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("page_token '" + token + "' is malformed");
    }
  }
}
