package org.netweather.scheduler.swap;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Sends one request line to a swap dispatcher and returns its reply lines (5 s deadline). */
public final class SwapDispatcherClient {
  private SwapDispatcherClient() {}

  public static List<String> request(String host, int port, String line) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 5000);
      s.setSoTimeout(5000);
      PrintWriter out = new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8);
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(),
          StandardCharsets.UTF_8));
      out.println(line);
      List<String> reply = new ArrayList<>();
      for (String r = in.readLine(); r != null && !r.equals("END"); r = in.readLine()) {
        reply.add(r);
      }
      return reply;
    } catch (IOException e) {
      throw new UncheckedIOException("swap dispatcher at " + host + ":" + port + ": "
          + e.getMessage(), e);
    }
  }
}
