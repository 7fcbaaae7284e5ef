package org.netweather.registry;

/** The shared state could not be read or written (the link stayed down past its bound, ...). */
public class RegistryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RegistryException(String message) {
    super(message);
  }

  public RegistryException(String message, Throwable cause) {
    super(message, cause);
  }
}
