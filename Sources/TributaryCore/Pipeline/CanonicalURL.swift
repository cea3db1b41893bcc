import Foundation

/// Links made comparable: the same article reached through different spellings of its URL gets
/// one key. Scheme and host are lower-cased (`https` and `http` compare equal), IDN hosts are
/// compared in their Unicode form, the default port, the fragment, a trailing slash and
/// tracking parameters are dropped, and the remaining query is sorted.
public struct CanonicalURL: Sendable {
    /// Query parameters that only track where a click came from.
    public static let defaultTrackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "mc_cid", "mc_eid", "igshid", "spm", "from", "share_token",
        "share_source", "share_medium", "scm", "ref_src", "_hsenc", "_hsmi", "wt.mc_id", "si",
    ]

    /// The parameter names dropped (compared lower-cased); `utm_*` always is.
    public var trackingParameters: Set<String>

    /// Uses the default tracking parameters plus `extra` (e.g. from `dedup: {tracking_parameters: [...]}`).
    public init(extra: [String] = []) {
        trackingParameters = Self.defaultTrackingParameters.union(extra.map { $0.lowercased() })
    }

    /// The comparison key, or nil for something that is not an absolute http(s) URL.
    public func key(for text: String) -> String? {
        guard let parts = Parts(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        var key = "//" + parts.host
        if let port = parts.port { key += ":\(port)" }
        var path = parts.path
        while path.hasSuffix("/") { path.removeLast() }
        key += path
        let query = parts.query.filter { !isTracking($0.name) }.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        if !query.isEmpty { key += "?" + query.map(\.text).joined(separator: "&") }
        return key
    }

    /// The link to show: tracking parameters removed, everything else as written.
    public func clean(_ text: String) -> String {
        guard let question = text.firstIndex(of: "?") else { return text }
        let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
        let items = text[text.index(after: question)..<fragmentStart].split(separator: "&", omittingEmptySubsequences: true)
        let kept = items.filter { item in
            let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !isTracking(name.removingPercentEncoding ?? name)
        }
        guard kept.count != items.count else { return text }
        let base = String(text[..<question])
        let fragment = String(text[fragmentStart...])
        return base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + fragment
    }

    private func isTracking(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("utm_") || trackingParameters.contains(lowered)
    }

    /// The pieces of an http(s) URL, normalized.
    private struct Parts {
        var host: String
        var port: Int?
        var path: String
        var query: [(name: String, value: String?, text: String)]

        init?(_ text: String) {
            guard
                let components = URLComponents(string: text)
                    ?? URLComponents(
                        string: text.addingPercentEncoding(
                            withAllowedCharacters: .urlFragmentAllowed.union(CharacterSet(charactersIn: "%#"))) ?? ""),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let rawHost = components.percentEncodedHost, !rawHost.isEmpty
            else { return nil }
            host = IDNA.unicodeHost(rawHost.removingPercentEncoding ?? rawHost).lowercased()
            if host.hasPrefix("www.") { host.removeFirst(4) }
            let defaultPort = scheme == "https" ? 443 : 80
            port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
            path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            query = (components.percentEncodedQuery ?? "").split(separator: "&").map { item in
                let pair = item.split(separator: "=", maxSplits: 1)
                let name = String(pair.first ?? "")
                return (name.removingPercentEncoding ?? name, pair.count > 1 ? String(pair[1]) : nil, String(item))
            }
        }
    }
}

/// Internationalized host names: `xn--` labels decoded from Punycode (RFC 3492), so that a host
/// written either way compares equal.
enum IDNA {
    static func unicodeHost(_ host: String) -> String {
        guard host.lowercased().contains("xn--") else { return host }
        return host.split(separator: ".", omittingEmptySubsequences: false).map { label in
            label.lowercased().hasPrefix("xn--") ? (punycodeDecode(String(label.dropFirst(4))) ?? String(label)) : String(label)
        }.joined(separator: ".")
    }

    /// RFC 3492 decoding; nil for malformed input.
    static func punycodeDecode(_ input: String) -> String? {
        let base = 36
        let tMin = 1
        let tMax = 26
        let skew = 38
        let damp = 700
        var output: [UInt32] = []
        var n = 128
        var i = 0
        var bias = 72
        let scalars = Array(input.lowercased().unicodeScalars)
        var start = 0
        if let delimiter = scalars.lastIndex(of: "-") {
            output = scalars[..<delimiter].map(\.value)
            guard output.allSatisfy({ $0 < 128 }) else { return nil }
            start = delimiter + 1
        }
        func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
            var delta = first ? delta / damp : delta / 2
            delta += delta / count
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + skew)
        }
        var index = start
        while index < scalars.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < scalars.count else { return nil }
                let c = scalars[index].value
                index += 1
                let digit: Int
                switch c {
                case 0x61...0x7A: digit = Int(c - 0x61)
                case 0x30...0x39: digit = Int(c - 0x30) + 26
                default: return nil
                }
                let (product, overflow) = digit.multipliedReportingOverflow(by: w)
                guard !overflow else { return nil }
                i += product
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                w *= base - t
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n < 0x110000 else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var text = ""
        for value in output {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }
}
