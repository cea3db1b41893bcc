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

    /// The required `items` option, compiled in the adapter's language (a JSON path, an XPath).
    func items<Expression>(_ compile: (String) throws(MappingError) -> Expression) throws(ConfigError) -> Expression {
        guard let text = string("items") else { throw error("items", "missing 'items'") }
        do throws(MappingError) {
            return try compile(text)
        } catch {
            throw self.error("items", "'items': \(error.message)")
        }
    }
}
