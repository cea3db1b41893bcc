import Foundation
import TributaryCore

extension AdapterOptions {
    /// The `base_url` option: the http(s) address relative links resolve against instead of the page's own.
    func baseURL() throws(ConfigError) -> URL? {
        guard let text = string("base_url") else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else {
            throw error("base_url", "'base_url' must be an http(s) URL such as https://example.com/, found '\(text)'")
        }
        return url
    }
}
