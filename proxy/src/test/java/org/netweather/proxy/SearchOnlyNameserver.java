package org.netweather.proxy;

import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netweather.api.v1.NameserverGrpc;
import org.netweather.api.v1.Registration;
import org.netweather.api.v1.SearchRequest;
import org.netweather.api.v1.SearchResponse;

/** A nameserver that answers {@code (kind=K)} searches from a list, all a follower asks. */
final class SearchOnlyNameserver extends NameserverGrpc.NameserverImplBase {
  final List<Registration> registrations = new CopyOnWriteArrayList<>();

  @Override
  public void search(SearchRequest req, StreamObserver<SearchResponse> out) {
    SearchResponse.Builder b = SearchResponse.newBuilder();
    for (Registration r : registrations) {
      if (req.getFilter().equals("(kind=" + r.getKind() + ")")) {
        b.addRegistrations(r);
      }
    }
    out.onNext(b.build());
    out.onCompleted();
  }
}
