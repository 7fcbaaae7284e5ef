package org.netweather.runtime.auth;

/**
 * Whether a caller may make one call: {@code null} if it may, else what it lacks, in words for the
 * refusal ("… needs an admin certificate").
 */
@FunctionalInterface
public interface Rule {
  /**
   * Checks one call.
   *
   * @param request the call's request message (the first one of a client stream)
   */
  String check(Caller caller, Object request);

  /** Any caller with a certificate (on a secured daemon, every caller). */
  Rule ANY = (caller, request) -> null;

  /** Callers whose certificate carries one of {@code roles} (admin always may). */
  static Rule roles(String what, Role... roles) {
    return (caller, request) -> {
      if (caller.role() == Role.ADMIN) {
        return null;
      }
      for (Role r : roles) {
        if (caller.role() == r) {
          return null;
        }
      }
      StringBuilder b = new StringBuilder();
      for (Role r : roles) {
        b.append(b.length() == 0 ? "" : " or ").append(r.label());
      }
      b.append(b.length() == 0 ? "an admin" : " or admin");
      return what + " needs " + b + " certificate";
    };
  }
}
