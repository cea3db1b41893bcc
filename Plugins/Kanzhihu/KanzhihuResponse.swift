import Foundation
import TributaryCore
import TributaryJSON

/// One API response in Kanzhihu's flat envelope: `error` next to the payload key
/// (`{"error": "", "count": 10, "posts": […]}`), not the `{error, data}` the doc describes.
struct KanzhihuResponse: Sendable {
    /// Where it came from.
    let url: URL
    /// The whole document.
    let body: JSONValue

    /// The URL for messages: a path for saved responses, the URL otherwise.
    var location: String { url.isFileURL ? url.path : url.absoluteString }

    /// The API's `error` text when it is not empty (`"no result"`): the request had no answer.
    var refusal: String? {
        guard let text = body["error"]?.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// The refusal as an error that fails the source.
    var refusalError: AdapterError {
        AdapterError("\(location): the API answered with error '\(refusal ?? "")'")
    }

    /// The payload list at the top level, e.g. `posts`; an error naming the key when it is absent.
    func list(_ key: String) throws -> [JSONValue] {
        guard body.object != nil else {
            throw AdapterError("\(location): expected a JSON object, found \(body.shape)")
        }
        guard let value = body[key] else { throw AdapterError("\(location): no '\(key)' list in the response") }
        guard let list = value.array else {
            throw AdapterError("\(location): '\(key)' must be a list, found \(value.shape)")
        }
        return list
    }
}
