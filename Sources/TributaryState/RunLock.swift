import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An advisory lock (`flock`) on a file beside the state, held for a whole run so that two
/// overlapping runs never interleave. The holder writes its PID into the file, so the run that
/// finds it taken can say who holds it. The kernel releases the lock when the process ends, however
/// it ends, so a killed run never leaves a stale lock behind.
public final class RunLock: Sendable {
    /// Why the lock could not be taken.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// Another process holds it (and still did when the wait, if any, ran out).
        case held(path: String, pid: Int32?)
        /// The lock file cannot be opened or locked.
        case unusable(path: String, reason: String)
        /// The caller asked to stop while waiting for the holder to finish.
        case interrupted(path: String)

        /// Whether another process holds the lock (rather than the file being unusable or the wait stopped).
        public var isHeld: Bool {
            if case .held = self { return true }
            return false
        }

        /// One line naming the lock; what to do about it is the caller's to add.
        public var description: String {
            switch self {
            case .held(let path, let pid):
                "another run holds the lock \(path)" + (pid.map { " (PID \($0))" } ?? "")
            case .unusable(let path, let reason):
                "cannot use the lock file \(path): \(reason)"
            case .interrupted(let path):
                "stopped waiting for the lock \(path)"
            }
        }
    }

    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// How often a waiting lock tries again (and checks whether to stop), in microseconds.
    private static let pollInterval: UInt32 = 50_000

    /// Takes the lock at `path`, waiting up to `wait` for a holder to finish (no wait by default).
    ///
    /// When the lock is held and `wait` is not zero, `waiting` is called once, with the holder's
    /// PID if it is readable, before the wait starts. `shouldStop` is called before each retry
    /// (every 50 ms) and ends the wait with `Failure.interrupted` when it returns true. Both run
    /// on the calling thread, which the wait blocks.
    public init(
        path: String, wait: Duration = .zero, waiting: (_ holder: Int32?) -> Void = { _ in },
        shouldStop: () -> Bool = { false }
    ) throws(Failure) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        do {
            try Self.acquire(descriptor, path: path, wait: wait, waiting: waiting, shouldStop: shouldStop)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Locks `descriptor`, retrying until the lock is free, `wait` runs out or `shouldStop` says so.
    private static func acquire(
        _ descriptor: Int32, path: String, wait: Duration, waiting: (Int32?) -> Void, shouldStop: () -> Bool
    ) throws(Failure) {
        let deadline = ContinuousClock.now + wait
        var announced = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .unusable(path: path, reason: String(cString: strerror(errno)))
            }
            if ContinuousClock.now >= deadline { throw .held(path: path, pid: holder(descriptor)) }
            if !announced {
                announced = true
                waiting(holder(descriptor))
            }
            if shouldStop() { throw .interrupted(path: path) }
            usleep(pollInterval)
        }
    }

    deinit {
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The PID the holder wrote, if it is readable.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
