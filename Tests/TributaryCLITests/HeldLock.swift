import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The state's lock held the way another run holds it (`flock` and its PID in the file), by the
/// test process itself, until `release()` or deinit. The descriptor is closed on exec, so the
/// binaries a test starts do not inherit it; they meet the lock as held.
final class HeldLock {
    /// The lock file.
    let path: String
    private var descriptor: Int32

    /// Takes the lock at `path`, creating its folder; throws when it cannot.
    init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        self.path = path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
        }
        self.descriptor = descriptor
        let text = Array("\(getpid())\n".utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// Lets go of the lock.
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
