package org.netweather.sensor.probe;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ipfilter.AbstractRemoteAddressFilter;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Predicate;

/**
 * Closes connections whose remote address the injected predicate does not allow, before they can
 * cost anything (probe ports only talk to registered sensors; docs/measurement.md, "TCP latency,
 * connect time and bandwidth").
 *
 * <p>Non-IP remotes (in-VM or embedded channels) are refused: the predicate speaks of IP peers.
 */
@Sharable
final class AllowListFilter extends AbstractRemoteAddressFilter<SocketAddress> {

  private static final System.Logger LOG = System.getLogger(AllowListFilter.class.getName());

  private final Predicate<? super InetSocketAddress> allowed;

  AllowListFilter(Predicate<? super InetSocketAddress> allowed) {
    this.allowed = allowed;
  }

  @Override
  protected boolean accept(ChannelHandlerContext ctx, SocketAddress remote) {
    return remote instanceof InetSocketAddress inet && allowed.test(inet);
  }

  @Override
  protected io.netty.channel.ChannelFuture channelRejected(
      ChannelHandlerContext ctx, SocketAddress remote) {
    LOG.log(System.Logger.Level.DEBUG, "probe connection from {0} refused", remote);
    return null;
  }
}
