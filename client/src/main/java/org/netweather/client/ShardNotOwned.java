package org.netweather.client;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Optional;

/**
 * A forecaster's answer that it does not serve a series' shard: FAILED_PRECONDITION with a {@code
 * google.rpc.ErrorInfo} of reason {@value #REASON} (domain {@value #DOMAIN}) whose metadata names
 * the shard and, when the forecaster knows, the forecaster that serves it. See {@code
 * docs/routing.md}.
 *
 * @param shard the shard, or -1 when the answer did not say
 * @param owner registration name of the forecaster believed to serve it; empty when unknown
 * @param ownerAddress that forecaster's {@code host:port}; empty when unknown
 */
public record ShardNotOwned(int shard, String owner, String ownerAddress) {
  public static final String REASON = "SHARD_NOT_OWNED";
  public static final String DOMAIN = "netweather.org";

  /** The shard answer carried by {@code failure}, if it is one. */
  public static Optional<ShardNotOwned> of(Throwable failure) {
    if (failure == null
        || Status.fromThrowable(failure).getCode() != Status.Code.FAILED_PRECONDITION) {
      return Optional.empty();
    }
    com.google.rpc.Status details = StatusProto.fromThrowable(failure);
    if (details == null) {
      return Optional.empty();
    }
    for (Any any : details.getDetailsList()) {
      if (!any.is(ErrorInfo.class)) {
        continue;
      }
      ErrorInfo info;
      try {
        info = any.unpack(ErrorInfo.class);
      } catch (InvalidProtocolBufferException e) {
        continue;
      }
      if (REASON.equals(info.getReason()) && DOMAIN.equals(info.getDomain())) {
        return Optional.of(
            new ShardNotOwned(
                shardOf(info.getMetadataOrDefault("shard", "")),
                info.getMetadataOrDefault("owner", ""),
                info.getMetadataOrDefault("owner_address", "")));
      }
    }
    return Optional.empty();
  }

  private static int shardOf(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** This answer as a forecaster sends it, with {@code description} as the status message. */
  public StatusRuntimeException toException(String description) {
    ErrorInfo.Builder info = ErrorInfo.newBuilder().setReason(REASON).setDomain(DOMAIN);
    if (shard >= 0) {
      info.putMetadata("shard", Integer.toString(shard));
    }
    info.putMetadata("owner", owner).putMetadata("owner_address", ownerAddress);
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Status.Code.FAILED_PRECONDITION.value())
            .setMessage(description)
            .addDetails(Any.pack(info.build()))
            .build());
  }
}
