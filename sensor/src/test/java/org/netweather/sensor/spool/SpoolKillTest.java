package org.netweather.sensor.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills a writing process with SIGKILL mid-stream and checks that nothing it reported is lost. */
class SpoolKillTest {

  @TempDir Path dir;

  @Test
  void open_afterWriterKilledMidAppend_everyReportedAppendAndAckSurvives() throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                SpoolWriterMain.class.getName(),
                dir.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    Map<Long, Long> appended = new HashMap<>();
    Set<Long> acked = new HashSet<>();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (appended.size() < 300 && (line = out.readLine()) != null) {
        String[] f = line.split(" ", -1);
        if (f[0].equals("append")) {
          appended.put(Long.parseLong(f[1]), Long.parseLong(f[2]));
        } else {
          acked.add(Long.parseLong(f[1]));
        }
      }
      // Killed while it is still appending; what it printed so far had been made durable.
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
    }
    assertTrue(appended.size() >= 300, "child reported only " + appended.size());

    try (Spool spool = Spool.open(dir, SpoolOptions.defaults())) {
      List<SpoolEntry> left = spool.unacknowledged(Integer.MAX_VALUE);
      Set<Long> leftSeqs = new HashSet<>();
      for (SpoolEntry e : left) {
        leftSeqs.add(e.seq());
        assertEquals(e.timestampMs() / 10.0, e.value(), 1e-12);
      }
      long last = appended.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
      for (Map.Entry<Long, Long> a : appended.entrySet()) {
        // The last entry may have been acknowledged after the last line we read.
        boolean mayBeAcked = a.getKey() == last && a.getValue() % 3 == 0;
        if (!acked.contains(a.getKey()) && !mayBeAcked) {
          assertTrue(leftSeqs.contains(a.getKey()), "lost appended entry " + a.getKey());
        }
      }
      for (long seq : acked) {
        assertTrue(!leftSeqs.contains(seq), "acknowledged entry " + seq + " came back");
      }
    }
  }
}
