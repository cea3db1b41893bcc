import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `run --every`: runs again and again at a fixed interval (counted from each run's start) until
/// SIGTERM, SIGINT or SIGHUP. A signal during a run lets it finish writing and release its lock; a signal
/// while a run waits for another run's lock ends the wait at once, and that run does not start; a
/// signal between runs ends the loop at once. The exit status is the last finished run's, 0 when
/// none finished (a stop is not a failure).
struct RunLoop {
    /// The interval between the starts of two runs.
    var every: Duration
    /// Where the loop says that it stops.
    var console: any Console

    /// Calls `once` until a signal stops the loop and returns the last finished run's status.
    /// `once` gets whether it is the first run, and a check that is true once a signal has
    /// arrived; it returns its run's status, or nil when that check stopped it before the run
    /// started.
    func run(_ once: (_ first: Bool, _ shouldStop: () -> Bool) async -> Int32?) async -> Int32 {
        let stop = StopSignal()
        var status: Int32 = 0
        var first = true
        while !stop.requested {
            let started = ContinuousClock.now
            if let finished = await once(first, { stop.requested }) { status = finished }
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

/// Catches SIGTERM, SIGINT and SIGHUP (instead of dying at once) and remembers that one arrived. SIGHUP
/// (the terminal closed, or a service manager's reload) stops the loop as the others do: the configuration
/// is read again by every run anyway.
///
/// On Linux, Dispatch installs its own handler for a signal when it registers the source, on a
/// thread of its own a little after `resume()`. Until then the default disposition stands, so a
/// signal in that moment ends the process as it would have before the loop started; `init`
/// returns only once both sources are registered. (Setting the signals to `SIG_IGN` first, as
/// on Darwin, made a signal in that moment vanish: about one in six sent just as a first run
/// began waiting for the lock.)
private final class StopSignal {
    /// The signal that arrived, set from Dispatch's queue.
    private final class Received: Sendable {
        let number = Mutex<Int32?>(nil)
    }

    private let received = Received()
    private let sources: [any DispatchSourceSignal]

    /// How long `init` waits for Dispatch to register the sources before going on regardless.
    private static let registrationLimit: DispatchTimeInterval = .seconds(5)

    /// Starts catching the signals.
    init() {
        let received = received
        let registered = DispatchSemaphore(value: 0)
        sources = [SIGTERM, SIGINT, SIGHUP].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received.number.withLock { $0 = number } }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            return source
        }
        for _ in sources { _ = registered.wait(timeout: .now() + Self.registrationLimit) }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    /// Whether SIGTERM, SIGINT or SIGHUP has arrived; safe to ask from any thread.
    var requested: Bool { received.number.withLock { $0 != nil } }

    /// The name of the signal that arrived, if one did.
    var signalName: String? {
        received.number.withLock { number in
            switch number {
            case SIGTERM: "SIGTERM"
            case SIGINT: "SIGINT"
            case SIGHUP: "SIGHUP"
            default: nil
            }
        }
    }
}
