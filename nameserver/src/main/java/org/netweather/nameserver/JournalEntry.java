package org.netweather.nameserver;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.netweather.api.v1.Clique;
import org.netweather.api.v1.Registration;

/**
 * One change to the nameserver's state: the payload of one record in its {@link Journal}.
 *
 * <pre>
 *   payload = type:byte, then per type:
 *     REGISTERED      leaseId:utf  ttlMs:long  registration:bytes(proto)
 *     RENEWED         leaseId:utf  expiresMs:long   (read from old journals, no longer written)
 *     UNREGISTERED    name:utf
 *     ASSIGNED        series:utf   memoryHost:utf  assignedMs:long
 *     CLIQUE_PUT      clique:bytes(proto)
 *     CLIQUE_DELETED  name:utf
 *     FORGOTTEN       pattern:utf  memoryHost:utf (empty: any)
 *   bytes = length:int, then that many bytes
 * </pre>
 */
sealed interface JournalEntry {
  byte REGISTERED = 1;
  byte RENEWED = 2;
  byte UNREGISTERED = 3;
  byte ASSIGNED = 4;
  byte CLIQUE_PUT = 5;
  byte CLIQUE_DELETED = 6;
  byte FORGOTTEN = 7;

  record Registered(String leaseId, long ttlMs, Registration registration)
      implements JournalEntry {}

  record Renewed(String leaseId, long expiresMs) implements JournalEntry {}

  record Unregistered(String name) implements JournalEntry {}

  record Assigned(String series, String memoryHost, long assignedMs) implements JournalEntry {}

  record CliquePut(Clique clique) implements JournalEntry {}

  record CliqueDeleted(String name) implements JournalEntry {}

  /** Directory entries matching a series pattern (and, if not empty, on one memory-host). */
  record Forgotten(String pattern, String memoryHost) implements JournalEntry {}

  default byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      if (this instanceof Registered r) {
        out.writeByte(REGISTERED);
        out.writeUTF(r.leaseId());
        out.writeLong(r.ttlMs());
        writeBytes(out, r.registration().toByteArray());
      } else if (this instanceof Renewed r) {
        out.writeByte(RENEWED);
        out.writeUTF(r.leaseId());
        out.writeLong(r.expiresMs());
      } else if (this instanceof Unregistered u) {
        out.writeByte(UNREGISTERED);
        out.writeUTF(u.name());
      } else if (this instanceof Assigned a) {
        out.writeByte(ASSIGNED);
        out.writeUTF(a.series());
        out.writeUTF(a.memoryHost());
        out.writeLong(a.assignedMs());
      } else if (this instanceof CliquePut c) {
        out.writeByte(CLIQUE_PUT);
        writeBytes(out, c.clique().toByteArray());
      } else if (this instanceof CliqueDeleted c) {
        out.writeByte(CLIQUE_DELETED);
        out.writeUTF(c.name());
      } else if (this instanceof Forgotten f) {
        out.writeByte(FORGOTTEN);
        out.writeUTF(f.pattern());
        out.writeUTF(f.memoryHost());
      }
    } catch (IOException e) {
      throw new IllegalStateException(e); // cannot happen in memory
    }
    return bytes.toByteArray();
  }

  static JournalEntry decode(DataInputStream in) throws IOException {
    byte type = in.readByte();
    try {
      switch (type) {
        case REGISTERED:
          return new Registered(in.readUTF(), in.readLong(), Registration.parseFrom(readBytes(in)));
        case RENEWED:
          return new Renewed(in.readUTF(), in.readLong());
        case UNREGISTERED:
          return new Unregistered(in.readUTF());
        case ASSIGNED:
          return new Assigned(in.readUTF(), in.readUTF(), in.readLong());
        case CLIQUE_PUT:
          return new CliquePut(Clique.parseFrom(readBytes(in)));
        case CLIQUE_DELETED:
          return new CliqueDeleted(in.readUTF());
        case FORGOTTEN:
          return new Forgotten(in.readUTF(), in.readUTF());
        default:
          throw new IOException("unknown journal entry type " + type);
      }
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("corrupt journal entry", e);
    }
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    // Bounded by what the payload holds too, so a damaged length allocates nothing it cannot fill.
    if (n < 0 || n > 16 << 20 || n > in.available()) {
      throw new IOException("corrupt journal entry length " + n);
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }
}
