package org.netweather.runtime.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A YAML configuration file read as a mapping of keys to values, each with the line and column it
 * was written at, so errors can point into the file. A value that is itself a mapping is a section
 * (as in the file {@code nws up} reads, one section per daemon).
 */
public final class YamlConfigFile {
  /**
   * The largest config file read. A site's config is a few kilobytes; the bound keeps a stray or
   * hostile file (a 30 MB string) from keeping a daemon or {@code nws config show} busy for
   * minutes.
   */
  public static final int MAX_FILE_BYTES = 1 << 20;

  /** The longest key or value in a config file, in characters. */
  public static final int MAX_STRING_CHARS = 64 * 1024;

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /**
   * One key of the file.
   *
   * @param value the value, null if it is a section
   * @param section the keys under it if it is a mapping, else null
   */
  public record Entry(
      String key, int line, int column, JsonNode value, Map<String, Entry> section) {
    public boolean isSection() {
      return section != null;
    }
  }

  private final Path path;
  private final Map<String, Entry> entries;

  private YamlConfigFile(Path path, Map<String, Entry> entries) {
    this.path = path;
    this.entries = entries;
  }

  /**
   * Reads {@code path}; an empty file has no entries.
   *
   * @throws ConfigException naming the file, and the line and column of a syntax error
   */
  public static YamlConfigFile read(Path path) {
    if (!Files.exists(path)) {
      throw new ConfigException("config file " + path + ": no such file");
    }
    if (Files.isDirectory(path) || !Files.isReadable(path)) {
      throw new ConfigException(
          "config file "
              + path
              + ": cannot be read"
              + (Files.isDirectory(path) ? " (it is a directory)" : ""));
    }
    long size;
    try {
      size = Files.size(path);
    } catch (IOException e) {
      throw new ConfigException(
          "config file " + path + ": cannot be read (" + e.getMessage() + ")");
    }
    if (size > MAX_FILE_BYTES) {
      throw new ConfigException(
          "config file "
              + path
              + ": "
              + size
              + " bytes, more than the "
              + MAX_FILE_BYTES
              + " bytes a config file may have");
    }
    try (JsonParser p = YAML.createParser(path.toFile())) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return new YamlConfigFile(path, Map.of());
      }
      if (first != JsonToken.START_OBJECT) {
        throw new ConfigException(
            at(path, p.currentTokenLocation()) + ": expected a mapping of key: value");
      }
      Map<String, Entry> top = mapping(path, p);
      if (p.nextToken() != null) {
        throw new ConfigException(
            at(path, p.currentTokenLocation()) + ": more than one YAML document");
      }
      return new YamlConfigFile(path, top);
    } catch (JsonProcessingException e) {
      String reason = e.getOriginalMessage().lines().findFirst().orElse("unreadable").strip();
      throw new ConfigException(at(path, e.getLocation()) + ": YAML syntax error: " + reason);
    } catch (IOException e) {
      throw new ConfigException(
          "config file " + path + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  /** Reads the keys of a mapping whose START_OBJECT is the current token. */
  private static Map<String, Entry> mapping(Path path, JsonParser p) throws IOException {
    Map<String, Entry> out = new LinkedHashMap<>();
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      JsonLocation where = p.currentTokenLocation();
      checkLength(path, where, key);
      JsonToken t = p.nextToken();
      if (t.isScalarValue()) {
        checkLength(path, p.currentTokenLocation(), p.getText());
      }
      Entry entry =
          t == JsonToken.START_OBJECT
              ? new Entry(key, where.getLineNr(), where.getColumnNr(), null, mapping(path, p))
              : new Entry(key, where.getLineNr(), where.getColumnNr(), p.readValueAsTree(), null);
      if (out.put(key, entry) != null) {
        throw new ConfigException(at(path, where) + ": key '" + key + "' appears twice");
      }
    }
    return Collections.unmodifiableMap(out);
  }

  // A config needs no long strings; a list of them is bounded by the file's size.
  private static void checkLength(Path path, JsonLocation where, String text) {
    if (text != null && text.length() > MAX_STRING_CHARS) {
      throw new ConfigException(
          at(path, where)
              + ": a key or value of "
              + text.length()
              + " characters, longer than the "
              + MAX_STRING_CHARS
              + " a config file may have");
    }
  }

  private static String at(Path path, JsonLocation where) {
    if (where == null || where.getLineNr() <= 0) {
      return "config file " + path;
    }
    return "config file "
        + path
        + ", line "
        + where.getLineNr()
        + ", column "
        + where.getColumnNr();
  }

  public Path path() {
    return path;
  }

  /** The top-level keys in file order. */
  public Map<String, Entry> entries() {
    return entries;
  }
}
