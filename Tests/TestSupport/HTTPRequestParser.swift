/// Why a request could not be parsed; each case maps to the status the server answers before closing.
enum HTTPParseError: Error, Equatable {
    /// The request line, a header field or the chunked framing is not valid HTTP/1.1.
    case malformed(String)
    /// The request line and headers exceed ``HTTPRequestParser/maxHeadBytes``.
    case headTooLarge
    /// The declared or de-chunked body exceeds ``HTTPRequestParser/maxBodyBytes``.
    case bodyTooLarge
    /// A `Transfer-Encoding` other than `chunked`.
    case unsupportedTransferEncoding

    /// The status code to answer with.
    var status: Int {
        switch self {
        case .malformed: 400
        case .headTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferEncoding: 501
        }
    }

    /// A one-line explanation for the response body.
    var message: String {
        switch self {
        case .malformed(let why): "Bad request: \(why)"
        case .headTooLarge: "Request head larger than \(HTTPRequestParser.maxHeadBytes) bytes"
        case .bodyTooLarge: "Request body larger than \(HTTPRequestParser.maxBodyBytes) bytes"
        case .unsupportedTransferEncoding: "Only the chunked transfer coding is supported"
        }
    }
}

/// An incremental HTTP/1.x request parser: feed it bytes with ``append(_:)`` as they arrive and take
/// complete requests with ``next()``. Handles pipelining (bytes after one request stay buffered),
/// `Content-Length` and `Transfer-Encoding: chunked` bodies, and lenient bare-LF line endings.
struct HTTPRequestParser {
    /// The largest accepted request line plus header block.
    static let maxHeadBytes = 64 * 1024
    /// The largest accepted request body.
    static let maxBodyBytes = 64 * 1024 * 1024

    private enum Framing {
        case length(Int)
        case chunked
    }

    private enum ChunkState {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer
    }

    private struct Head {
        var method: String
        var target: String
        var version: String
        var headers: [(String, String)]
        var framing: Framing
        var expectsContinue: Bool
    }

    private var buffer: [UInt8] = []
    /// Bytes before `start` are consumed.
    private var start = 0
    /// Where to resume looking for the end of the head.
    private var scanFrom = 0
    private var head: Head?
    private var chunkState = ChunkState.size
    private var chunkedBody: [UInt8] = []
    private var continueSent = false

    /// Whether unconsumed bytes are buffered (part of a next request).
    var hasBufferedBytes: Bool { start < buffer.count }

    /// True once a head announcing `Expect: 100-continue` has been parsed and its body is not complete;
    /// the caller should send `100 Continue` and call ``markContinueSent()``.
    var needsContinue: Bool {
        guard let head, head.expectsContinue, !continueSent else { return false }
        return true
    }

    /// Records that the interim `100 Continue` response was sent for the current request.
    mutating func markContinueSent() {
        continueSent = true
    }

    /// Adds received bytes to the buffer.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanFrom = max(0, scanFrom - start)
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeSubrange(0..<start)
            scanFrom = max(0, scanFrom - start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes to the buffer.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Returns the next complete request, `nil` when more bytes are needed, or throws when the bytes
    /// cannot be a valid request (the connection should then be answered with an error and closed).
    mutating func next() throws(HTTPParseError) -> LoopbackRequest? {
        if head == nil {
            guard let parsed = try parseHead() else { return nil }
            head = parsed
            chunkState = .size
            chunkedBody = []
            continueSent = false
        }
        guard let current = head else { return nil }
        let body: [UInt8]
        switch current.framing {
        case .length(let length):
            guard buffer.count - start >= length else { return nil }
            body = Array(buffer[start..<(start + length)])
            start += length
        case .chunked:
            guard try decodeChunks() else { return nil }
            body = chunkedBody
            chunkedBody = []
        }
        head = nil
        scanFrom = start
        let (path, query) = Self.split(target: current.target)
        return LoopbackRequest(
            method: current.method,
            path: path,
            query: query,
            version: current.version,
            headers: current.headers,
            body: body
        )
    }

    // MARK: - Head

    private mutating func parseHead() throws(HTTPParseError) -> Head? {
        // RFC 9112 §2.2: ignore empty lines received before the request line.
        while start < buffer.count && (buffer[start] == 0x0D || buffer[start] == 0x0A) {
            start += 1
        }
        scanFrom = max(scanFrom, start)
        guard let (headEnd, nextStart) = findHeadEnd() else {
            if buffer.count - start > Self.maxHeadBytes { throw .headTooLarge }
            scanFrom = max(start, buffer.count - 2)
            return nil
        }
        if headEnd - start > Self.maxHeadBytes { throw .headTooLarge }
        let lines = Self.lines(buffer[start..<headEnd])
        start = nextStart
        scanFrom = nextStart
        guard let requestLine = lines.first else { throw .malformed("empty request line") }
        let (method, target, version) = try Self.parseRequestLine(requestLine)
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            headers.append(try Self.parseHeaderLine(line))
        }
        let framing = try Self.framing(for: headers)
        let expectsContinue =
            version == "HTTP/1.1"
            && headers.contains { HTTPText.lowercased($0.0) == "expect" && HTTPText.lowercased($0.1) == "100-continue" }
        return Head(
            method: method,
            target: target,
            version: version,
            headers: headers,
            framing: framing,
            expectsContinue: expectsContinue
        )
    }

    /// Finds the empty line ending the head: returns the index of the LF ending the last header line
    /// and the index just past the empty line.
    private func findHeadEnd() -> (Int, Int)? {
        var index = scanFrom
        while index < buffer.count {
            if buffer[index] == 0x0A {
                if index + 1 < buffer.count && buffer[index + 1] == 0x0A {
                    return (index, index + 2)
                }
                if index + 2 < buffer.count && buffer[index + 1] == 0x0D && buffer[index + 2] == 0x0A {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// Splits head bytes at LF, dropping a CR before each LF.
    private static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String, String) {
        let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("request line must be METHOD SP target SP version") }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { throw .malformed("invalid method") }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            throw .malformed("invalid request target")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .malformed("unsupported version") }
        var target = String(decoding: parts[1], as: UTF8.self)
        if !target.hasPrefix("/") && target != "*" {
            // absolute-form (sent to proxies): keep only the path and query.
            let lower = HTTPText.lowercased(target)
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw .malformed("invalid request target")
            }
            let afterScheme = target[target.index(after: target.firstIndex(of: ":") ?? target.startIndex)...].dropFirst(2)
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                target = String(afterScheme[slash...])
                if target.hasPrefix("?") { target = "/" + target }
            } else {
                target = "/"
            }
        }
        return (String(decoding: parts[0], as: UTF8.self), target, version)
    }

    private static func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        if line.first == 0x20 || line.first == 0x09 { throw .malformed("obsolete header line folding") }
        guard let colon = line.firstIndex(of: 0x3A) else { throw .malformed("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .malformed("invalid header name") }
        let value = line[(colon + 1)...]
        guard !value.contains(where: { $0 == 0x00 || $0 == 0x0D || $0 == 0x0A }) else {
            throw .malformed("invalid character in header value")
        }
        return (
            String(decoding: name, as: UTF8.self),
            HTTPText.trimmed(String(decoding: value, as: UTF8.self))
        )
    }

    private static func framing(for headers: [(String, String)]) throws(HTTPParseError) -> Framing {
        var lengths: [String] = []
        var codings: [String] = []
        for (name, value) in headers {
            switch HTTPText.lowercased(name) {
            case "content-length":
                lengths += value.split(separator: ",", omittingEmptySubsequences: false).map { HTTPText.trimmed(String($0)) }
            case "transfer-encoding":
                codings += value.split(separator: ",").map { HTTPText.lowercased(HTTPText.trimmed(String($0))) }
            default:
                break
            }
        }
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .malformed("both Content-Length and Transfer-Encoding") }
            guard codings == ["chunked"] else { throw .unsupportedTransferEncoding }
            return .chunked
        }
        guard let first = lengths.first else { return .length(0) }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(first)
        else { throw .malformed("invalid Content-Length") }
        guard length <= maxBodyBytes else { throw .bodyTooLarge }
        return .length(length)
    }

    // MARK: - Chunked bodies

    /// Advances through chunked framing; returns true once the terminating chunk and trailers are consumed.
    private mutating func decodeChunks() throws(HTTPParseError) -> Bool {
        while true {
            switch chunkState {
            case .size:
                guard let lineEnd = buffer[start...].firstIndex(of: 0x0A) else {
                    if buffer.count - start > 4_096 { throw .malformed("chunk size line too long") }
                    return false
                }
                var line = buffer[start..<lineEnd]
                if line.last == 0x0D { line = line.dropLast() }
                if let semicolon = line.firstIndex(of: 0x3B) { line = line[line.startIndex..<semicolon] }
                let digits = HTTPText.trimmed(String(decoding: line, as: UTF8.self))
                guard !digits.isEmpty, digits.utf8.count <= 15, let size = Int(digits, radix: 16), size >= 0,
                    !digits.hasPrefix("+"), !digits.hasPrefix("-")
                else { throw .malformed("invalid chunk size") }
                guard chunkedBody.count + size <= Self.maxBodyBytes else { throw .bodyTooLarge }
                start = lineEnd + 1
                chunkState = size == 0 ? .trailer : .data(remaining: size)
            case .data(let remaining):
                let available = min(remaining, buffer.count - start)
                guard available > 0 else { return false }
                chunkedBody.append(contentsOf: buffer[start..<(start + available)])
                start += available
                chunkState = remaining == available ? .dataEnd : .data(remaining: remaining - available)
            case .dataEnd:
                guard start < buffer.count else { return false }
                if buffer[start] == 0x0A {
                    start += 1
                } else if buffer[start] == 0x0D {
                    guard start + 1 < buffer.count else { return false }
                    guard buffer[start + 1] == 0x0A else { throw .malformed("chunk data not followed by CRLF") }
                    start += 2
                } else {
                    throw .malformed("chunk data not followed by CRLF")
                }
                chunkState = .size
            case .trailer:
                guard let lineEnd = buffer[start...].firstIndex(of: 0x0A) else {
                    if buffer.count - start > Self.maxHeadBytes { throw .headTooLarge }
                    return false
                }
                let isEmpty = lineEnd == start || (lineEnd == start + 1 && buffer[start] == 0x0D)
                start = lineEnd + 1
                if isEmpty { return true }
            }
        }
    }

    // MARK: - Helpers

    /// Splits a request target into the path and the raw query (after the first `?`).
    private static func split(target: String) -> (String, String?) {
        guard let question = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<question]), String(target[target.index(after: question)...]))
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
