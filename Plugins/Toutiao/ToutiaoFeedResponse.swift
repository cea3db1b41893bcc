import TributaryCore
import TributaryJSON
import TributaryModel

/// One response of the feed endpoint (source-apis.md §2.3): `message` must be `success`, and
/// each `data[i].content` is a whole item serialized as a JSON string, decoded a second time.
/// An already-decoded object is accepted too (recorded payloads show it that way).
struct ToutiaoFeedResponse: Sendable {
    /// The decoded `content` objects with their index in `data`, in order.
    var contents: [(index: Int, content: JSONValue)]
    /// Entries that could not be decoded; each was skipped.
    var problems: [Problem]
    /// `has_more`; true when missing (neither app read it).
    var hasMore: Bool

    /// Reads a response; a failed request (`message` other than `success`) or a body without a
    /// `data` list is an error naming the URL.
    init(_ json: JSONValue, url: String) throws(AdapterError) {
        guard case .object = json else { throw AdapterError("\(url): expected a JSON object with 'message' and 'data'") }
        let message = json["message"]?.text
        guard message == "success" else {
            let said = message.map { "'message' is \(JSONValue.string($0))" } ?? "no 'message'"
            throw AdapterError("\(url): the API did not answer \"success\" (\(said))")
        }
        guard let data = json["data"]?.array else {
            throw AdapterError("\(url): 'data' is not a list of feed entries (is this the feed endpoint?)")
        }
        hasMore = json["has_more"]?.bool ?? true
        contents = []
        problems = []
        for (index, entry) in data.enumerated() {
            switch Self.decode(entry) {
            case .success(let content): contents.append((index, content))
            case .failure(let reason): problems.append(Problem(.error, "\(url): data[\(index)]\(reason.message); the entry was skipped"))
            }
        }
    }

    /// Why an entry could not be read, worded to follow `data[i]`.
    struct Undecodable: Error {
        var message: String
    }

    /// The `content` object of one `data` entry.
    static func decode(_ entry: JSONValue) -> Result<JSONValue, Undecodable> {
        switch entry["content"] {
        case .object(let object)?:
            return .success(.object(object))
        case .string(let text)?:
            let parsed: JSONValue
            do {
                parsed = try JSON.parse(text)
            } catch {
                return .failure(Undecodable(message: ".content is not valid JSON at \(error.line):\(error.column): \(error.message)"))
            }
            guard case .object = parsed else { return .failure(Undecodable(message: ".content is JSON but not an object")) }
            return .success(parsed)
        case nil, .null?:
            return .failure(Undecodable(message: entry.object == nil ? " is not an object" : " has no 'content'"))
        case .bool?, .number?, .array?:
            return .failure(Undecodable(message: ".content is neither an object nor JSON text"))
        }
    }
}
