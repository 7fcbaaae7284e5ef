package org.netweather.runtime.recordlog;

/** When appended records are forced to disk. */
public enum SyncPolicy {
  /** Every append forces its records before it returns. */
  ALWAYS,
  /**
   * Appends only write; {@code sync()} forces everything written so far. For group commit: append
   * several changes, then sync once before answering any of them.
   */
  EXPLICIT,
  /** Nothing is ever forced, not even by {@code sync()}. For tests and scratch data only. */
  NEVER
}
