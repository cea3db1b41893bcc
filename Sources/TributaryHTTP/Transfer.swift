internal import CCurl
internal import CTributaryCurl
import Foundation
import TributaryCore

/// One request's libcurl easy handle and what it has received so far.
///
/// Created on any thread, then touched only on the loop thread (the enqueueing thread hands it
/// over through the inbox mutex and never looks at it again); that is why it may be
/// `@unchecked Sendable`. libcurl's callbacks reach it through an unretained pointer, kept valid
/// because the loop holds the transfer in `active` until the handle is cleaned up.
final class Transfer: @unchecked Sendable {
    let id: Int
    let request: FetchRequest
    private let settings: HTTPSettings
    private var continuation: CurlMultiLoop.Continuation?

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    fileprivate(set) var body: [UInt8] = []
    fileprivate(set) var headers: [HTTPHeader] = []
    fileprivate var exceededLimit = false
    let maxBytes: Int
    let timeout: Duration
    /// The request's URL as libcurl is given it.
    private let urlText: String

    init(id: Int, request: FetchRequest, settings: HTTPSettings, continuation: CurlMultiLoop.Continuation) {
        self.id = id
        self.request = request
        self.settings = settings
        self.continuation = continuation
        self.maxBytes = request.maxBytes ?? settings.defaultMaxBytes
        self.timeout = request.timeout ?? settings.defaultTimeout
        self.urlText = request.url.absoluteString
        self.hostKey = Self.hostKey(of: request.url)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorBuffer.deallocate()
    }

    /// The key of the per-host limit: host and port.
    let hostKey: String

    /// The key of the per-host limit for `url`: `host:port`, the host in lower case, the port the scheme's own when none.
    static func hostKey(of url: URL) -> String {
        "\(url.host?.lowercased() ?? ""):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
    }

    /// Resumes the waiting task; later calls do nothing.
    func resume(_ result: Result<FetchResponse, FetchError>) {
        continuation?.resume(returning: (result, .now))
        continuation = nil
    }

    /// Creates and configures the easy handle.
    func start() -> UnsafeMutableRawPointer? {
        guard let easy = tributary_curl_easy_init() else { return nil }
        self.easy = easy
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = tributary_easy_setopt_string(easy, CURLOPT_URL, urlText)
        _ = tributary_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = tributary_easy_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // A request with headers of its own follows redirects in `CurlFetcher`, which drops them on another origin.
        _ = tributary_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, request.headers.isEmpty ? 1 : 0)
        _ = tributary_easy_setopt_long(easy, CURLOPT_MAXREDIRS, settings.maxRedirects)
        _ = tributary_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = tributary_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout))
        _ = tributary_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(settings.connectTimeout, timeout)))
        _ = tributary_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, settings.lowSpeedLimit)
        _ = tributary_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(1, Self.milliseconds(settings.lowSpeedTime) / 1000))
        _ = tributary_easy_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes))
        _ = tributary_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        // 100 KB receive buffers, as the curl tool uses: fewer, larger write callbacks.
        _ = tributary_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, 102_400)
        _ = tributary_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS)
        _ = tributary_easy_setopt_string(easy, CURLOPT_USERAGENT, settings.userAgent)
        _ = tributary_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = tributary_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, transferWrite)
        _ = tributary_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = tributary_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, transferHeader)
        _ = tributary_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        if request.allowInsecureTLS {
            _ = tributary_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 0)
            _ = tributary_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0)
        }

        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if let etag = request.validators?.etag { lines.append("If-None-Match: \(etag)") }
        if let lastModified = request.validators?.lastModified { lines.append("If-Modified-Since: \(lastModified)") }
        for line in lines { headerList = tributary_curl_slist_append(headerList, line) }
        if let headerList { _ = tributary_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList) }

        switch request.method.uppercased() {
        case "GET":
            break
        case "HEAD":
            _ = tributary_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        case "POST":
            setBody(easy)
        default:
            _ = tributary_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method)
            if request.body != nil { setBody(easy) }
        }
        return easy
    }

    private func setBody(_ easy: UnsafeMutableRawPointer) {
        let bytes = request.body ?? []
        _ = tributary_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
        // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
        bytes.withUnsafeBytes { buffer in
            let pointer = UnsafeMutableRawPointer(mutating: buffer.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start))
            _ = tributary_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, pointer)
        }
    }

    /// The URL the body came from, after redirects: the request's own (not parsed again) unless it was redirected.
    func effectiveURL() -> URL? {
        guard let easy else { return nil }
        var pointer: UnsafePointer<CChar>?
        guard tributary_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer else { return nil }
        let unchanged = urlText.withCString { strcmp($0, pointer) == 0 }
        return unchanged ? request.url : URL(string: String(cString: pointer))
    }

    /// What a libcurl error means, in the terms of `FetchError`.
    func reason(for code: CURLcode) -> FetchError.Reason {
        let message = errorBuffer.pointee == 0 ? String(cString: tributary_curl_easy_strerror(code)) : String(cString: errorBuffer)
        switch code {
        case CURLE_WRITE_ERROR where exceededLimit, CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: maxBytes)
        case CURLE_COULDNT_RESOLVE_HOST:
            return .hostNotFound
        case CURLE_COULDNT_CONNECT:
            return .connectionRefused
        case CURLE_OPERATION_TIMEDOUT:
            if message.contains("too slow") {
                return .other("too slow: less than \(settings.lowSpeedLimit) bytes/s for \(DurationParser.format(settings.lowSpeedTime))")
            }
            return .timedOut(seconds: elapsedSeconds())
        case CURLE_TOO_MANY_REDIRECTS:
            return .tooManyRedirects(settings.maxRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL where message.contains("HTTP/0.9"), CURLE_WEIRD_SERVER_REPLY:
            return .invalidResponse("the server's answer is not HTTP (no valid status line): \(message)")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .invalidResponse("refused to follow a redirect to a URL that is not http(s): \(message)")
        case CURLE_OUT_OF_MEMORY:
            // What libcurl says of a header line over its 100 KB limit, as well as of memory running out.
            return .invalidResponse("libcurl could not take the response (\(message)): a header line over 100 KB does this")
        case CURLE_GOT_NOTHING:
            return .other("the server closed the connection without answering")
        case CURLE_PARTIAL_FILE:
            return .other("the response ended before its announced length: \(message)")
        case CURLE_BAD_CONTENT_ENCODING:
            return .invalidResponse("cannot decode the response's content encoding: \(message)")
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_CLIENTCERT:
            return .tls(message)
        case CURLE_RECV_ERROR where message.contains("Too large response headers") || message.contains("chunk"):
            return .invalidResponse("the response is malformed: \(message)")
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR:
            return .other("the connection broke: \(message)")
        default:
            return .other(message)
        }
    }

    private func elapsedSeconds() -> Double {
        guard let easy else { return Double(Self.milliseconds(timeout)) / 1000 }
        var microseconds: curl_off_t = 0
        _ = tributary_easy_getinfo_off_t(easy, CURLINFO_TOTAL_TIME_T, &microseconds)
        return Double(microseconds) / 1_000_000
    }

    /// Frees the easy handle and the header list.
    func cleanUp() {
        if let easy { tributary_curl_easy_cleanup(easy) }
        easy = nil
        if let headerList { tributary_curl_slist_free_all(headerList) }
        headerList = nil
    }

    fileprivate func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= maxBytes else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes.bindMemory(to: UInt8.self))
        return true
    }

    /// One header line as libcurl hands it over (status lines included), read as bytes: this
    /// runs for every header of every response.
    fileprivate func receiveHeader(_ line: UnsafeRawBufferPointer) {
        let bytes = line.bindMemory(to: UInt8.self)
        if bytes.starts(with: Self.statusPrefix) {
            headers.removeAll(keepingCapacity: true)  // a new response: after a redirect or a 100 Continue
            return
        }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = Self.trimmed(bytes[..<colon])
        let value = Self.trimmed(bytes[(colon + 1)...])
        guard !name.isEmpty else { return }
        let nameText = String(decoding: name, as: UTF8.self)
        headers.append(HTTPHeader(nameText, String(decoding: value, as: UTF8.self)))
        // Reserve the announced length once instead of growing the buffer chunk by chunk. With
        // a content encoding the length is of the compressed body, so it is only a hint.
        if name.count == 14, nameText.lowercased() == "content-length", let length = Int(String(decoding: value, as: UTF8.self)),
            length > 0
        {
            body.reserveCapacity(min(length, maxBytes))
        }
    }

    private static let statusPrefix = Array("HTTP/".utf8)

    private static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// At least 1: libcurl reads a timeout of 0 as none at all, so a limit of less than a millisecond left (the end of a
    /// redirect chain) would have lifted the limit.
    static func milliseconds(_ duration: Duration) -> Int {
        max(1, Int(duration.inMilliseconds))
    }
}

/// libcurl's write callback: appends to the transfer's body, aborting past the size limit.
private func transferWrite(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.append(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// libcurl's header callback: one header line at a time, status lines included.
private func transferHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length))
    return length
}
