import Foundation
public import TributaryCore

/// A fetcher that answers from a table, for unit tests of adapters and the engine; it records
/// every request it was asked.
public final class InMemoryFetcher: Fetcher, @unchecked Sendable {
    // `responses` is written only before the fetcher is shared; `requests` is guarded by `lock`.
    private var responses: [String: FetchResponse] = [:]
    private let lock = NSLock()
    private var recorded: [FetchRequest] = []

    /// Creates an empty fetcher.
    public init() {}

    /// Answers `url` with `body` and `status`.
    public func serve(_ url: String, body: String, status: Int = 200, headers: [HTTPHeader] = []) {
        guard let parsed = URL(string: url) else { return }
        responses[url] = FetchResponse(url: parsed, status: status, headers: headers, body: Array(body.utf8))
    }

    /// The requests made so far, in order.
    public var requests: [FetchRequest] {
        lock.withLock { recorded }
    }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        lock.withLock { recorded.append(request) }
        guard let response = responses[request.url.absoluteString] else {
            throw FetchError(url: request.url.absoluteString, reason: .connectionRefused)
        }
        return response
    }
}
