import TributaryCore

/// How the shared fetcher behaves: limits, timeouts, retries and identity. The defaults suit a
/// laptop on a normal connection and a cron job that must finish.
public struct HTTPSettings: Sendable, Hashable {
    /// The User-Agent sent with every request.
    public var userAgent: String = Tributary.userAgent
    /// How many transfers run at once, across all hosts.
    public var maxConnections: Int = 8
    /// How many transfers run at once against one host (name and port).
    public var maxPerHost: Int = 2
    /// How long establishing a connection (DNS, TCP, TLS) may take.
    public var connectTimeout: Duration = .seconds(10)
    /// How long one attempt may take when the request names no timeout.
    public var defaultTimeout: Duration = .seconds(30)
    /// A transfer slower than this many bytes per second for `lowSpeedTime` is aborted.
    public var lowSpeedLimit: Int = 10
    /// How long a transfer may stay below `lowSpeedLimit`.
    public var lowSpeedTime: Duration = .seconds(20)
    /// How many redirects are followed.
    public var maxRedirects: Int = 5
    /// The largest body accepted when the request names no limit, in bytes.
    public var defaultMaxBytes: Int = 20 * 1024 * 1024
    /// How many times a transient failure is retried (so at most `retries + 1` attempts).
    public var retries: Int = 2
    /// The first retry's delay; each later one doubles, with random jitter.
    public var retryBaseDelay: Duration = .milliseconds(500)
    /// The longest delay between attempts.
    public var retryMaxDelay: Duration = .seconds(30)
    /// A `Retry-After` longer than this is not waited for: the response is returned as it is.
    public var retryAfterLimit: Duration = .seconds(60)

    /// The documented defaults.
    public init() {}
}
