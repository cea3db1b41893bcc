import Foundation
import Synchronization

/// A fetcher that passes every request to another and keeps each exchange, for
/// `tributary record`.
public final class RecordingFetcher: Fetcher {
    private let inner: any Fetcher
    /// The exchanges so far, in completion order; guarded by the mutex.
    private let recorded = Mutex<[Recording.Exchange]>([])

    /// Records what `inner` fetches.
    public init(_ inner: any Fetcher) {
        self.inner = inner
    }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let response = try await inner.fetch(request)
        let exchange = Recording.Exchange(
            method: request.method, url: request.url.absoluteString, status: response.status, headers: response.headers,
            body: response.body)
        recorded.withLock { $0.append(exchange) }
        return response
    }

    /// What was fetched, as a recording of `source`.
    public func recording(source: String) -> Recording {
        Recording(source: source, exchanges: recorded.withLock { $0 })
    }
}
