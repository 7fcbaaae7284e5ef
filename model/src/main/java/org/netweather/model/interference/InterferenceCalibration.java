package org.netweather.model.interference;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scheduler's interference model of one node from k + 2 measurements, exact at every one of
 * them.
 *
 * <p>B. Kreaseck, L. Carter, H. Casanova, J. Ferrante, S. Nandy, "Interference-Aware Scheduling",
 * International Journal of High Performance Computing Applications 20(1), 2006, §3.1: measure the
 * compute rate C with no communication, C_r while receiving from the parent at its maximum MR, and
 * for each child i, C_sr(i) while receiving at RR(i) and sending to i at SR(i). Then
 *
 * <pre>
 *   IR_r    = ((C − C_r) / C) / MR
 *   IR_s(i) = (1 − RR(i)·(C − C_r)/(MR·C) − C_sr(i)/C) / SR(i)          (corrected)
 *   S ≈ [1 − IR_r·TR_in − Σ_i IR_s(i)·TR_i] · C
 * </pre>
 *
 * The paper prints {@code (RR(i)·C − C_r)} where {@code RR(i)·(C − C_r)} is meant; the printed
 * version (kept as {@link #printedSendRate} for the record) does not reproduce C_sr(i) at (RR(i),
 * SR(i)), contradicting the paper's own statement that the model "exactly match[es] the (k+2)
 * measured values" (docs/measurement.md, "Interference rates").
 *
 * @param computeRate C, compute rate with no communication
 * @param recvRate IR_r, per MB/s received from the parent
 * @param sendRates IR_s(i) per MB/s sent to each child, by child name
 */
public record InterferenceCalibration(
    double computeRate, double recvRate, Map<String, Double> sendRates) {

  /**
   * One measurement of the node receiving and sending to one child at once.
   *
   * @param child the child's name
   * @param recvTransfer RR(i), MB/s received from the parent meanwhile
   * @param sendTransfer SR(i), MB/s sent to the child
   * @param computeRate C_sr(i), the node's compute rate meanwhile
   */
  public record ChildPoint(
      String child, double recvTransfer, double sendTransfer, double computeRate) {}

  public InterferenceCalibration {
    sendRates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sendRates));
  }

  /** Calibrates from C, MR, C_r and one point per child. */
  public static InterferenceCalibration calibrate(
      double computeRate, double maxRecv, double recvComputeRate, List<ChildPoint> points) {
    if (!(computeRate > 0) || !(maxRecv > 0)) {
      throw new IllegalArgumentException("C and MR must be positive");
    }
    double loss = (computeRate - recvComputeRate) / computeRate;
    double irR = loss / maxRecv;
    Map<String, Double> irS = new LinkedHashMap<>();
    for (ChildPoint p : points) {
      if (!(p.sendTransfer() > 0)) {
        throw new IllegalArgumentException(p.child() + ": SR must be positive");
      }
      irS.put(
          p.child(),
          (1 - p.recvTransfer() * irR - p.computeRate() / computeRate) / p.sendTransfer());
    }
    return new InterferenceCalibration(computeRate, irR, irS);
  }

  /** IR_s(i) by the formula as the paper prints it; wrong, kept to show why (see above). */
  public static double printedSendRate(
      double computeRate, double maxRecv, double recvComputeRate, ChildPoint p) {
    return (1
            - (p.recvTransfer() * computeRate - recvComputeRate) / (maxRecv * computeRate)
            - p.computeRate() / computeRate)
        / p.sendTransfer();
  }

  /**
   * The two-point interference rate of Table 4 rows 8 and 9: the fraction of compute rate lost,
   * {@code 1 − busy/free}, per MB/s of the concurrent transfer.
   */
  public static double twoPoint(double freeRate, double busyRate, double transferRate) {
    return (1 - busyRate / freeRate) / transferRate;
  }

  /** The normalised compute rate while receiving at {@code recv} and sending at {@code sends}. */
  public double normalisedRate(double recv, Map<String, Double> sends) {
    double y = 1 - recvRate * recv;
    for (Map.Entry<String, Double> e : sends.entrySet()) {
      Double ir = sendRates.get(e.getKey());
      if (ir == null) {
        throw new IllegalArgumentException("no interference rate for child " + e.getKey());
      }
      y -= ir * e.getValue();
    }
    return y;
  }

  /** The compute rate the model predicts, never below zero. */
  public double computeRate(double recv, Map<String, Double> sends) {
    return Math.max(0, normalisedRate(recv, sends)) * computeRate;
  }
}
