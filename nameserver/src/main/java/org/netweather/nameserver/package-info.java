/**
 * The nameserver daemon: registrations with leases, LDAP-style search, the series directory that
 * places each series on one live memory-host, and clique definitions, all durable across restarts.
 */
package org.netweather.nameserver;
