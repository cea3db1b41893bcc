import Foundation
import Synchronization
import TributaryModel

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
        // Recordings are fixtures, committed with the tests: the user name and password of the URL and the session
        // cookies the site set stay out (replaying needs neither: it matches the path and the query).
        let url = request.url.absoluteString
        let exchange = Recording.Exchange(
            method: request.method, url: WebLink.removingUserInformation(url) ?? url, status: response.status,
            headers: response.headers.filter { $0.name.lowercased() != "set-cookie" }, body: response.body)
        recorded.withLock { $0.append(exchange) }
        return response
    }

    /// What was fetched, as a recording of `source`.
    public func recording(source: String) -> Recording {
        Recording(source: source, exchanges: recorded.withLock { $0 })
    }
}
