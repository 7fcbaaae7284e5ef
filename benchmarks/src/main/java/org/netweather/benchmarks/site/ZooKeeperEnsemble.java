package org.netweather.benchmarks.site;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A ZooKeeper ensemble of {@code size} servers on loopback, each {@code nws zookeeper} in its own
 * process with a small heap, and the figures read from them with ZooKeeper's four-letter words.
 */
final class ZooKeeperEnsemble {
  /** A ZooKeeper server holding a site's registry lives in well under this. */
  private static final String HEAP = "-Xmx256m -XX:+UseSerialGC";

  final List<DaemonProcess> servers = new ArrayList<>();

  ZooKeeperEnsemble(Path home, Path dir, int size) throws IOException {
    List<String> members = new ArrayList<>();
    List<Integer> clientPorts = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      members.add("127.0.0.1:" + freePort() + ":" + freePort());
      clientPorts.add(freePort());
    }
    for (int i = 0; i < size; i++) {
      Path data = dir.resolve("zookeeper-" + (i + 1));
      List<String> args = new ArrayList<>();
      args.addAll(List.of("--port", clientPorts.get(i).toString(), "--data-dir", data.toString()));
      if (size > 1) {
        args.addAll(
            List.of("--id", Integer.toString(i + 1), "--servers", String.join(",", members)));
      }
      servers.add(
          new DaemonProcess(
              home,
              "zookeeper-" + (i + 1),
              "zookeeper",
              args,
              Map.of("NWS_JAVA_OPTS", HEAP),
              clientPorts.get(i),
              data,
              dir.resolve("zookeeper-" + (i + 1) + ".log")));
    }
  }

  /** The registry setting that names this ensemble, under the site path {@code /netweather}. */
  String registryUrl() {
    return "zookeeper://"
        + servers.stream().map(s -> "127.0.0.1:" + s.port).collect(Collectors.joining(","))
        + "/netweather";
  }

  /** Starts every server and waits until one of them is the leader. */
  void start() throws IOException, InterruptedException {
    for (DaemonProcess s : servers) {
      s.start();
    }
    SiteDaemons.await(
        "a ZooKeeper leader (logs: " + servers.get(0).log() + " ...)",
        Duration.ofMinutes(2),
        () -> {
          for (DaemonProcess s : servers) {
            if (!s.alive()) {
              throw new IllegalStateException(s.label + " exited; see " + s.log());
            }
          }
          return servers.stream().anyMatch(s -> mode(s).equals("leader") || size() == 1);
        });
  }

  int size() {
    return servers.size();
  }

  /**
   * The last committed transaction's counter, from {@code srvr}: its low 32 bits count the writes
   * (creates, sets, deletes, session opens and closes) of the leader's epoch, so two readings give
   * the ensemble's writes in between. -1 if no server answers.
   */
  long zxid() {
    for (DaemonProcess s : servers) {
      String out = fourLetters(s, "srvr");
      for (String line : out.split("\n")) {
        if (line.startsWith("Zxid: 0x")) {
          return Long.parseLong(line.substring("Zxid: 0x".length()).trim(), 16) & 0xffffffffL;
        }
      }
    }
    return -1;
  }

  /** The server's mode ({@code leader}, {@code follower}, {@code standalone}), "" if it is down. */
  static String mode(DaemonProcess s) {
    for (String line : fourLetters(s, "srvr").split("\n")) {
      if (line.startsWith("Mode: ")) {
        return line.substring("Mode: ".length()).trim();
      }
    }
    return "";
  }

  /** The znodes the server holds, from {@code mntr}; -1 if it does not answer. */
  static long znodes(DaemonProcess s) {
    for (String line : fourLetters(s, "mntr").split("\n")) {
      if (line.startsWith("zk_znode_count")) {
        return Long.parseLong(line.split("\\s+")[1]);
      }
    }
    return -1;
  }

  private static String fourLetters(DaemonProcess s, String word) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", s.port), 2000);
      socket.setSoTimeout(5000);
      OutputStream out = socket.getOutputStream();
      out.write(word.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  void stop() throws InterruptedException {
    for (DaemonProcess s : servers) {
      s.stop();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
