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
        /// Another process holds it.
        case held(path: String, pid: Int32?)
        /// The lock file cannot be opened.
        case unusable(path: String, reason: String)

        /// Whether another process holds the lock (rather than the file being unusable).
        public var isHeld: Bool {
            if case .held = self { return true }
            return false
        }

        public var description: String {
            switch self {
            case .held(let path, let pid):
                "another run holds the lock \(path)" + (pid.map { " (PID \($0))" } ?? "")
                    + "; use --wait to wait for it to finish"
            case .unusable(let path, let reason):
                "cannot use the lock file \(path): \(reason)"
            }
        }
    }

    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock at `path`, waiting up to `wait` for a holder to finish (no wait by default).
    public init(path: String, wait: Duration = .zero) throws(Failure) {
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
        let deadline = ContinuousClock.now + wait
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .unusable(path: path, reason: reason)
            }
            if ContinuousClock.now >= deadline {
                let holder = Self.holder(descriptor)
                close(descriptor)
                throw .held(path: path, pid: holder)
            }
            usleep(50_000)
        }
        self.descriptor = descriptor
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
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
