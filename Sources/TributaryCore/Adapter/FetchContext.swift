public import Foundation
public import TributaryJSON

/// What the engine gives an adapter for one fetch: the shared fetcher with the source's limits,
/// the source's settings, the run's clock and a logger.
public struct FetchContext: Sendable {
    /// The configured name of the source being fetched.
    public let sourceName: String
    /// The folder relative paths resolve against.
    public let configDirectory: URL
    /// How long one attempt may take.
    public let timeout: Duration
    /// The most items the source may contribute, as configured (`max_items`); nil when not set.
    public let maxItems: Int?
    /// The most items the source may contribute: `maxItems`, else `SourceConfig.defaultItemLimit`. An adapter need not read
    /// more (the engine keeps no more); one that stops early says how many it left out (`SourceResult.itemsLeftOut`).
    public var itemLimit: Int { maxItems ?? SourceConfig.defaultItemLimit }
    /// The time zone for dates that carry none.
    public let timeZone: TimeZone
    /// The moment the run started; relative dates ("3分钟前") count from here.
    public let now: Date
    /// Where to report what happens.
    public let logger: Logger
    /// The largest response accepted, in bytes: the configuration's `max_size`. A request that
    /// sets no limit of its own gets this one, and so does the parsing of a feed.
    public let maxResponseBytes: Int
    private let fetcher: any Fetcher
    private let allowInsecureTLS: Bool
    private let log: FetchLog?

    /// Creates a context; the engine does this for every source, tests may too.
    public init(
        sourceName: String, configDirectory: URL, fetcher: any Fetcher, timeout: Duration = .seconds(30),
        maxItems: Int? = nil, timeZone: TimeZone = .gmt, now: Date = Date(), logger: Logger = .silent,
        maxResponseBytes: Int = 20 * 1024 * 1024, allowInsecureTLS: Bool = false, log: FetchLog? = nil
    ) {
        self.sourceName = sourceName
        self.configDirectory = configDirectory
        self.fetcher = fetcher
        self.timeout = timeout
        self.maxItems = maxItems
        self.timeZone = timeZone
        self.now = now
        self.logger = logger
        self.maxResponseBytes = maxResponseBytes
        self.allowInsecureTLS = allowInsecureTLS
        self.log = log
    }

    /// Sends a request with the source's timeout and size limit filled in, and returns the
    /// response whatever its status.
    public func send(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        var request = request
        if request.timeout == nil { request.timeout = timeout }
        let limitIsMaxSize = request.maxBytes == nil
        if limitIsMaxSize { request.maxBytes = maxResponseBytes }
        if allowInsecureTLS { request.allowInsecureTLS = true }
        let first = log?.willSend(&request) ?? false
        logger.debug(
            "\(request.method) \(request.url.absoluteString)\(request.validators == nil ? "" : " (conditional)")", source: sourceName)
        let response: FetchResponse
        do {
            response = try await fetcher.fetch(request)
        } catch {
            // A body over max_size: the message names it, so that a user knows what to raise.
            guard limitIsMaxSize, case .tooLarge(let limit, nil) = error.reason else { throw error }
            throw FetchError(url: error.url, reason: .tooLarge(limit: limit, setting: "max_size"))
        }
        // The thread this resumes on parses the body next.
        ThreadArena.reserveForThisThread()
        log?.received(response, to: request, first: first)
        return response
    }

    /// Fetches a URL and returns the response when it succeeded (2xx, or 304 to a conditional
    /// request the caller made); any other status is thrown as a `FetchError`. A 304 to the
    /// validators the engine remembered from the last run is thrown as `.notModified`: the engine
    /// then uses the source's stored items, so the adapter has nothing to do.
    public func get(_ url: URL, headers: [HTTPHeader] = [], validators: CacheValidators? = nil)
        async throws(FetchError) -> FetchResponse
    {
        let response = try await send(FetchRequest(url: url, headers: headers, validators: validators))
        if response.isNotModified, validators == nil, log?.record.notModified == true {
            throw FetchError(url: response.url.absoluteString, reason: .notModified)
        }
        guard (200..<300).contains(response.status) || (response.isNotModified && validators != nil) else {
            throw FetchError(url: response.url.absoluteString, reason: .httpStatus(response.status))
        }
        return response
    }

    /// Resolves a reference the way the configuration does: `http(s)` and `file:` URLs as they
    /// are (a relative `file:` path against the configuration's folder), anything else as a path.
    public func resolve(_ reference: String) -> URL {
        URLResolver.resolve(reference, against: configDirectory)
    }
}

/// Resolves configuration references (URLs and paths) against the configuration's folder.
public enum URLResolver {
    /// `http(s)://…` as written; `file:` and plain paths made absolute against `directory`.
    public static func resolve(_ reference: String, against directory: URL) -> URL {
        let lowered = reference.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: reference) {
            return url
        }
        var path = reference
        if lowered.hasPrefix("file://") {
            path = String(reference.dropFirst(7))
            path = path.removingPercentEncoding ?? path
        } else if lowered.hasPrefix("file:") {
            path = String(reference.dropFirst(5))
            path = path.removingPercentEncoding ?? path
        }
        if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            path = home + path.dropFirst(1)
        }
        if path.hasPrefix("/") {
            return URL(fileURLWithPath: path).standardizedFileURL
        }
        return URL(fileURLWithPath: path, relativeTo: directory).standardizedFileURL
    }

    /// The reference's scheme, lower-cased: what comes before its first `:` when that is an ASCII letter followed by
    /// ASCII letters, digits, `+`, `-` and `.`; nil when it has none.
    public static func scheme(of reference: String) -> String? {
        // Byte by byte: a scheme is ASCII, and reading it as characters asked Unicode's tables about every one (a
        // configuration of 500 sources read 500 links).
        var length = 0
        for byte in reference.utf8 {
            if byte == UInt8(ascii: ":") {
                guard length > 0 else { return nil }
                return String(decoding: reference.utf8.prefix(length).lazy.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
            }
            let isLetter = (byte | 0x20) &- 0x61 < 26
            let isOther = byte &- 0x30 < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isLetter || (length > 0 && isOther) else { return nil }
            length += 1
        }
        return nil
    }
}

extension FetchContext {
    /// Fetches a URL and parses its body as JSON, whatever its Content-Type (APIs often send
    /// `text/html`); a body that is not JSON is an `AdapterError` naming the URL and position.
    public func getJSON(_ url: URL, headers: [HTTPHeader] = []) async throws -> JSONValue {
        let response = try await get(url, headers: headers)
        do {
            return try JSON.parse(response.body)
        } catch {
            throw AdapterError("\(response.url.absoluteString): not valid JSON at \(error.line):\(error.column): \(error.message)")
        }
    }
}
