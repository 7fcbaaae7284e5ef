package org.netweather.scheduler.swap;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import org.netweather.api.v1.ForceSwapRequest;
import org.netweather.api.v1.ForceSwapResponse;
import org.netweather.api.v1.SwapApplication;
import org.netweather.api.v1.SwapDispatcherGrpc;
import org.netweather.api.v1.SwapStatusRequest;
import org.netweather.api.v1.SwapStatusResponse;

/**
 * The {@code netweather.v1.SwapDispatcher} service over one {@link SwapDispatcher}: what tools such
 * as {@code nws schedule swap} may see and do. Errors as listed in {@code swap.proto}.
 */
public final class SwapDispatcherService extends SwapDispatcherGrpc.SwapDispatcherImplBase {
  private final SwapDispatcher dispatcher;

  public SwapDispatcherService(SwapDispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  @Override
  public void status(SwapStatusRequest request, StreamObserver<SwapStatusResponse> response) {
    String app = request.getApplication();
    SwapStatusResponse.Builder out = SwapStatusResponse.newBuilder();
    for (SwapManager m : dispatcher.managers()) {
      if (app.isEmpty() || m.application().equals(app)) {
        out.addApplications(describe(m));
      }
    }
    if (!app.isEmpty() && out.getApplicationsCount() == 0) {
      response.onError(notFound(app));
      return;
    }
    response.onNext(out.build());
    response.onCompleted();
  }

  @Override
  public void force(ForceSwapRequest request, StreamObserver<ForceSwapResponse> response) {
    if (request.getApplication().isEmpty()
        || request.getOut().isEmpty()
        || request.getIn().isEmpty()) {
      response.onError(
          Status.INVALID_ARGUMENT
              .withDescription("force: application, out and in are all required")
              .asRuntimeException());
      return;
    }
    SwapManager m = dispatcher.find(request.getApplication()).orElse(null);
    if (m == null) {
      response.onError(notFound(request.getApplication()));
      return;
    }
    try {
      m.force(request.getOut(), request.getIn());
    } catch (IllegalArgumentException e) {
      response.onError(
          Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
      return;
    }
    response.onNext(ForceSwapResponse.getDefaultInstance());
    response.onCompleted();
  }

  /** One application as the rpc reports it. */
  static SwapApplication describe(SwapManager m) {
    SwapApplication.Builder a =
        SwapApplication.newBuilder()
            .setApplication(m.application())
            .setPolicy(m.policyName())
            .setRoot(m.root())
            .putAllRanks(m.ranks());
    List<SwapManager.Event> log = m.log();
    a.setSwaps(log.size());
    if (!log.isEmpty()) {
      SwapManager.Event last = log.get(log.size() - 1);
      a.setLastOut(last.out()).setLastIn(last.in());
    }
    return a.build();
  }

  private static RuntimeException notFound(String application) {
    return Status.NOT_FOUND
        .withDescription("no application '" + application + "'")
        .asRuntimeException();
  }
}
