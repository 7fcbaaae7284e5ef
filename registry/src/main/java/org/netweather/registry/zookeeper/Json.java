package org.netweather.registry.zookeeper;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;
import org.netweather.registry.HostRecord;

/** Znode contents as JSON, so that {@code zkCli.sh get} shows what a site holds. */
final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  static final TypeReference<TreeMap<String, HostRecord>> HOSTS = new TypeReference<>() {};
  static final TypeReference<Map<String, String>> ATTRIBUTES = new TypeReference<>() {};

  private Json() {}

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static <T> T read(byte[] data, Class<T> type, String path) {
    try {
      return MAPPER.readValue(data, type);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "znode " + path + " does not hold a " + type.getSimpleName(), e);
    }
  }

  static <T> T read(byte[] data, TypeReference<T> type, String path) {
    try {
      return MAPPER.readValue(data, type);
    } catch (IOException e) {
      throw new UncheckedIOException("znode " + path + " does not hold " + type.getType(), e);
    }
  }
}
