/**
 * The query commands of {@code nws}: picocli commands that return exit codes, share the
 * {@link org.netweather.clients.cli.ConnectionOptions} mixin, print tables or (with
 * {@code --json}) one JSON document on stdout, and turn failures into one-line messages.
 */
package org.netweather.clients.cli;
