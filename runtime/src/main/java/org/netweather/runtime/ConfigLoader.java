package org.netweather.runtime;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a daemon's YAML configuration file into its {@code *Properties} class. Unknown keys are
 * errors, so a misspelt option is reported instead of silently ignored.
 */
public final class ConfigLoader {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private ConfigLoader() {}

  /**
   * Loads {@code file} into a new {@code type}; a missing file argument gives the defaults.
   *
   * @throws IllegalArgumentException naming the file and the bad key or value
   */
  public static <T> T load(Path file, Class<T> type) {
    try {
      if (file == null) {
        return type.getDeclaredConstructor().newInstance();
      }
      if (!Files.isReadable(file)) {
        throw new IllegalArgumentException("config file " + file + " cannot be read");
      }
      T value = YAML.readValue(file.toFile(), type);
      return value != null ? value : type.getDeclaredConstructor().newInstance();
    } catch (UnrecognizedPropertyException e) {
      throw new IllegalArgumentException("config file " + file + ": unknown key '"
          + e.getPropertyName() + "' (known: " + e.getKnownPropertyIds() + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException("config file " + file + ": "
          + e.getMessage().lines().findFirst().orElse("unreadable"));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type + " needs a public no-argument constructor", e);
    }
  }
}
