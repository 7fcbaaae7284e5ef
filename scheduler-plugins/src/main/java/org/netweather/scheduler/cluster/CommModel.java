package org.netweather.scheduler.cluster;

/**
 * A point-to-point cost model reduced to the two terms the broadcast formulas use: the latency L
 * and the gap g(m) between consecutive sends of m bytes from one sender.
 *
 * <p>Times and sizes are in whatever consistent units the caller picks (the tests use µs and bytes,
 * the CLI seconds and bytes). Each model says how its own parameters map onto L and g: this is the
 * paper's "can be easily adapted to other models" (Table 3), made explicit.
 */
public interface CommModel {
  /** Short name for reports: Hockney, LogP, LogGP, pLogP. */
  String name();

  /** End-to-end latency L of one message. */
  double latency();

  /** The sender's gap for an m-byte message; the time it is busy before it can send again. */
  double gap(double bytes);

  /** Hockney: a message costs α + m/β; L = α and g(m) = m/β. */
  static CommModel hockney(double alpha, double beta) {
    return new Simple("Hockney", alpha, 0, 1 / beta);
  }

  /**
   * LogP (Culler et al.): fixed-size words of {@code wordBytes}; an m-byte message is ⌈m/w⌉ words,
   * each costing max(g, o) at the sender; L includes both overheads o.
   */
  static CommModel logP(double l, double o, double g, double wordBytes) {
    return new CommModel() {
      @Override
      public String name() {
        return "LogP";
      }

      @Override
      public double latency() {
        return l + 2 * o;
      }

      @Override
      public double gap(double bytes) {
        return Math.max(g, o) * Math.max(1, Math.ceil(bytes / wordBytes));
      }
    };
  }

  /** LogGP (Alexandrov et al.): g(m) = max(g, o) + (m − 1)·G, L includes both overheads. */
  static CommModel logGP(double l, double o, double g, double bigG) {
    return new Simple("LogGP", l + 2 * o, Math.max(g, o) - bigG, bigG);
  }

  /** pLogP with a linear gap g(m) = g0 + m/β (the measured table is {@link PLogPModel}). */
  static CommModel pLogP(double l, double g0, double beta) {
    return new Simple("pLogP", l, g0, 1 / beta);
  }

  /** L plus an affine gap g0 + m·perByte (with a floor of g0 at m = 0). */
  record Simple(String name, double latency, double g0, double perByte) implements CommModel {
    @Override
    public double gap(double bytes) {
      return g0 + bytes * perByte;
    }
  }
}
