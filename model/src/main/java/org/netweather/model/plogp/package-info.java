/**
 * pLogP parameter tables (L, g(m), os(m), or(m)) after T. Kielmann, H. E. Bal, S. Gorlatch, K.
 * Verstoep, R. F. H. Hofman, "Network Performance-aware Collective Communication for Clustered Wide
 * Area Systems", Parallel Computing 27(11), 2001: the interpolation between measured message sizes
 * that the sensor's measurement and the broadcast schedulers' models share.
 */
package org.netweather.model.plogp;
