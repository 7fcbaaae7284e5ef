package org.netweather.scheduler.tree;

/** Whether a parent can send to several children at once. */
public enum SendModel {
  /** Concurrent sends sharing the parent's total send rate B_s (Kreaseck et al. §3.2.1). */
  MULTI_PORT,
  /** One send at a time, each at that child's link rate (Kreaseck et al. §3.2.2). */
  SINGLE_PORT
}
