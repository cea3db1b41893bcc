import Foundation
public import TributaryCore

#if canImport(Glibc)
    import Glibc
#endif

/// Reads `file:` URLs for sources that point at local files, with the same size limit and
/// errors as network fetches.
public struct FileFetcher: Fetcher {
    /// The size limit used when a request sets none, in bytes.
    public var defaultMaxBytes: Int

    /// Creates a file reader with a default size limit.
    public init(defaultMaxBytes: Int = 20 * 1024 * 1024) {
        self.defaultMaxBytes = defaultMaxBytes
    }

    /// Reads the file; a missing or unreadable file, a folder, or one over the limit is an error.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        FetchResponse(url: request.url, status: 200, headers: [], body: try bytes(request))
    }

    /// `fetch(_:)`'s body as an array, for a caller that reads the bytes themselves (the feed
    /// parser): read straight into an array of the file's size, not into a `Data` that grows as
    /// it reads and is then copied.
    public func bytes(_ request: FetchRequest) throws(FetchError) -> [UInt8] {
        let url = request.url
        guard url.isFileURL else {
            throw FetchError(url: url.absoluteString, reason: .unsupportedScheme(url.scheme ?? ""))
        }
        let path = url.path
        let limit = request.maxBytes ?? defaultMaxBytes
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FetchError(url: path, reason: .fileUnreadable("no such file"))
        }
        guard !isFolder.boolValue else {
            throw FetchError(url: path, reason: .fileUnreadable("it is a folder"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FetchError(url: path, reason: .fileUnreadable("permission denied"))
        }
        defer { try? handle.close() }
        let descriptor = handle.fileDescriptor
        var status = stat()
        // Read one byte past the limit to tell "exactly at the limit" from "over it". The size
        // is a hint: a file that grew, or one that reports none (`/proc`), is read on in pieces.
        let size = fstat(descriptor, &status) == 0 ? max(Int(status.st_size), 0) : 0
        var failure: Int32 = 0
        func readAll(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var filled = 0
            while filled < buffer.count {
                let count = read(descriptor, buffer.baseAddress.unsafelyUnwrapped + filled, buffer.count - filled)
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                if count <= 0 { break }
                filled += count
            }
            return filled
        }
        let capacity = min(size, limit) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in initialized = readAll(into: buffer) }
        // The rare file longer than its size said (or with no size): the rest in pieces.
        if bytes.count == capacity {
            var piece = [UInt8](repeating: 0, count: 1 << 16)
            while failure == 0, bytes.count <= limit {
                let count = piece.withUnsafeMutableBufferPointer {
                    readAll(into: UnsafeMutableBufferPointer(rebasing: $0[..<min($0.count, limit + 1 - bytes.count)]))
                }
                if count == 0 { break }
                bytes += piece[..<count]
            }
        }
        if failure != 0 {
            throw FetchError(url: path, reason: .fileUnreadable(String(cString: strerror(failure))))
        }
        guard bytes.count <= limit else {
            throw FetchError(url: path, reason: .tooLarge(limit: limit))
        }
        return bytes
    }
}
