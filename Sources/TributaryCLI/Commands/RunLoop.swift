import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `run --every`: runs again and again at a fixed interval (counted from each run's start) until
/// SIGTERM or SIGINT. A signal during a run lets it finish writing and release its lock; a signal
/// between runs ends the loop at once. The exit status is the last run's.
struct RunLoop {
    var every: Duration
    var console: any Console

    func run(_ once: (_ first: Bool) async -> Int32) async -> Int32 {
        let stop = StopSignal()
        var status: Int32 = 0
        var first = true
        while !stop.requested {
            let started = ContinuousClock.now
            status = await once(first)
            first = false
            ProcessMemory.returnFreeMemory()
            let next = started + every
            while !stop.requested, ContinuousClock.now < next {
                try? await Task.sleep(for: min(.milliseconds(200), next - ContinuousClock.now))
            }
        }
        console.diagnostic("\(CommandLineTool.programName): stopping on signal \(stop.signalName ?? "")")
        return status
    }
}

/// Catches SIGTERM and SIGINT (instead of dying at once) and remembers that one arrived.
private final class StopSignal {
    /// The signal that arrived, set from Dispatch's queue.
    private final class Received: Sendable {
        let number = Mutex<Int32?>(nil)
    }

    private let received = Received()
    private let sources: [any DispatchSourceSignal]

    init() {
        let received = received
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received.number.withLock { $0 = number } }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    var requested: Bool { received.number.withLock { $0 != nil } }

    var signalName: String? {
        received.number.withLock { number in
            switch number {
            case SIGTERM: "SIGTERM"
            case SIGINT: "SIGINT"
            default: nil
            }
        }
    }
}
