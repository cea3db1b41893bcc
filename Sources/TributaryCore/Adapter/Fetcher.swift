public import Foundation

/// Something that performs requests: libcurl in production, an in-memory table in tests.
///
/// A fetcher returns every response it receives, whatever its status; `FetchContext` turns
/// unexpected statuses into errors. Implementations must be safe to call from many tasks at once.
public protocol Fetcher: Sendable {
    /// Performs one request (with the implementation's redirects and retries).
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
}

/// One request.
public struct FetchRequest: Sendable, Hashable {
    /// The URL: `http`, `https` or `file`.
    public var url: URL
    /// The method, `GET` unless said otherwise.
    public var method: String
    /// Extra request headers, in order.
    public var headers: [HTTPHeader]
    /// The request body, for `POST`.
    public var body: [UInt8]?
    /// How long one attempt may take; nil for the fetcher's default.
    public var timeout: Duration?
    /// Validators from an earlier response, for a conditional GET.
    public var validators: CacheValidators?
    /// The largest body accepted, in bytes; nil for the fetcher's default.
    public var maxBytes: Int?
    /// Whether TLS certificates go unchecked (a source's explicit `insecure: true`).
    public var allowInsecureTLS: Bool

    /// Creates a request.
    public init(
        url: URL, method: String = "GET", headers: [HTTPHeader] = [], body: [UInt8]? = nil, timeout: Duration? = nil,
        validators: CacheValidators? = nil, maxBytes: Int? = nil, allowInsecureTLS: Bool = false
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.validators = validators
        self.maxBytes = maxBytes
        self.allowInsecureTLS = allowInsecureTLS
    }
}

/// A header name and value.
public struct HTTPHeader: Sendable, Hashable {
    /// The name as sent or received; compare case-insensitively.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a header.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The validators of a response (`ETag`, `Last-Modified`), sent back to ask "has it changed?".
public struct CacheValidators: Sendable, Hashable {
    /// The entity tag, as received.
    public var etag: String?
    /// The `Last-Modified` date, as received.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// One response.
public struct FetchResponse: Sendable {
    /// The URL the body came from, after redirects.
    public var url: URL
    /// The HTTP status; 200 for a file that was read.
    public var status: Int
    /// The response headers, in order.
    public var headers: [HTTPHeader]
    /// The body, decoded from any content encoding; empty for a 304. Bytes, as every parser takes them: a body
    /// reaches its parser without a copy.
    public var body: [UInt8]

    /// Creates a response.
    public init(url: URL, status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.url = url
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header with this name, compared case-insensitively (names are ASCII tokens: the bytes are compared,
    /// not through Foundation's locale-aware comparison).
    public func header(_ name: String) -> String? {
        name.withUTF8Bytes { wanted in
            headers.first { header in header.name.withUTF8Bytes { ByteSearch.equalIgnoringASCIICase($0, wanted) } }?.value
        }
    }

    /// Whether the server said the resource has not changed since the validators sent.
    public var isNotModified: Bool { status == 304 }

    /// The validators to send next time.
    public var validators: CacheValidators? {
        let etag = header("ETag")
        let lastModified = header("Last-Modified")
        return etag == nil && lastModified == nil ? nil : CacheValidators(etag: etag, lastModified: lastModified)
    }

    /// The charset named by `Content-Type`, lower-cased, e.g. `gbk`.
    public var charset: String? {
        guard let contentType = header("Content-Type") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"'")).lowercased()
            }
        }
        return nil
    }
}
