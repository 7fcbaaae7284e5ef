/**
 * Mutual TLS for daemons and clients: {@link org.netweather.runtime.tls.TlsFiles} names the
 * material, {@link org.netweather.runtime.tls.TlsCredentials} turns it into reloading server and
 * channel credentials.
 */
package org.netweather.runtime.tls;
