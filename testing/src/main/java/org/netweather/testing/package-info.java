/**
 * Test support: in-process gRPC servers and channels that are closed after each test, fake clocks.
 */
package org.netweather.testing;
