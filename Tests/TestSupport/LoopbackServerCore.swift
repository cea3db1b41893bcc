import Glibc
import Synchronization

/// The listening socket, the threads and the shared state behind a ``LoopbackServer``.
///
/// Threads retain the core, never the public ``LoopbackServer``, so dropping the last reference to the
/// server runs its `deinit`, which stops the core. All mutable state lives in `state` (a `Mutex`) but the two
/// in-flight counters (atomics); the remaining stored properties are immutable, so the type is checked `Sendable`.
final class LoopbackServerCore: Sendable {
    /// A registered route and how many requests it has served (the index for ``LoopbackRoute/sequence(_:)``).
    struct RouteEntry {
        var route: LoopbackRoute
        var hits: Int
    }

    /// Everything the accept thread, the connection threads and the test thread share.
    struct State {
        var routes: [String: RouteEntry] = [:]
        var log: [LoopbackRequest] = []
        var openConnections = 0
        var maxOpenConnections = 0
        var acceptedConnections = 0
        /// Sockets of live connections, so `stop()` can shut them down; removed before they are closed.
        var sockets: [Int: Int32] = [:]
        /// Handles of connection threads not yet joined.
        var threads: [Int: pthread_t] = [:]
        /// Connections whose thread has finished and can be joined without blocking for long.
        var finished: [Int] = []
        var nextConnectionID = 0
        var stopping = false
        var acceptThread: pthread_t?
    }

    /// How long a connection may sit idle (between or inside requests) before the server closes it.
    static let idleTimeoutMilliseconds = 60_000

    let port: Int
    let state = Mutex(State())
    /// Requests in flight, and the most at once: counted outside `state`, so that a request takes its lock once.
    let inFlight = Atomic<Int>(0)
    let maxInFlight = Atomic<Int>(0)
    /// Whether requests are kept in `State.log`.
    private let recordsRequests: Bool
    /// Becomes true when a `stop()` has completed; held for the whole of `stop()` so concurrent callers wait.
    private let stopped = Mutex(false)
    private let listenFD: Int32
    /// A socket pair used as a broadcast: one byte is written to `stopSignalWrite` when stopping begins and
    /// never read, so `stopSignalRead` stays readable and wakes every `poll` that watches it.
    let stopSignalRead: Int32
    private let stopSignalWrite: Int32

    init(recordsRequests: Bool = true) throws(LoopbackServerError) {
        let streamCloexec = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, streamCloexec, 0, &pair) == 0 else {
            throw LoopbackServerError(operation: "socketpair", code: errno)
        }
        let listener = socket(AF_INET, streamCloexec, 0)
        guard listener >= 0 else {
            let code = errno
            _ = close(pair[0])
            _ = close(pair[1])
            throw LoopbackServerError(operation: "socket", code: code)
        }
        func fail(_ operation: String) -> LoopbackServerError {
            let error = LoopbackServerError(operation: operation, code: errno)
            _ = close(listener)
            _ = close(pair[0])
            _ = close(pair[1])
            return error
        }
        var one: Int32 = 1
        guard setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw fail("setsockopt(SO_REUSEADDR)")
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(INADDR_LOOPBACK).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw fail("bind(127.0.0.1:0)") }
        guard listen(listener, 128) == 0 else { throw fail("listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else { throw fail("getsockname") }
        // Non-blocking, so a connection that vanishes between poll and accept cannot block the accept thread.
        let flags = fcntl(listener, F_GETFL)
        guard flags >= 0, fcntl(listener, F_SETFL, flags | O_NONBLOCK) == 0 else { throw fail("fcntl(O_NONBLOCK)") }

        self.listenFD = listener
        self.recordsRequests = recordsRequests
        self.stopSignalRead = pair[0]
        self.stopSignalWrite = pair[1]
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        // Only now can no thread be polling the stop signal any more (each one retains the core).
        _ = close(stopSignalRead)
        _ = close(stopSignalWrite)
    }

    /// Starts the accept thread.
    func start() throws(LoopbackServerError) {
        guard let thread = LoopbackThread.spawn({ [self] in acceptLoop() }) else {
            stop()
            throw LoopbackServerError(operation: "pthread_create", code: errno)
        }
        state.withLock { $0.acceptThread = thread }
    }

    /// Stops accepting, shuts down every connection, joins every thread. Idempotent.
    func stop() {
        stopped.withLock { done in
            guard !done else { return }
            done = true
            let acceptThread = state.withLock { state in
                state.stopping = true
                // Dropping the routes breaks reference cycles through handler closures.
                state.routes = [:]
                return state.acceptThread
            }
            var byte: UInt8 = 1
            _ = Glibc.send(stopSignalWrite, &byte, 1, Int32(MSG_NOSIGNAL))
            if let acceptThread { LoopbackThread.join(acceptThread) }
            _ = close(listenFD)
            // No thread can be spawned any more; interrupt blocked sends and receives, then join.
            let threads = state.withLock { state in
                for fd in state.sockets.values { shutdown(fd, Int32(SHUT_RDWR)) }
                let threads = Array(state.threads.values)
                state.threads = [:]
                state.finished = []
                return threads
            }
            for thread in threads { LoopbackThread.join(thread) }
        }
    }

    // MARK: - Accepting

    private func acceptLoop() {
        while true {
            var fds = [
                pollfd(fd: stopSignalRead, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 { return }
            reapFinishedThreads()
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of resources: back off briefly instead of spinning.
                    var signal = [pollfd(fd: stopSignalRead, events: Int16(POLLIN), revents: 0)]
                    _ = poll(&signal, 1, 50)
                    continue
                default:
                    return
                }
            }
            // Another thread may fork+exec between accept and here; the close-on-exec gap is harmless
            // because connections are always shut down (not just closed) when they end.
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let id: Int? = state.withLock { state in
                guard !state.stopping else { return nil }
                let id = state.nextConnectionID
                state.nextConnectionID += 1
                state.sockets[id] = fd
                state.acceptedConnections += 1
                state.openConnections += 1
                state.maxOpenConnections = max(state.maxOpenConnections, state.openConnections)
                return id
            }
            guard let id else {
                shutdown(fd, Int32(SHUT_RDWR))
                _ = close(fd)
                return
            }
            if let thread = LoopbackThread.spawn({ [self] in serveConnection(id: id, fd: fd) }) {
                state.withLock { $0.threads[id] = thread }
            } else {
                state.withLock { state in
                    state.sockets[id] = nil
                    state.openConnections -= 1
                }
                shutdown(fd, Int32(SHUT_RDWR))
                _ = close(fd)
            }
        }
    }

    /// Joins connection threads that have announced they are finishing.
    private func reapFinishedThreads() {
        let done = state.withLock { state in
            let ids = state.finished
            state.finished = []
            return ids.compactMap { state.threads.removeValue(forKey: $0) }
        }
        for thread in done { LoopbackThread.join(thread) }
    }

    // MARK: - Connections

    private func serveConnection(id: Int, fd: Int32) {
        let socket = LoopbackSocket(fd: fd, stopSignal: stopSignalRead)
        var parser = HTTPRequestParser()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        serving: while true {
            do {
                if let request = try parser.next() {
                    if exchange(request, on: socket) { continue serving }
                    break serving
                }
            } catch {
                let response = LoopbackResponse(status: error.status, text: error.message + "\n")
                let request = LoopbackRequest(method: "GET", path: "/")
                _ = send(response, for: request, keepAlive: false, on: socket)
                break serving
            }
            if parser.needsContinue {
                socket.sendAll(HTTPResponseHead.serialize(status: 100, headers: []))
                parser.markContinueSent()
            }
            switch socket.receive(into: buffer, timeoutMilliseconds: Self.idleTimeoutMilliseconds) {
            case .received(let count):
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .closed, .timedOut, .stopped:
                break serving
            }
        }
        state.withLock { _ = $0.sockets.removeValue(forKey: id) }
        socket.close(linger: true)
        state.withLock { state in
            state.openConnections -= 1
            state.finished.append(id)
        }
    }

    /// Records `request`, runs its route and reports whether the connection stays open.
    private func exchange(_ request: LoopbackRequest, on socket: LoopbackSocket) -> Bool {
        let lookup: (route: LoopbackRoute?, ordinal: Int)? = state.withLock { state in
            guard !state.stopping else { return nil }
            if recordsRequests { state.log.append(request) }
            guard let entry = state.routes[request.path] else { return (nil, 0) }
            state.routes[request.path]?.hits += 1
            return (entry.route, entry.hits)
        }
        guard let lookup else { return false }
        let count = inFlight.wrappingAdd(1, ordering: .relaxed).newValue
        var highest = maxInFlight.load(ordering: .relaxed)
        while count > highest {
            let (exchanged, original) = maxInFlight.compareExchange(expected: highest, desired: count, ordering: .relaxed)
            if exchanged { break }
            highest = original
        }
        defer { inFlight.wrappingSubtract(1, ordering: .relaxed) }
        let keepAlive = request.wantsKeepAlive
        guard let route = lookup.route else {
            let response = LoopbackResponse(status: 404, text: "No route for \(request.path)\n")
            return send(response, for: request, keepAlive: keepAlive, on: socket)
        }
        return perform(route, for: request, ordinal: lookup.ordinal, keepAlive: keepAlive, on: socket)
    }
}

/// A system call failed while setting up a ``LoopbackServer``.
public struct LoopbackServerError: Error, CustomStringConvertible {
    /// The failing operation, for example `bind(127.0.0.1:0)`.
    public let operation: String
    /// The `errno` value it reported.
    public let code: Int32

    /// A readable description including the system's error message.
    public var description: String {
        "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}
