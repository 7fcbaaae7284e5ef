/**
 * The {@code nws} command: every daemon ({@code nws nameserver}, {@code nws memory}),
 * {@code nws up} running them all in one process, and the query commands of the clients module.
 */
package org.netweather.launcher;
