package org.netweather.sensor.interference;

import java.util.Arrays;

/**
 * The scheduler's calibrated interference model of one node: a receive rate from its parent and
 * one send rate per child, chosen to reproduce the k + 2 calibration measurements exactly.
 *
 * <pre>
 * Kreaseck et al. §3.1 with the corrected send formula of docs/measurement.md, "Interference rates"
 * (the printed one fails its
 * own "exactly match the (k+2) measured values" requirement):
 *
 *   C       compute rate (tasks/s) with no communication
 *   MR, Cr  maximum receive bandwidth from the parent (MB/s), compute rate while receiving at MR
 *   RR(i), SR(i), Csr(i)
 *           for child i: receive and send rates (MB/s) and the compute rate while receiving from
 *           the parent at RR(i) and sending to child i at SR(i)
 *
 *   IR_r    = ((C - Cr) / C) / MR
 *   IR_s(i) = (1 - RR(i) * (C - Cr) / (MR * C) - Csr(i) / C) / SR(i)
 *
 *   normalised compute rate = 1 - IR_r * TR(n) - sum_i IR_s(i) * TR(i)
 * </pre>
 *
 * @param receiveRate IR_r, fraction per MB/s
 * @param sendRates IR_s(i) for each child, fraction per MB/s
 */
public record InterferenceModel(double receiveRate, double[] sendRates) {

  public InterferenceModel {
    sendRates = sendRates.clone();
  }

  /** Child i's calibration point: rates in MB/s, compute rate in tasks/s. */
  public record ChildPoint(double receiveMBps, double sendMBps, double computeRate) {}

  /**
   * Calibrates from the k + 2 measurements.
   *
   * @param c compute rate with no communication, > 0
   * @param maxReceiveMBps MR, > 0
   * @param computeWhileReceiving Cr, measured while receiving at MR
   * @param children one point per child; each send rate > 0
   */
  public static InterferenceModel calibrate(
      double c, double maxReceiveMBps, double computeWhileReceiving, ChildPoint... children) {
    if (!(c > 0) || !(maxReceiveMBps > 0)) {
      throw new IllegalArgumentException("C and MR must be positive");
    }
    double lossPerReceiveMBps = (c - computeWhileReceiving) / (maxReceiveMBps * c);
    double[] send = new double[children.length];
    for (int i = 0; i < children.length; i++) {
      ChildPoint p = children[i];
      if (!(p.sendMBps() > 0)) {
        throw new IllegalArgumentException("child " + i + " send rate must be positive");
      }
      send[i] =
          (1 - p.receiveMBps() * lossPerReceiveMBps - p.computeRate() / c) / p.sendMBps();
    }
    return new InterferenceModel(lossPerReceiveMBps, send);
  }

  /** Predicted compute rate as a fraction of C, receiving at {@code receiveMBps} and sending. */
  public double normalizedRate(double receiveMBps, double... sendMBps) {
    if (sendMBps.length > sendRates.length) {
      throw new IllegalArgumentException(
          "model has " + sendRates.length + " children, got " + sendMBps.length + " send rates");
    }
    double rate = 1 - receiveRate * receiveMBps;
    for (int i = 0; i < sendMBps.length; i++) {
      rate -= sendRates[i] * sendMBps[i];
    }
    return rate;
  }

  @Override
  public double[] sendRates() {
    return sendRates.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof InterferenceModel m
        && Double.compare(receiveRate, m.receiveRate) == 0
        && Arrays.equals(sendRates, m.sendRates);
  }

  @Override
  public int hashCode() {
    return 31 * Double.hashCode(receiveRate) + Arrays.hashCode(sendRates);
  }

  @Override
  public String toString() {
    return "InterferenceModel[receiveRate=" + receiveRate
        + ", sendRates=" + Arrays.toString(sendRates) + "]";
  }
}
