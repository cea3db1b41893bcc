internal import CCurl
internal import CTributaryCurl
import Foundation
import Synchronization
import TributaryCore

/// Owns libcurl's multi handle and the thread that drives it. A fetcher may run several, which share their limits
/// (``TransferSlots``).
///
/// Threading: every `CURL*` and the `CURLM*` are created, used and freed on the loop thread
/// only. Other threads touch nothing but the mutex-protected inbox and the atomic counts, and call
/// `curl_multi_wakeup`, which libcurl documents as thread-safe. That is what makes the
/// `@unchecked Sendable` below sound.
final class CurlMultiLoop: @unchecked Sendable {
    /// What a request's task is resumed with: the result, and when the loop had it (not when the task, waiting for a
    /// thread of the cooperative pool, ran again).
    typealias Outcome = (result: Result<FetchResponse, FetchError>, ended: ContinuousClock.Instant)
    typealias Continuation = CheckedContinuation<Outcome, Never>

    /// What other threads hand to the loop.
    private struct Inbox {
        var added: [Transfer] = []
        var cancelled: [Int] = []
        var shutdown = false
        var nextID = 0
        /// Whether the loop is (about to be) waiting in `curl_multi_poll`: only then does a new request need to wake
        /// it; a busy loop takes it from the inbox on its next round anyway.
        var polling = false
    }

    private let settings: HTTPSettings
    private let inbox = Mutex(Inbox())
    /// Only touched on the loop thread (set once before the thread starts).
    private let multi: UnsafeMutableRawPointer?
    /// The limits shared with the fetcher's other loops.
    private let slots: TransferSlots
    /// Requests handed to this loop and not yet answered (the fetcher gives a new one to the least busy loop).
    private let inFlight = Atomic<Int>(0)
    /// How many transfers wait on the loop thread for a slot (read by other threads to know whom to wake).
    private let waitingCount = Atomic<Int>(0)

    // Loop-thread state.
    private var waiting: [Transfer] = [] {
        didSet { waitingCount.store(waiting.count, ordering: .relaxed) }
    }
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Whether a transfer ended since the other loops were last told of free slots.
    private var gaveBack = false

    static let globalInit: Bool = {
        tributary_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    init(settings: HTTPSettings, slots: TransferSlots) {
        _ = Self.globalInit
        self.settings = settings
        self.slots = slots
        self.multi = tributary_curl_multi_init()
        if let multi {
            _ = tributary_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, settings.maxConnections)
            _ = tributary_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxPerHost)
            _ = tributary_multi_setopt_long(multi, CURLMOPT_PIPELINING, 2)  // CURLPIPE_MULTIPLEX: HTTP/2 streams share a connection
        }
        let thread = Thread { [self] in run() }
        thread.name = "tributary-curl"
        thread.start()
    }

    /// Requests handed to this loop and not yet answered.
    var load: Int { inFlight.load(ordering: .relaxed) }

    /// Requests handed to this loop in all.
    var taken: Int { handed.load(ordering: .relaxed) }
    private let handed = Atomic<Int>(0)

    /// Counts a request handed to this loop, until ``answered()``.
    func began() {
        inFlight.add(1, ordering: .relaxed)
        handed.add(1, ordering: .relaxed)
    }

    /// Counts a request of this loop answered.
    func answered() {
        inFlight.subtract(1, ordering: .relaxed)
    }

    /// Wakes the loop when transfers wait on it for a slot: one has just been given back.
    func wakeIfWaiting() {
        guard waitingCount.load(ordering: .relaxed) > 0, let multi else { return }
        tributary_curl_multi_wakeup(multi)
    }

    func nextID() -> Int {
        inbox.withLock { inbox in
            inbox.nextID += 1
            return inbox.nextID
        }
    }

    /// Hands a request to the loop; the continuation is resumed exactly once.
    func enqueue(id: Int, request: FetchRequest, continuation: Continuation) {
        let transfer = Transfer(id: id, request: request, settings: settings, continuation: continuation)
        let (accepted, wake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.shutdown else { return (false, false) }
            inbox.added.append(transfer)
            defer { inbox.polling = false }
            return (true, inbox.polling)
        }
        guard accepted, let multi else {
            continuation.resume(returning: (.failure(FetchError(url: request.url.absoluteString, reason: .cancelled)), .now))
            return
        }
        if wake { tributary_curl_multi_wakeup(multi) }
    }

    /// Cancels a request, whether it is waiting or running.
    func cancel(id: Int) {
        inbox.withLock { $0.cancelled.append(id) }
        if let multi { tributary_curl_multi_wakeup(multi) }
    }

    /// Stops the loop: transfers still waiting or running fail as cancelled.
    func shutdown() {
        inbox.withLock { $0.shutdown = true }
        if let multi { tributary_curl_multi_wakeup(multi) }
    }

    // MARK: The loop thread

    private func run() {
        ThreadArena.reserveForThisThread()
        guard let multi else {
            let reason = tributary_curl_load_error().map { String(cString: $0) } ?? "libcurl could not be initialised"
            return failEverything(reason: .other(reason))
        }
        defer { tributary_curl_multi_cleanup(multi) }
        while true {
            let (added, cancelled, shutdown) = inbox.withLock { inbox in
                defer {
                    inbox.added.removeAll()
                    inbox.cancelled.removeAll()
                    inbox.polling = false
                }
                return (inbox.added, inbox.cancelled, inbox.shutdown)
            }
            waiting.append(contentsOf: added)
            for id in cancelled { cancelTransfer(id: id, multi: multi) }
            if shutdown {
                for transfer in active.values { finish(transfer, multi: multi, failure: .cancelled) }
                return failEverything(reason: .cancelled)
            }
            startWaiting(multi: multi)

            var running: Int32 = 0
            tributary_curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = tributary_curl_multi_info_read(multi, &queued) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = active[easy]
                else { continue }
                complete(transfer, code: message.pointee.data.result, multi: multi)
            }
            startWaiting(multi: multi)
            // What this loop's own waiting transfers left of the slots its ended ones gave back may start another's.
            if gaveBack {
                gaveBack = false
                slots.wakeWaitingIfRoom()
            }
            // Waits only when nothing came in meanwhile; a request that comes in from here on wakes the poll.
            let idle = inbox.withLock { inbox -> Bool in
                inbox.polling = inbox.added.isEmpty && inbox.cancelled.isEmpty && !inbox.shutdown
                return inbox.polling
            }
            if idle { tributary_curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
    }

    /// Starts waiting transfers, in order, while the shared global and per-host limits allow.
    private func startWaiting(multi: UnsafeMutableRawPointer) {
        guard !waiting.isEmpty else { return }
        var index = 0
        scan: while index < waiting.count {
            let transfer = waiting[index]
            switch slots.take(host: transfer.hostKey) {
            case .allFull: break scan
            case .hostFull:
                index += 1
                continue
            case .taken: break
            }
            waiting.remove(at: index)
            guard let easy = transfer.start() else {
                slots.giveBack(host: transfer.hostKey)
                gaveBack = true
                transfer.resume(
                    .failure(FetchError(url: transfer.request.url.absoluteString, reason: .other("libcurl could not create a transfer"))))
                continue
            }
            active[easy] = transfer
            tributary_curl_multi_add_handle(multi, easy)
        }
    }

    private func cancelTransfer(id: Int, multi: UnsafeMutableRawPointer) {
        if let index = waiting.firstIndex(where: { $0.id == id }) {
            let transfer = waiting.remove(at: index)
            transfer.resume(.failure(FetchError(url: transfer.request.url.absoluteString, reason: .cancelled)))
        } else if let transfer = active.values.first(where: { $0.id == id }) {
            finish(transfer, multi: multi, failure: .cancelled)
        }
    }

    /// A transfer libcurl reports done.
    private func complete(_ transfer: Transfer, code: CURLcode, multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        if code == CURLE_OK {
            var status = 0
            _ = tributary_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            let response = FetchResponse(
                url: transfer.effectiveURL() ?? transfer.request.url, status: status, headers: transfer.headers,
                body: transfer.body)
            detach(transfer, multi: multi)
            transfer.resume(.success(response))
        } else {
            let reason = transfer.reason(for: code)
            detach(transfer, multi: multi)
            transfer.resume(.failure(FetchError(url: transfer.request.url.absoluteString, reason: reason)))
        }
    }

    private func finish(_ transfer: Transfer, multi: UnsafeMutableRawPointer, failure: FetchError.Reason) {
        detach(transfer, multi: multi)
        transfer.resume(.failure(FetchError(url: transfer.request.url.absoluteString, reason: failure)))
    }

    /// Removes a running transfer from the multi handle and frees its libcurl resources.
    private func detach(_ transfer: Transfer, multi: UnsafeMutableRawPointer) {
        guard let easy = transfer.easy else { return }
        tributary_curl_multi_remove_handle(multi, easy)
        active[easy] = nil
        transfer.cleanUp()
        slots.giveBack(host: transfer.hostKey)
        gaveBack = true
    }

    private func failEverything(reason: FetchError.Reason) {
        let leftovers = inbox.withLock { inbox -> [Transfer] in
            inbox.shutdown = true
            defer { inbox.added.removeAll() }
            return inbox.added
        }
        for transfer in waiting + leftovers {
            transfer.resume(.failure(FetchError(url: transfer.request.url.absoluteString, reason: reason)))
        }
        waiting.removeAll()
    }
}
