/**
 * The main class of {@code bin/nws}; the commands themselves live in the {@code cli} module ({@code
 * org.netweather.cli}). This module also packages the class path under {@code target/lib} and holds
 * the end-to-end tests of the packaged command.
 */
package org.netweather.launcher;
