import CLinux
public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files so that a reader never sees a half-written one: the bytes go to a temporary
/// file in the same folder, are flushed to disk, and the temporary file is renamed over the
/// target. A failure at any point leaves the previous file untouched.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file that was to be written.
        public var path: String
        /// The step that failed and the system's reason.
        public var reason: String

        /// `"out/river.atom: cannot create folder: Permission denied"`.
        public var description: String { "\(path): \(reason)" }
    }

    /// The prefix of temporary files, after the dot: `.<name>.tributary-tmp-<pid>-<n>`.
    static let temporaryMarker = ".tributary-tmp-"

    /// Writes `bytes` to `url` atomically, creating missing folders. The new file keeps the
    /// permissions of the file it replaces (new files get 0644 less the umask).
    public static func write(_ bytes: some Collection<UInt8>, to url: URL) throws(WriteError) {
        try write(to: url) { emit in
            if bytes.withContiguousStorageIfAvailable({ emit(UnsafeRawBufferPointer($0)) }) == nil {
                Array(bytes).withUnsafeBytes { emit($0) }
            }
        }
    }

    /// Writes the bytes `produce` hands to its `emit` function, in as many pieces as it likes,
    /// to `url` atomically: a document can go to disk as it is made instead of being held whole.
    /// After a failed write `emit` ignores the rest, and the error is thrown at the end.
    public static func write(
        to url: URL, _ produce: (_ emit: (UnsafeRawBufferPointer) -> Void) -> Void
    ) throws(WriteError) {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        if let problem = makeFolders(folder) {
            throw WriteError(path: path, reason: "cannot create folder '\(folder)': \(problem)")
        }
        removeStaleTemporaries(for: url)

        let temporary = folder + "/." + url.lastPathComponent + temporaryMarker + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var existing = stat()
        let mode: mode_t = stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw WriteError(path: path, reason: "cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
        var closed = false
        func fail(_ step: String) -> WriteError {
            let message = String(cString: strerror(errno))
            if !closed { close(descriptor) }
            unlink(temporary)
            return WriteError(path: path, reason: "\(step): \(message)")
        }
        if existing.st_mode != 0 { fchmod(descriptor, mode) }
        var written = true
        var writeErrno: Int32 = 0
        // Every few megabytes written, the disk starts on them (without waiting), so that the
        // fsync at the end finds less left to write: a 35 MB file spends less time in it.
        var writtenBytes = 0
        var startedUpTo = 0
        produce { piece in
            guard written else { return }
            written = writeAll(descriptor, piece)
            if !written { writeErrno = errno }
            writtenBytes += piece.count
            if writtenBytes - startedUpTo >= writebackStep {
                _ = sync_file_range(descriptor, startedUpTo, writtenBytes - startedUpTo, UInt32(SYNC_FILE_RANGE_WRITE))
                startedUpTo = writtenBytes
            }
        }
        guard written else {
            errno = writeErrno
            throw fail("cannot write")
        }
        guard fsync(descriptor) == 0 else { throw fail("cannot flush to disk") }
        closed = true
        guard close(descriptor) == 0 else { throw fail("cannot close") }
        guard rename(temporary, path) == 0 else { throw fail("cannot move into place") }
        // Make the rename itself durable.
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// How much is written before the disk is asked to start writing it.
    private static let writebackStep = 4 << 20

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < buffer.count {
            guard let base = buffer.baseAddress else { return true }
            let result = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += result
        }
        return true
    }

    /// Removes temporary files a killed run left beside `url`, when the process that made them is gone.
    static func removeStaleTemporaries(for url: URL) {
        let folder = url.deletingLastPathComponent().path
        let prefix = "." + url.lastPathComponent + temporaryMarker
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = rest.split(separator: "-").first.flatMap({ Int32($0) }) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                unlink(folder + "/" + name)
            }
        }
    }

    /// The system's reason for a file operation's failure (`Permission denied`), where Foundation wraps it in a
    /// sentence of its own.
    /// Creates `folder` and the folders above it that are missing (`mkdir -p`); nil, or what went wrong, in the
    /// system's words, naming a file that stands where a folder must be (Foundation said "error 512").
    static func makeFolders(_ folder: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            return isFolder.boolValue ? nil : "'\(folder)' is a file, not a folder"
        }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder, let problem = makeFolders(parent) { return problem }
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST else { return String(cString: strerror(errno)) }
        return nil
    }

    public static func systemMessage(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        // Some failures come as Foundation's own codes only, in words for a dialog box.
        if nsError.domain == NSCocoaErrorDomain {
            let number: Int32? =
                switch CocoaError.Code(rawValue: nsError.code) {
                case .fileReadNoPermission, .fileWriteNoPermission: EACCES
                case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
                case .fileWriteOutOfSpace: ENOSPC
                case .fileWriteVolumeReadOnly: EROFS
                case .fileWriteFileExists: EEXIST
                default: nil
                }
            if let number { return String(cString: strerror(number)) }
        }
        return nsError.localizedDescription
    }
}
