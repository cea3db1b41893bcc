import Foundation
public import TributaryCore

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
        let data: Data
        do {
            // Read one byte past the limit to tell "exactly at the limit" from "over it".
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw FetchError(url: path, reason: .fileUnreadable(error.localizedDescription))
        }
        guard data.count <= limit else {
            throw FetchError(url: path, reason: .tooLarge(limit: limit))
        }
        return FetchResponse(url: url, status: 200, headers: [], body: data)
    }
}
