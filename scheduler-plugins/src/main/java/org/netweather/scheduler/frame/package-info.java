/**
 * The resource snapshot every scheduler plugin reads: hosts (CPU availability, free memory,
 * interference rates) and ordered host pairs (bandwidth, latency), each value a forecast with its
 * error, plus the application parameters a scheduler input carries beside them.
 *
 * <h2>Units</h2>
 *
 * The proxy speaks the units of its series; the model speaks SI so that algorithms never convert:
 *
 * <pre>
 *   quantity            ClusterSnapshot (proto)   ResourceSnapshot (model)
 *   cpu availability    fraction 0..1             fraction 0..1
 *   memory free         MiB                       bytes
 *   bandwidth           Mbit/s                    bytes/s      (1 Mbit/s = 125 000 B/s)
 *   latency             ms (round trip)           s (round trip)
 *   interference        fraction per MB/s         fraction per MB/s (unchanged)
 * </pre>
 *
 * <h2>The snapshot file</h2>
 *
 * {@link org.netweather.scheduler.frame.SnapshotReader} reads the proto3 JSON of {@code
 * netweather.v1.ClusterSnapshot}, exactly what {@code nws snapshot --json} prints, so a live
 * snapshot can be saved and replayed. Application parameters ride in the two {@code parameters}
 * maps: per host (e.g. {@code secondsPerPoint}) and per snapshot (e.g. {@code size}). Unknown
 * fields are an error that names every one of them, since a misspelt field silently ignored would
 * give a plausible but wrong schedule.
 *
 * <pre>{@code
 * {
 *   "cluster": "apples-J6",
 *   "parameters": { "bytesPerElement": 8 },
 *   "hosts": [
 *     { "host": "B1", "cpuAvailability": { "value": 1 }, "memoryFree": { "value": 1024 },
 *       "parameters": { "secondsPerPoint": 8e-7 } }
 *   ],
 *   "pairs": [ { "src": "B1", "dst": "B2", "bandwidth": { "value": 10 } } ]
 * }
 * }</pre>
 */
package org.netweather.scheduler.frame;
