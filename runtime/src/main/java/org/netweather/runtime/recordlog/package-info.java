/**
 * The one durable record log every daemon keeps its state in: length- and CRC32C-framed records
 * ({@link org.netweather.runtime.recordlog.RecordFile}), a log of numbered segment files with
 * rotation and dropping of old segments ({@link org.netweather.runtime.recordlog.RecordLog}), an
 * fsync policy ({@link org.netweather.runtime.recordlog.SyncPolicy}) and recovery on open, which
 * cuts off a torn tail and skips damage in the middle, keeping the records after it and reporting
 * what was lost ({@link org.netweather.runtime.recordlog.Damage}; see docs/damage.md). Plain JDK:
 * no gRPC, no Netty.
 */
package org.netweather.runtime.recordlog;
