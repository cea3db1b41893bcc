import Foundation
public import TributaryCore

extension LoopbackServer {
    /// Serves a recording made by `tributary record`: each request is answered with the recorded
    /// response whose method, path and query match it (the recorded host and port are ignored),
    /// so an adapter pointed at `baseURL` sees what it saw on the live site. A request the
    /// recording does not hold gets `404` with a body naming it.
    public func replay(_ recording: Recording) {
        var byPath: [String: [Recording.Exchange]] = [:]
        for exchange in recording.exchanges {
            guard let parts = Self.pathAndQuery(exchange.url) else { continue }
            byPath[parts.path, default: []].append(exchange)
        }
        for (path, exchanges) in byPath {
            route(
                path,
                .handler { request in
                    let match = exchanges.first { exchange in
                        exchange.method == request.method && Self.pathAndQuery(exchange.url)?.query == request.query
                    }
                    guard let match else {
                        return LoopbackResponse(
                            status: 404, text: "not in the recording: \(request.method) \(request.path)?\(request.query ?? "")")
                    }
                    return LoopbackResponse(status: match.status, headers: match.headers.map { ($0.name, $0.value) }, body: match.body)
                })
        }
    }

    /// `/a/b` and `x=1` of `http://host:port/a/b?x=1#f`.
    private static func pathAndQuery(_ url: String) -> (path: String, query: String?)? {
        guard let scheme = url.range(of: "://") else { return nil }
        let afterHost = url[scheme.upperBound...].drop { $0 != "/" }
        var rest = afterHost.isEmpty ? "/" : String(afterHost)
        if let hash = rest.firstIndex(of: "#") { rest = String(rest[..<hash]) }
        guard let mark = rest.firstIndex(of: "?") else { return (rest, nil) }
        return (String(rest[..<mark]), String(rest[rest.index(after: mark)...]))
    }
}
