import Foundation
import Synchronization

/// What one source's fetch did on the wire, as the engine needs to know it: the first request's
/// URL, status and validators (for conditional GET across runs), whether the server answered
/// "not modified", and the bytes received (for progress).
///
/// Only a source's first request is made conditional: it is the one that says whether the
/// source changed. Later requests (pages, details) are never answered with a 304 they did not ask for.
public final class FetchLog: Sendable {
    /// The first request's URL and the validators to send with it.
    public struct Offer: Sendable, Hashable {
        /// The URL the validators belong to.
        public var url: String
        /// The validators.
        public var validators: CacheValidators

        /// Creates an offer.
        public init(url: String, validators: CacheValidators) {
            self.url = url
            self.validators = validators
        }
    }

    /// What was recorded.
    public struct Record: Sendable {
        /// How many requests were sent.
        public var requests = 0
        /// The bytes of every body received.
        public var bytes = 0
        /// The first request's URL.
        public var firstURL: String?
        /// The first response's status.
        public var firstStatus: Int?
        /// The first response's validators.
        public var firstValidators: CacheValidators?
        /// Whether the first request was conditional and answered 304.
        public var notModified = false
        /// The longest wait a 429 or 503 answer asked for (`Retry-After`).
        public var retryAfter: Duration?
    }

    private let offer: Offer?
    private let onBytes: (@Sendable (Int) -> Void)?
    private let state = Mutex(Record())

    /// Creates a log that offers `offer` to the first request when the URLs match, and reports
    /// every body's size to `onBytes`.
    public init(offer: Offer? = nil, onBytes: (@Sendable (Int) -> Void)? = nil) {
        self.offer = offer
        self.onBytes = onBytes
    }

    /// What was recorded so far.
    public var record: Record { state.withLock { $0 } }

    /// Counts a request and, when it is the first and matches the offer, makes it conditional.
    /// Returns whether it is the first.
    func willSend(_ request: inout FetchRequest) -> Bool {
        let first = state.withLock { record in
            record.requests += 1
            if record.requests == 1 { record.firstURL = request.url.absoluteString }
            return record.requests == 1
        }
        if first, request.validators == nil, let offer, offer.url == request.url.absoluteString {
            request.validators = offer.validators
        }
        return first
    }

    /// Records a response.
    func received(_ response: FetchResponse, to request: FetchRequest, first: Bool) {
        let retryAfter = response.retryAfter
        state.withLock { record in
            record.bytes += response.body.count
            if let retryAfter, retryAfter > record.retryAfter ?? .zero { record.retryAfter = retryAfter }
            if first {
                record.firstStatus = response.status
                record.firstValidators = response.validators
                record.notModified = response.isNotModified && request.validators != nil
            }
        }
        if !response.body.isEmpty { onBytes?(response.body.count) }
    }
}
