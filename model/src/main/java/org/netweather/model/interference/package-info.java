/**
 * Interference of communication with computation, after B. Kreaseck, L. Carter, H. Casanova, J.
 * Ferrante, S. Nandy, "Interference-Aware Scheduling", International Journal of High Performance
 * Computing Applications 20(1), 2006: the least-squares interference rate ({@link
 * org.netweather.model.interference.InterferenceFit}) the sensor measures, and the k + 2 point
 * calibration ({@link org.netweather.model.interference.InterferenceCalibration}) the tree
 * scheduler uses. Pure arithmetic; see docs/measurement.md, "Interference rates".
 */
package org.netweather.model.interference;
