/**
 * Small numerical helpers shared by skills: a linear least-squares fit with standard errors,
 * used for the interference rate and for the bandwidth train's slope.
 */
package org.netweather.sensor.stats;
