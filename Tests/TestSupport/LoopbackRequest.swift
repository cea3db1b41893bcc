/// One HTTP request as received by a ``LoopbackServer``.
public struct LoopbackRequest: Sendable {
    /// The request method exactly as sent, for example `GET` or `POST`.
    public var method: String
    /// The path of the request target without the query, for example `/feed.xml`. Not percent-decoded.
    public var path: String
    /// The raw query (the part after the first `?`, not decoded), or `nil` when the target has no `?`.
    public var query: String?
    /// The protocol version from the request line: `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    /// The header fields in the order received, names with their original spelling.
    public var headers: [(String, String)]
    /// The request body, de-chunked when it was sent with `Transfer-Encoding: chunked`.
    public var body: [UInt8]

    /// Creates a request value; the server builds these, tests may build them to call handlers directly.
    public init(
        method: String,
        path: String,
        query: String? = nil,
        version: String = "HTTP/1.1",
        headers: [(String, String)] = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name` (matched case-insensitively), or `nil` when absent.
    /// Repeated fields are combined into one value separated by `", "`, as RFC 9110 allows for list fields.
    public func header(_ name: String) -> String? {
        let values = headerValues(name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Every value of the header `name` (matched case-insensitively), in the order received.
    public func headerValues(_ name: String) -> [String] {
        let wanted = HTTPText.lowercased(name)
        return headers.filter { HTTPText.lowercased($0.0) == wanted }.map(\.1)
    }

    /// The body decoded as UTF-8 (invalid sequences replaced), for convenient assertions.
    public var bodyText: String {
        String(decoding: body, as: UTF8.self)
    }

    /// The comma-separated tokens of the header `name`, lowercased and trimmed, parameters (`;...`) removed.
    func headerTokens(_ name: String) -> [String] {
        guard let value = header(name) else { return [] }
        return value.split(separator: ",").compactMap { item in
            let token = HTTPText.trimmed(String(item.split(separator: ";", maxSplits: 1).first ?? ""))
            return token.isEmpty ? nil : HTTPText.lowercased(token)
        }
    }

    /// Whether the client asked to keep the connection open after this exchange:
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    var wantsKeepAlive: Bool {
        let tokens = headerTokens("Connection")
        if tokens.contains("close") { return false }
        if version == "HTTP/1.0" { return tokens.contains("keep-alive") }
        return true
    }

    /// Whether `Accept-Encoding` lists `coding` (or `*`) with a non-zero quality.
    func accepts(encoding coding: String) -> Bool {
        guard let value = header("Accept-Encoding") else { return false }
        var wildcard = false
        for item in value.split(separator: ",") {
            let parts = item.split(separator: ";").map { HTTPText.lowercased(HTTPText.trimmed(String($0))) }
            guard let name = parts.first, !name.isEmpty else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 1.0
            }
            if name == coding || (coding == "gzip" && name == "x-gzip") { return quality > 0 }
            if name == "*" { wildcard = quality > 0 }
        }
        return wildcard
    }
}

/// Small ASCII helpers shared by the parser and the response writer (HTTP syntax is ASCII).
enum HTTPText {
    /// ASCII-only lowercasing; header names and tokens are ASCII, so this avoids Unicode case mapping.
    static func lowercased(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x41 && scalar.value <= 0x5A, let lower = Unicode.Scalar(scalar.value + 0x20) {
                scalars.append(lower)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Removes leading and trailing spaces and horizontal tabs (HTTP optional whitespace).
    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
