/**
 * Every {@code nws} command, one package per group: {@code daemon} (the daemons and {@code nws
 * up}), {@code query} (hosts, series, history, put, snapshot, status), {@code clique}, {@code
 * forecast} (with its formatter), {@code probe}, {@code schedule} (the scheduler plugins, found by
 * {@link java.util.ServiceLoader}), and {@code output} (tables and JSON). Commands share the {@link
 * org.netweather.cli.ConnectionOptions} mixin, print tables or (with {@code --json}) one JSON
 * document on stdout, and turn failures into one-line messages through {@link
 * org.netweather.cli.ErrorHandler}.
 */
package org.netweather.cli;
