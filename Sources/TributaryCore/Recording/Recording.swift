public import Foundation
import TributaryJSON

/// The HTTP exchanges one source made, saved as fixtures: `tributary record SOURCE` writes them,
/// and an adapter's tests replay them through the loopback server.
///
/// On disk a recording is a folder with `exchanges.json` (method, URL, status, headers and the
/// name of each body file, in the order the requests were made) and one `NNN.body` file per
/// response, holding the body exactly as the adapter received it (already decoded from gzip, so
/// `Content-Encoding` and `Content-Length` are not kept).
public struct Recording: Sendable, Hashable {
    /// One request and the response it got.
    public struct Exchange: Sendable, Hashable {
        /// The request method.
        public var method: String
        /// The URL requested.
        public var url: String
        /// The response status.
        public var status: Int
        /// The response headers, in order, without those that describe the transfer.
        public var headers: [HTTPHeader]
        /// The response body.
        public var body: [UInt8]

        /// Creates an exchange.
        public init(method: String, url: String, status: Int, headers: [HTTPHeader], body: [UInt8]) {
            self.method = method
            self.url = url
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Headers that describe the transfer rather than the content, dropped when recording.
    public static let transferHeaders: Set<String> = [
        "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive",
    ]

    /// The source that was recorded.
    public var source: String
    /// The exchanges, in request order.
    public var exchanges: [Exchange]

    /// Creates a recording.
    public init(source: String, exchanges: [Exchange]) {
        self.source = source
        self.exchanges = exchanges
    }

    /// Why a recording could not be read or written.
    public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file concerned.
        public var path: String
        /// What went wrong.
        public var reason: String

        /// Creates an error about the file at `path`.
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        /// `path: reason`.
        public var description: String { "\(path): \(reason)" }
    }

    /// Writes the recording into `folder` (created if needed). A folder holds one recording: the
    /// `exchanges.json` of an earlier one is replaced and its `NNN.body` files that this one does
    /// not write are removed; any other file there is left alone.
    public func write(to folder: URL) throws(FileError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw FileError(path: folder.path, reason: "cannot create the folder")
        }
        var entries: [JSONValue] = []
        var bodyNames: Set<String> = []
        for (index, exchange) in exchanges.enumerated() {
            let name = String(format: "%03d.body", index + 1)
            bodyNames.insert(name)
            let headers = exchange.headers.filter { !Self.transferHeaders.contains($0.name.lowercased()) }
            entries.append(
                .object(
                    JSONObject([
                        ("method", .string(exchange.method)), ("url", .string(exchange.url)),
                        ("status", .number(JSONNumber(exchange.status))),
                        ("headers", .array(headers.map { .array([.string($0.name), .string($0.value)]) })), ("body", .string(name)),
                    ])))
            do {
                try AtomicFile.write(exchange.body, to: folder.appendingPathComponent(name))
            } catch {
                throw FileError(path: error.path, reason: error.reason)
            }
        }
        let index = JSONValue.object(JSONObject([("source", .string(source)), ("exchanges", .array(entries))]))
        do {
            try AtomicFile.write(JSONWriter.bytes(from: index) + [0x0A], to: folder.appendingPathComponent("exchanges.json"))
        } catch {
            throw FileError(path: error.path, reason: error.reason)
        }
        try Self.removeBodies(in: folder, except: bodyNames)
    }

    /// Whether `name` has the form of a body file `write(to:)` writes: three or more ASCII digits
    /// and `.body` (`001.body`, `1000.body`).
    private static func isBodyFileName(_ name: String) -> Bool {
        guard name.hasSuffix(".body") else { return false }
        let digits = name.utf8.dropLast(5)
        return digits.count >= 3 && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Removes the body files of an earlier recording in `folder` other than `kept`.
    private static func removeBodies(in folder: URL, except kept: Set<String>) throws(FileError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw FileError(path: folder.path, reason: "cannot list the folder")
        }
        for name in names.sorted() where isBodyFileName(name) && !kept.contains(name) {
            let file = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            do {
                try FileManager.default.removeItem(at: file)
            } catch {
                throw FileError(path: file.path, reason: "cannot remove this body of an earlier recording")
            }
        }
    }

    /// Reads a recording written by `write(to:)`.
    public static func read(from folder: URL) throws(FileError) -> Recording {
        let indexURL = folder.appendingPathComponent("exchanges.json")
        let index: JSONValue
        do {
            index = try JSON.parse([UInt8](try Data(contentsOf: indexURL)))
        } catch {
            throw FileError(path: indexURL.path, reason: "cannot read it as JSON: \(error)")
        }
        guard let entries = index["exchanges"]?.array else {
            throw FileError(path: indexURL.path, reason: "no 'exchanges' list")
        }
        var exchanges: [Exchange] = []
        for (position, entry) in entries.enumerated() {
            guard let method = entry["method"]?.string, let url = entry["url"]?.string, let status = entry["status"]?.int,
                let bodyName = entry["body"]?.string, !bodyName.contains("/")
            else {
                throw FileError(path: indexURL.path, reason: "exchange \(position + 1) lacks method, url, status or body")
            }
            let headers = (entry["headers"]?.array ?? []).compactMap { pair -> HTTPHeader? in
                guard let name = pair[0]?.string, let value = pair[1]?.string else { return nil }
                return HTTPHeader(name, value)
            }
            let bodyURL = folder.appendingPathComponent(bodyName)
            guard let body = try? Data(contentsOf: bodyURL) else {
                throw FileError(path: bodyURL.path, reason: "cannot read the body of exchange \(position + 1)")
            }
            exchanges.append(Exchange(method: method, url: url, status: status, headers: headers, body: [UInt8](body)))
        }
        return Recording(source: index["source"]?.string ?? folder.lastPathComponent, exchanges: exchanges)
    }
}
