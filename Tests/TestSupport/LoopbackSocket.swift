import Glibc

/// Blocking I/O on one connected socket. Every wait also watches the server's stop signal (a descriptor
/// that becomes readable once ``LoopbackServer/stop()`` begins), and every send uses `MSG_NOSIGNAL`
/// so a vanished client yields an error instead of `SIGPIPE`.
struct LoopbackSocket {
    /// The connected socket.
    let fd: Int32
    /// Readable once the server is stopping.
    let stopSignal: Int32

    /// The outcome of waiting for input.
    enum ReceiveResult {
        /// This many bytes were stored.
        case received(Int)
        /// The peer closed its side or the connection failed.
        case closed
        /// The server is stopping.
        case stopped
        /// Nothing arrived in time.
        case timedOut
    }

    /// The outcome of a pause.
    enum PauseResult {
        /// The full time elapsed.
        case elapsed
        /// The server is stopping.
        case stopped
        /// The client closed or reset the connection.
        case peerGone
    }

    /// `POLLRDHUP` (Linux, `_GNU_SOURCE`): the peer shut down its writing side. Not exported by the Glibc module.
    private static let pollReadHangUp: Int16 = 0x2000

    /// Waits up to `timeoutMilliseconds` (negative: forever) for input and reads it into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int) -> ReceiveResult {
        let deadline = ContinuousClock.now + .milliseconds(max(0, timeoutMilliseconds))
        while true {
            var fds = [
                pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0),
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            ]
            let wait = timeoutMilliseconds < 0 ? -1 : Self.millisecondsUntil(deadline)
            let ready = poll(&fds, 2, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                return .closed
            }
            if fds[0].revents != 0 { return .stopped }
            if ready == 0 {
                if timeoutMilliseconds >= 0 && ContinuousClock.now >= deadline { return .timedOut }
                continue
            }
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .received(count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            return .closed
        }
    }

    /// Sends every byte; returns false when the connection failed (client gone, or the server stopping,
    /// which shuts the socket down and so interrupts a blocked send).
    @discardableResult
    func sendAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                guard let base = raw.baseAddress else { return false }
                let sent = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += sent
            }
            return true
        }
    }

    /// Sleeps for `milliseconds`, returning early when the server stops or (if `watchPeer`) the client
    /// closes or resets the connection.
    func pause(milliseconds: Int, watchPeer: Bool) -> PauseResult {
        let deadline = ContinuousClock.now + .milliseconds(max(0, milliseconds))
        while true {
            var fds = [
                pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0),
                pollfd(fd: watchPeer ? fd : -1, events: Self.pollReadHangUp, revents: 0),
            ]
            let ready = poll(&fds, 2, Self.millisecondsUntil(deadline))
            if ready < 0 && errno != EINTR { return .elapsed }
            if fds[0].revents != 0 { return .stopped }
            if fds[1].revents != 0 { return .peerGone }
            if ContinuousClock.now >= deadline { return .elapsed }
        }
    }

    /// Closes the connection politely: sends FIN first, then (unless the server is stopping) briefly
    /// drains input so unread request bytes do not turn the close into a reset that could destroy the
    /// response still in flight, then releases the descriptor.
    func close(linger: Bool) {
        shutdown(fd, Int32(SHUT_WR))
        if linger {
            var drained = 0
            let deadline = ContinuousClock.now + .milliseconds(500)
            withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 1) { scratch in
                while drained < 1 << 20 && ContinuousClock.now < deadline {
                    switch receive(into: scratch, timeoutMilliseconds: Int(Self.millisecondsUntil(deadline))) {
                    case .received(let count): drained += count
                    case .closed, .stopped, .timedOut: return
                    }
                }
            }
        }
        _ = Glibc.close(fd)
    }

    private static func millisecondsUntil(_ deadline: ContinuousClock.Instant) -> Int32 {
        let remaining = ContinuousClock.now.duration(to: deadline)
        if remaining <= .zero { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }
}
