package org.netweather.registry;

/** A compare-and-set found another version than the one expected: somebody wrote first. */
public final class StaleVersionException extends RegistryException {
  private static final long serialVersionUID = 1L;

  public StaleVersionException(String key, int expected) {
    super(
        "value "
            + key
            + " is not at version "
            + (expected == Versioned.ABSENT ? "absent" : String.valueOf(expected))
            + ": read it again and retry");
  }
}
