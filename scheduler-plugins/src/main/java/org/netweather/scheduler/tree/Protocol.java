package org.netweather.scheduler.tree;

/**
 * The autonomous scheduling protocols of Kreaseck et al. §4.1, plus the single-port rule the paper
 * derived but did not run. In all of them children ask for work when a buffer slot frees and the
 * parent decides whom to serve; they differ in whom.
 */
public enum Protocol {
  /** Multi-port, interruptible: lowest IR_s among requesting children not already receiving. */
  IA_MULTI("IA:Multi", SendModel.MULTI_PORT),
  /** Single-port: lowest IR_s among requesting children. */
  IA_SINGLE("IA:Single", SendModel.SINGLE_PORT),
  /**
   * Single-port by the derived optimum B_r·(1 − a), never sending when a ≥ 1 (Kreaseck et al.
   * §3.2.2; the paper ran its experiments before deriving it, footnote 5).
   */
  IA_DERIVED("IA:Derived", SendModel.SINGLE_PORT),
  /** Single-port bandwidth-centric: highest link rate. */
  BWC("BWC", SendModel.SINGLE_PORT),
  /** Single-port: highest child compute rate. */
  COMP_RATE("CompRate", SendModel.SINGLE_PORT),
  /** Single-port: oldest request first; the only "fair" one. */
  FCFS("FCFS", SendModel.SINGLE_PORT),
  /** No offloading: the root computes every task. The baseline everything is normalised to. */
  ROOT_COMPUTES("RootComputes", SendModel.SINGLE_PORT);

  private final String label;
  private final SendModel sendModel;

  Protocol(String label, SendModel sendModel) {
    this.label = label;
    this.sendModel = sendModel;
  }

  /** The paper's name for it. */
  public String label() {
    return label;
  }

  public SendModel sendModel() {
    return sendModel;
  }
}
