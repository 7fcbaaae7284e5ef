package org.netweather.sensor.plogp;

/** A channel that passes every timing to another; tests override the ones they perturb. */
class ForwardingChannel implements PLogPChannel {
  private final PLogPChannel link;

  ForwardingChannel(PLogPChannel link) {
    this.link = link;
  }

  @Override
  public double burst(int count, int bytes) {
    return link.burst(count, bytes);
  }

  @Override
  public double roundTrip(int bytes) {
    return link.roundTrip(bytes);
  }

  @Override
  public double sendOverhead(int bytes) {
    return link.sendOverhead(bytes);
  }

  @Override
  public double receiveOverhead(int bytes, double delaySeconds) {
    return link.receiveOverhead(bytes, delaySeconds);
  }

  @Override
  public double clockOverhead() {
    return link.clockOverhead();
  }
}
