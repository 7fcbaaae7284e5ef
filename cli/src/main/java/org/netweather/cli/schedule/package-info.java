/**
 * The {@code nws schedule} commands: {@link org.netweather.cli.schedule.ScheduleCommand} with one
 * subcommand per registered scheduler plugin, and the built-in plugins' commands and providers
 * ({@code jacobi}, {@code tree}). Commands print to their command line's output writer, offer
 * {@code --json}, and report bad input as {@link IllegalArgumentException} (one line, exit status 2
 * under the launcher's error handler).
 */
package org.netweather.cli.schedule;
