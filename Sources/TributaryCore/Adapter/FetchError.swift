import Foundation

/// Why a request failed, in words a user understands, naming the URL.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it was.
    public enum Reason: Sendable, Hashable {
        /// The file does not exist or cannot be read.
        case fileUnreadable(String)
        /// The host name did not resolve.
        case hostNotFound
        /// Nothing listens there, or the connection was refused.
        case connectionRefused
        /// The attempt took longer than allowed (seconds, may be fractional).
        case timedOut(seconds: Double)
        /// The server answered with an error status.
        case httpStatus(Int)
        /// The body grew beyond the limit, in bytes; `setting` names what set the limit (`max_size`),
        /// so that the message says what to raise.
        case tooLarge(limit: Int, setting: String? = nil)
        /// The redirects went on too long or in a circle.
        case tooManyRedirects(Int)
        /// The TLS handshake or certificate check failed.
        case tls(String)
        /// The URL's scheme is not one Tributary fetches.
        case unsupportedScheme(String)
        /// The request was cancelled.
        case cancelled
        /// The server said the source has not changed since the last run (a 304 to the validators
        /// the engine sent); the engine uses the stored items instead.
        case notModified
        /// An answer that asking again would not change: not HTTP, an encoding that cannot be decoded, headers
        /// too large, a redirect refused. Not retried.
        case invalidResponse(String)
        /// Anything else, with the underlying library's message.
        case other(String)
    }

    /// The URL that was requested.
    public var url: String
    /// What went wrong.
    public var reason: Reason

    /// Creates a fetch error.
    public init(url: String, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    /// Whether trying again later could help.
    public var isTransient: Bool {
        switch reason {
        case .hostNotFound, .connectionRefused, .timedOut, .other: true
        case .httpStatus(let status): status == 408 || status == 429 || status >= 500
        default: false
        }
    }

    /// `"<url>: timed out after 30 s"` and the like.
    public var description: String { "\(url): \(summary)" }

    /// What went wrong, without the URL: `"timed out after 30 s"` and the like.
    public var summary: String {
        switch reason {
        case .fileUnreadable(let why): "cannot read file: \(why)"
        case .hostNotFound: "host not found (DNS lookup failed)"
        case .connectionRefused: "connection refused"
        case .timedOut(let seconds): "timed out after \(Self.tenths(seconds))"
        case .httpStatus(let status): "HTTP \(status)\(HTTPStatusText.phrase(status).map { " \($0)" } ?? "")"
        case .tooLarge(let limit, let setting):
            "response larger than the limit of \(ByteCountText.format(limit))\(setting.map { " (\($0))" } ?? "")"
        case .tooManyRedirects(let count): "too many redirects (more than \(count)) or a redirect loop"
        case .tls(let message): "TLS failure: \(message)"
        case .unsupportedScheme(let scheme): "unsupported URL scheme '\(scheme)'"
        case .cancelled: "cancelled"
        case .notModified: "not modified since the last run"
        case .invalidResponse(let message), .other(let message): message
        }
    }

    /// `30 s`, `2.5 s`: seconds to a tenth, without a trailing `.0`; under a second, `40 ms` (not `0 s`).
    private static func tenths(_ seconds: Double) -> String {
        if seconds < 0.95 { return "\(Int((seconds * 1000).rounded())) ms" }
        let rounded = (seconds * 10).rounded() / 10
        return (rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) + " s"
    }
}

/// Reason phrases for the statuses users meet.
enum HTTPStatusText {
    static func phrase(_ status: Int) -> String? {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: nil
        }
    }
}

/// Byte counts for people: `20 MB`, `512 KB`, `900 B`.
public enum ByteCountText {
    /// A short rendering with binary multiples and decimal-looking units, as curl prints them.
    public static func format(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 { return String(format: "%.1f MB", Double(bytes) / Double(1 << 20)) }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) B"
    }
}
