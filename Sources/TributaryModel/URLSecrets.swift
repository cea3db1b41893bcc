import Foundation

/// The secrets a URL may carry, hidden from messages.
///
/// A source's URL may hold credentials: a user name and password (`https://user:pass@host/feed`),
/// a token as the user name (`https://TOKEN@host/`), or a key in its query (`?token=…`,
/// `&api_key=…`). Messages name URLs (`…/feed.xml: connection refused`), and messages go to
/// stderr, the run report, the state and, for a failing source, the published HTML page; there
/// the secrets are `***`. (Links that Tributary publishes lose their user name and password by
/// `WebLink`.) A secret in a URL's path (`/bot<TOKEN>/`) cannot be told from a path.
public enum URLSecrets {
    /// `text` with the user names, passwords and secret-looking query values of the URLs in it
    /// (a `scheme://` and what follows up to a space, a quote or an angle bracket) as `***`.
    public static func redacted(in text: String) -> String {
        guard text.contains("://") else { return text }
        var result = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let end = rest.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "'" || $0 == "<" || $0 == ">" } ?? rest.endIndex
            result += redacted(afterScheme: rest[..<end])
            rest = rest[end...]
        }
        return result + rest
    }

    /// `url` without its user name and password and without the query parameters whose names say they are secrets
    /// (``isSecretParameter(_:)``): a source's own URL, where it stands for the feed in what is published (a feed
    /// that names no URL of its own).
    public static func withoutSecrets(_ url: String) -> String {
        let link = WebLink.removingUserInformation(url) ?? url
        guard let question = link.firstIndex(of: "?") else { return link }
        let fragment = link[question...].firstIndex(of: "#") ?? link.endIndex
        let pairs = link[link.index(after: question)..<fragment].split(separator: "&", omittingEmptySubsequences: false)
        let kept = pairs.filter { !isSecretParameter($0.prefix { $0 != "=" }) }
        guard kept.count != pairs.count else { return link }
        return link[..<question] + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&")) + link[fragment...]
    }

    /// Whether a query parameter's name says its value is a secret: it has one of these words in
    /// it, in any case (`token`, `access_token`, `apiKey`, `password`, `sig`, `X-Amz-Signature`).
    public static func isSecretParameter(_ name: Substring) -> Bool {
        let lowered = name.lowercased()
        return secretWords.contains { lowered.contains($0) }
    }

    private static let secretWords = ["token", "key", "secret", "pass", "pwd", "auth", "sig", "session", "sid", "credential"]

    /// A URL after its `scheme://`: the user information and the secret query values as `***`.
    private static func redacted(afterScheme url: Substring) -> String {
        let authorityEnd = url.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex
        var result = ""
        if let at = url[..<authorityEnd].lastIndex(of: "@") {
            result += "***" + url[at..<authorityEnd]
        } else {
            result += url[..<authorityEnd]
        }
        let rest = url[authorityEnd...]
        guard let question = rest.firstIndex(of: "?") else { return result + rest }
        let fragment = rest[question...].firstIndex(of: "#") ?? rest.endIndex
        result += rest[...question]
        let query = rest[rest.index(after: question)..<fragment]
        result += query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), isSecretParameter(pair[..<equals]), pair.index(after: equals) < pair.endIndex
            else { return String(pair) }
            return pair[...equals] + "***"
        }.joined(separator: "&")
        return result + rest[fragment...]
    }
}
