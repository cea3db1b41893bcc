import Synchronization

/// The limits the transfer threads share: how many transfers run at once in all (`maxConnections`) and against one
/// host (`maxPerHost`). A thread takes a slot before it starts a transfer and gives it back when the transfer ends;
/// once it has started what it can of its own waiting transfers, it wakes the threads that have some waiting if
/// slots are still free (``wakeWaitingIfRoom()``), since one of those may now start.
final class TransferSlots: Sendable {
    /// Whether a transfer may start.
    enum Answer: Equatable {
        /// It may: the slot is taken.
        case taken
        /// Its host has as many transfers running as it may (another host's transfer may still start).
        case hostFull
        /// As many transfers run as may in all.
        case allFull
    }

    private struct Counts {
        var total = 0
        var perHost: [String: Int] = [:]
    }

    private let counts = Mutex(Counts())
    private let maxTotal: Int
    private let maxPerHost: Int
    /// Wakes the threads with waiting transfers; called with no lock held.
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    init(maxTotal: Int, maxPerHost: Int) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerHost = max(1, maxPerHost)
    }

    /// Sets what wakes the threads with waiting transfers (the threads are made after the slots they share).
    func onWake(_ action: (@Sendable () -> Void)?) {
        wake.withLock { $0 = action }
    }

    /// Wakes the threads with waiting transfers when a slot is free.
    func wakeWaitingIfRoom() {
        guard counts.withLock({ $0.total < maxTotal }) else { return }
        wake.withLock { $0 }?()
    }

    /// Takes a slot for a transfer to `host` when the limits allow.
    func take(host: String) -> Answer {
        counts.withLock { counts in
            guard counts.total < maxTotal else { return .allFull }
            guard counts.perHost[host, default: 0] < maxPerHost else { return .hostFull }
            counts.total += 1
            counts.perHost[host, default: 0] += 1
            return .taken
        }
    }

    /// Gives back the slot of a transfer to `host` that has ended.
    func giveBack(host: String) {
        counts.withLock { counts in
            counts.total -= 1
            let left = counts.perHost[host, default: 1] - 1
            counts.perHost[host] = left > 0 ? left : nil
        }
    }
}
