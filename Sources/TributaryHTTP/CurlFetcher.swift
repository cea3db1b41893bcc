import Foundation
import Synchronization
public import TributaryCore

/// The production fetcher: libcurl's multi interface driven by dedicated threads, exposed as `async` calls. Every
/// source fetches through one instance, so the global and per-host limits (shared by the threads), timeouts, size
/// limits and retries hold for all of them. `file:` URLs are read from disk with the same limits.
///
/// One thread keeps up with a few transfers at once and serves waiting ones strictly in turn. From
/// ``threadsMinimumTransfers`` at once, one thread per core (at most ``maxLoops``) shares the work of the answers,
/// TLS and decompression included: a host's requests go to one thread, chosen by its name, so that they reuse their
/// connections and wait in turn; only a host that may have more than ``spillLoad`` transfers at once sends its
/// requests to a less busy thread once its own has that many in hand (a single server of many feeds).
public final class CurlFetcher: Fetcher {
    /// The settings it was made with.
    public let settings: HTTPSettings
    /// The transfer threads and libcurl itself start with the first HTTP request, so that a
    /// process that only reads files never loads libcurl (unless it asked for ``preload()``).
    private let started = Mutex<[CurlMultiLoop]>([])
    private let files: FileFetcher

    /// The most transfer threads a fetcher runs.
    static let maxLoops = 4

    /// How many requests a host's own thread may have in hand before one goes to a less busy thread (when the host's
    /// limit allows more than this at once: otherwise the requests beyond it wait in any thread, best in their own).
    static let spillLoad = 8

    /// How many transfers at once (`maxConnections`) make the fetcher use more than one thread.
    static let threadsMinimumTransfers = 16

    /// A fetcher; its transfer thread starts when it is first asked for a URL.
    public init(settings: HTTPSettings = HTTPSettings()) {
        self.settings = settings
        self.files = FileFetcher(defaultMaxBytes: settings.defaultMaxBytes)
    }

    deinit {
        started.withLock { loops in
            for loop in loops { loop.shutdown() }
        }
    }

    /// Loads libcurl (and its TLS library, some thirty shared libraries in all: about 10 ms) on a thread of its own,
    /// for a caller that will most likely fetch over HTTP and has other work to do first; the first request waits
    /// for it if it is not done.
    /// A process must not exit while it runs: the exit handlers of libcurl's TLS library would run into its
    /// half-done initialization (a crash at exit); see ``waitForPreload()``.
    public static func preload() {
        preloading.enter()
        Thread.detachNewThread {
            _ = CurlMultiLoop.globalInit
            preloading.leave()
        }
    }

    /// Waits until every ``preload()`` has finished; call it before the process may exit.
    public static func waitForPreload() {
        preloading.wait()
    }

    private static let preloading = DispatchGroup()

    /// How many requests each transfer thread was handed (none before the first request).
    var requestsPerThread: [Int] { started.withLock { $0.map(\.taken) } }

    private var loops: [CurlMultiLoop] {
        started.withLock { started in
            if started.isEmpty {
                let slots = TransferSlots(maxTotal: settings.maxConnections, maxPerHost: settings.maxPerHost)
                let count =
                    settings.maxConnections >= Self.threadsMinimumTransfers
                    ? min(Self.maxLoops, max(1, ProcessInfo.processInfo.activeProcessorCount)) : 1
                started = (0..<count).map { _ in CurlMultiLoop(settings: settings, slots: slots) }
                // Weak: a loop's thread may give a slot back while another loop, its thread done, is already gone.
                let loops = started.map { Weak($0) }
                slots.onWake { for loop in loops { loop.value?.wakeIfWaiting() } }
            }
            return started
        }
    }

    /// The loop for a request to `host`: its own, unless that one is busy (``spillLoad``), another is less so, and
    /// the host may have more transfers at once than that.
    private func loop(for host: String) -> CurlMultiLoop {
        let loops = loops
        let own = loops[abs(host.hashValue % loops.count)]
        guard settings.maxPerHost > Self.spillLoad, own.load >= Self.spillLoad, let lightest = loops.min(by: { $0.load < $1.load }),
            lightest.load < own.load
        else { return own }
        return lightest
    }

    /// A `file:` URL's bytes, read as `fetch` reads them (same limit and errors) but straight
    /// into an array; see `FileFetcher.bytes(_:)`.
    public func fileBytes(_ request: FetchRequest) throws(FetchError) -> [UInt8] {
        try files.bytes(request)
    }

    /// Performs the request, retrying transient failures (connection errors, timeouts, 408, 429
    /// and 5xx) with exponential backoff and jitter, honouring `Retry-After` up to the limit.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        if request.url.isFileURL { return try await files.fetch(request) }
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError(url: request.url.absoluteString, reason: .unsupportedScheme(request.url.scheme ?? ""))
        }
        var attempt = 0
        while true {
            let result = await request.headers.isEmpty ? perform(request).result : performFollowingRedirects(request)
            let delay: Duration
            switch result {
            case .success(let response):
                guard attempt < settings.retries, RetryPolicy.isRetryable(status: response.status) else { return response }
                if let retryAfter = FetchResponse.retryAfter(response.header("Retry-After"), now: Date()) {
                    guard retryAfter <= settings.retryAfterLimit else { return response }
                    delay = retryAfter
                } else {
                    delay = RetryPolicy.backoff(attempt: attempt, base: settings.retryBaseDelay, cap: settings.retryMaxDelay)
                }
            case .failure(let error):
                guard attempt < settings.retries, error.isTransient else { throw error }
                delay = RetryPolicy.backoff(attempt: attempt, base: settings.retryBaseDelay, cap: settings.retryMaxDelay)
            }
            attempt += 1
            do {
                try await Task.sleep(for: delay)
            } catch {
                throw FetchError(url: request.url.absoluteString, reason: .cancelled)
            }
        }
    }

    /// One attempt of a request with headers of its own (a token, a cookie, an API key), following redirects here
    /// rather than in libcurl, which sends such headers to whatever host a redirect names (it drops only
    /// `Authorization` and `Cookie`). A redirect to another origin (scheme, host or port) goes without them. The
    /// rest is as libcurl does it: http(s) only, at most `maxRedirects`, a 301, 302 or 303 after a POST becomes a GET,
    /// and the whole chain within the request's timeout. The timeout counts the time each request spent with libcurl,
    /// not the time this task then waited for a thread: a pool busy parsing other feeds times out no redirect.
    private func performFollowingRedirects(_ first: FetchRequest) async -> Result<FetchResponse, FetchError> {
        let timeout = first.timeout ?? settings.defaultTimeout
        var request = first
        var redirects = 0
        var spent = Duration.zero
        while true {
            let began = ContinuousClock.now
            let (result, ended) = await perform(request)
            spent += ended - began
            guard case .success(let response) = result, [301, 302, 303, 307, 308].contains(response.status),
                let location = response.header("Location")?.trimmingCharacters(in: .whitespaces), !location.isEmpty
            else { return result }
            let place = request.url.absoluteString
            guard redirects < settings.maxRedirects else {
                return .failure(FetchError(url: first.url.absoluteString, reason: .tooManyRedirects(settings.maxRedirects)))
            }
            guard let next = URL(string: location, relativeTo: response.url)?.absoluteURL,
                let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else {
                return .failure(
                    FetchError(
                        url: place, reason: .invalidResponse("refused to follow a redirect to a URL that is not http(s): \(location)")))
            }
            let remaining = timeout - spent
            guard remaining >= .milliseconds(1) else {
                return .failure(FetchError(url: place, reason: .timedOut(seconds: spent.inSeconds)))
            }
            if Self.origin(of: next) != Self.origin(of: request.url) { request.headers = [] }
            if [301, 302, 303].contains(response.status) && request.method.uppercased() == "POST" || response.status == 303 {
                request.method = request.method.uppercased() == "HEAD" ? "HEAD" : "GET"
                request.body = nil
            }
            request.url = next
            request.timeout = remaining
            redirects += 1
        }
    }

    /// Scheme, host and port: what a redirect must keep for a request's own headers to go with it.
    static func origin(of url: URL) -> String {
        (url.scheme?.lowercased() ?? "") + "://" + Transfer.hostKey(of: url)
    }

    /// One attempt, cancelled with the task.
    private func perform(_ request: FetchRequest) async -> CurlMultiLoop.Outcome {
        let loop = loop(for: Transfer.hostKey(of: request.url))
        let id = loop.nextID()
        loop.began()
        defer { loop.answered() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.enqueue(id: id, request: request, continuation: continuation)
            }
        } onCancel: {
            loop.cancel(id: id)
        }
    }
}

/// A reference that does not keep its object alive, for a closure the object itself keeps.
private struct Weak<Object: AnyObject & Sendable>: Sendable {
    weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
