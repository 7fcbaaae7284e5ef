/**
 * The proxy daemon: one per cluster, it keeps the latest forecasts of its hosts' series fresh
 * (following the forecaster's update stream, refreshing what the stream misses) and answers a
 * whole-cluster snapshot in one call, marking stale values as stale.
 */
package org.netweather.proxy;
