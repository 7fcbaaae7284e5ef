/**
 * The sensor daemon: runs host skills on periods, joins the cliques the nameserver lists for this
 * host and probes its peers when holding the token, spools every measurement and delivers it to the
 * memory-host of its series, and serves {@code netweather.v1.SensorControl}.
 */
package org.netweather.sensor.daemon;
