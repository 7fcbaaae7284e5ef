package org.netweather.forecaster;

import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.ErrorInfo;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Optional;

/**
 * The answer of a forecaster asked for a shard it does not serve: FAILED_PRECONDITION with a {@code
 * google.rpc.ErrorInfo} of reason {@code SHARD_NOT_OWNED}, naming the shard and the forecaster
 * believed to serve it, so that the caller retries there once (docs/sharding.md).
 */
final class ShardRefusal {
  static final String REASON = "SHARD_NOT_OWNED";
  static final String DOMAIN = "netweather.org";

  private ShardRefusal() {}

  static StatusRuntimeException notOwned(int shard, Optional<ShardOwnership.Peer> owner) {
    String name = owner.map(ShardOwnership.Peer::id).orElse("");
    String address = owner.map(ShardOwnership.Peer::address).orElse("");
    ErrorInfo info =
        ErrorInfo.newBuilder()
            .setReason(REASON)
            .setDomain(DOMAIN)
            .putMetadata("shard", Integer.toString(shard))
            .putMetadata("owner", name)
            .putMetadata("owner_address", address)
            .build();
    String message =
        "shard "
            + shard
            + " is not served by this forecaster"
            + (name.isEmpty() ? "" : "; ask " + name + " at " + address);
    return StatusProto.toStatusRuntimeException(
        com.google.rpc.Status.newBuilder()
            .setCode(Code.FAILED_PRECONDITION_VALUE)
            .setMessage(message)
            .addDetails(Any.pack(info))
            .build());
  }
}
