import Synchronization

/// A small HTTP/1.1 server on `127.0.0.1` for tests of HTTP clients.
///
/// It listens on an ephemeral port from `init()` on, serves each connection on its own thread (with
/// keep-alive and pipelining), answers registered paths with scripted ``LoopbackRoute`` behaviours, and
/// records every request and some connection statistics. Several servers can run in one process.
///
/// ```swift
/// let server = try LoopbackServer()
/// server.route("/feed.xml", .cached(text: xml, contentType: "application/rss+xml", etag: "\"v1\""))
/// // ... fetch server.url("/feed.xml") ...
/// #expect(server.requestCount("/feed.xml") == 2)
/// ```
///
/// Call ``stop()`` (or drop the last reference) to close everything; a handler closure that captures
/// the server keeps it alive until ``stop()`` is called.
public final class LoopbackServer: Sendable {
    private let core: LoopbackServerCore

    /// The TCP port the server listens on (chosen by the system).
    public let port: Int

    /// Opens a listening socket on `127.0.0.1` with an ephemeral port and starts accepting connections.
    /// Throws ``LoopbackServerError`` if a system call fails.
    ///
    /// A server that answers many clients for long (the benchmark's) passes `recordsRequests: false`: it then
    /// keeps no log (``requestCount(_:)``, ``requests(_:)`` and ``allRequests`` see nothing), so it neither
    /// grows with every request nor copies each one into the log under the lock its connection threads share.
    public init(recordsRequests: Bool = true) throws {
        let core = try LoopbackServerCore(recordsRequests: recordsRequests)
        try core.start()
        self.core = core
        self.port = core.port
    }

    deinit {
        core.stop()
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// ``baseURL`` followed by `path` (which should start with `/`, and may include a query).
    public func url(_ path: String) -> String {
        baseURL + path
    }

    /// Registers (or replaces) the behaviour for requests whose path, without the query, equals `path`.
    /// Safe to call while serving; replacing a route restarts its ``LoopbackRoute/sequence(_:)``.
    /// Unregistered paths get `404 Not Found`.
    public func route(_ path: String, _ behaviour: LoopbackRoute) {
        core.state.withLock { $0.routes[path] = LoopbackServerCore.RouteEntry(route: behaviour, hits: 0) }
    }

    /// Closes the listening socket and every connection (interrupting delays, stalls and streams),
    /// and waits for all server threads to finish. Idempotent; also called by `deinit`.
    /// A custom handler that is still running is waited for, so do not call this from a handler.
    public func stop() {
        core.stop()
    }

    // MARK: - Observations

    /// How many requests for `path` (without the query) were received since start or ``resetCounters()``.
    public func requestCount(_ path: String) -> Int {
        core.state.withLock { state in state.log.reduce(0) { $0 + ($1.path == path ? 1 : 0) } }
    }

    /// The requests for `path` (without the query), in arrival order.
    public func requests(_ path: String) -> [LoopbackRequest] {
        core.state.withLock { state in state.log.filter { $0.path == path } }
    }

    /// Every request received, whatever its path, in arrival order.
    public var allRequests: [LoopbackRequest] {
        core.state.withLock { $0.log }
    }

    /// The most requests in flight at once across all paths. A request is in flight from the moment it has
    /// been read completely until its response is fully written or abandoned.
    public var maxConcurrentRequests: Int {
        core.maxInFlight.load(ordering: .relaxed)
    }

    /// The most TCP connections open at once.
    public var maxConcurrentConnections: Int {
        core.state.withLock { $0.maxOpenConnections }
    }

    /// How many connections were accepted in total; fewer than the request count shows connection reuse.
    public var connectionCount: Int {
        core.state.withLock { $0.acceptedConnections }
    }

    /// The requests in flight right now.
    public var requestsInFlight: Int {
        core.inFlight.load(ordering: .relaxed)
    }

    /// The connections open right now (each has a serving thread).
    public var openConnections: Int {
        core.state.withLock { $0.openConnections }
    }

    /// Forgets the recorded requests, sets ``connectionCount`` to zero and the two maxima to the current
    /// levels. Route ``LoopbackRoute/sequence(_:)`` positions are kept.
    public func resetCounters() {
        core.state.withLock { state in
            state.log = []
            state.acceptedConnections = 0
            core.maxInFlight.store(core.inFlight.load(ordering: .relaxed), ordering: .relaxed)
            state.maxOpenConnections = state.openConnections
        }
    }

    /// Formats a time as an HTTP date (IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`), handy for
    /// `Last-Modified` values.
    public static func httpDate(secondsSince1970: Int) -> String {
        HTTPResponseHead.imfFixdate(secondsSince1970: secondsSince1970)
    }
}
