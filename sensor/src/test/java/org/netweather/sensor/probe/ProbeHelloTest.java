package org.netweather.sensor.probe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class ProbeHelloTest {

  @Test
  void encode_sink_matchesWireDiagram() {
    ByteBuf b = ProbeHello.sink(5000, 1L << 20).encode(ByteBufAllocator.DEFAULT);

    assertEquals("4e57010200001388" + "0000000000100000", ByteBufUtil.hexDump(b));
    b.release();
  }

  @Test
  void decode_encodedHello_roundTrips() {
    for (ProbeHello h :
        new ProbeHello[] {
          ProbeHello.echo(), ProbeHello.sink(0xFFFF_FFFFL, 7), ProbeHello.source(1024, 1L << 40)
        }) {
      ByteBuf b = h.encode(ByteBufAllocator.DEFAULT);
      assertEquals(h, ProbeHello.decode(b));
      b.release();
    }
  }

  @Test
  void decode_badMagic_throws() {
    ByteBuf b = Unpooled.wrappedBuffer(new byte[16]);

    assertThrows(IllegalArgumentException.class, () -> ProbeHello.decode(b));
  }

  @Test
  void decode_unknownVersionOrMode_throws() {
    byte[] v2 = ByteBufUtil.getBytes(ProbeHello.echo().encode(ByteBufAllocator.DEFAULT));
    v2[2] = 2;
    byte[] mode9 = ByteBufUtil.getBytes(ProbeHello.echo().encode(ByteBufAllocator.DEFAULT));
    mode9[3] = 9;

    assertThrows(
        IllegalArgumentException.class, () -> ProbeHello.decode(Unpooled.wrappedBuffer(v2)));
    assertThrows(
        IllegalArgumentException.class, () -> ProbeHello.decode(Unpooled.wrappedBuffer(mode9)));
  }

  @Test
  void sinkMark_encodeDecode_roundTrips() {
    ByteBuf b = new SinkMark(123_456_789L, 42_000_000L).encode(ByteBufAllocator.DEFAULT);

    assertArrayEquals(
        ByteBufUtil.decodeHexDump("00000000075bcd15" + "000000000280de80"),
        ByteBufUtil.getBytes(b));
    assertEquals(new SinkMark(123_456_789L, 42_000_000L), SinkMark.decode(b));
    b.release();
  }
}
