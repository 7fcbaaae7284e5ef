/**
 * Daemon configuration declared once: each daemon lists its {@link
 * org.netweather.runtime.config.Setting}s (key, type, default, meaning, rules) in a {@link
 * org.netweather.runtime.config.ConfigSchema}; {@link org.netweather.runtime.config.ConfigValues}
 * layers defaults, a YAML file and flags, checks every value and remembers where each came from.
 * Flags and the configuration reference ({@code docs/configuration.md}) are generated from the same
 * schemas by the command line.
 */
package org.netweather.runtime.config;
