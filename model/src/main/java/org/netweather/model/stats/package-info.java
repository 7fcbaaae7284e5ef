/**
 * Small numerical helpers shared by the sensor and the schedulers: an ordinary least-squares line
 * with standard errors, used for the interference rate ({@link
 * org.netweather.model.interference.InterferenceFit}) and for the bandwidth train's slope.
 */
package org.netweather.model.stats;
