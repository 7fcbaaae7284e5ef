/** The {@code memory.free} skill: MiB a new process could use without paging. */
package org.netweather.sensor.memory;
