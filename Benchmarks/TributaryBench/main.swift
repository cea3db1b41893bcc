// tributary-bench: the Swift side of `make bench`. Not shipped; driven by bench/bench.py.
//
//   tributary-bench serve DIR              serve every file of DIR on 127.0.0.1 (prints "port N"), until stdin closes;
//                                           each with an ETag and Last-Modified, answering 304 to a matching
//                                           If-None-Match or If-Modified-Since; the line "change N" on stdin
//                                           gives N files spread over the list a new item (new bytes and
//                                           validators) and answers "changed N"; "touch N" only appends a
//                                           comment or a space to them (new bytes and validators, the same
//                                           items) and answers "touched N"
//   tributary-bench fetch URLFILE [--jobs N] [--per-host N]
//                                           fetch every URL with Tributary's fetcher; print JSON stats
//   tributary-bench pipeline --items N [--runs R] [--seed S]
//                                           run the pipeline over N generated items; print JSON stage times
import Foundation
import TestSupport
import TributaryCore
import TributaryHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The peak resident memory of this process in kilobytes (VmHWM).
func peakMemoryKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "0") ?? 0
    }
    return 0
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tributary-bench: \(message)\n".utf8))
    exit(1)
}

/// `body` (a feed of the benchmark's corpus, its format told by `name`'s extension) with one more item, inserted
/// where the format keeps its items.
func withNewItem(_ body: [UInt8], name: String, feed: Int, generation: Int) -> [UInt8] {
    let link = "https://updates.example.org/\(feed)/\(generation)"
    let title = "Update \(generation) of feed \(feed)"
    let (marker, item, after): (String, String, Bool)
    switch (name as NSString).pathExtension {
    case "json":
        marker = "\"items\": ["
        item = "{\"id\": \"\(link)\", \"url\": \"\(link)\", \"title\": \"\(title)\", \"content_html\": \"<p>\(title).</p>\"},"
        after = true
    case "atom":
        marker = "</feed>"
        item =
            "<entry><id>\(link)</id><title>\(title)</title><updated>2026-11-02T00:00:00Z</updated><link href=\"\(link)\"/>"
            + "<content type=\"html\">&lt;p&gt;\(title).&lt;/p&gt;</content></entry>\n"
        after = false
    case "rdf":
        marker = "</rdf:RDF>"
        item = "<item rdf:about=\"\(link)\"><title>\(title)</title><link>\(link)</link><description>\(title).</description></item>\n"
        after = false
    default:
        marker = "</channel>"
        item = "<item><title>\(title)</title><link>\(link)</link><guid>\(link)</guid><description>\(title).</description></item>\n"
        after = false
    }
    let text = String(decoding: body, as: UTF8.self)
    guard let range = after ? text.range(of: marker) : text.range(of: marker, options: .backwards) else {
        fail("\(name): no \(marker) to insert an item at")
    }
    var changed = text
    changed.insert(contentsOf: item, at: after ? range.upperBound : range.lowerBound)
    return Array(changed.utf8)
}

func serve(_ folder: String) throws {
    // Nothing reads its log, and over a benchmark's thousands of requests the log only grows.
    let server = try LoopbackServer(recordsRequests: false)
    // Hidden files (the corpus generator's marker) are not served.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    // Fixed validators, so that a second run of a client with a cache gets 304 for every file.
    var bodies: [[UInt8]] = []
    func publish(_ index: Int, generation: Int) {
        let name = names[index]
        let type = name.hasSuffix(".json") ? "application/feed+json" : "application/xml"
        let etag = "\"\(index)-\(bodies[index].count)-\(generation)\""
        let lastModified = LoopbackServer.httpDate(secondsSince1970: 1_764_590_400 + generation * 60)
        server.route("/" + name, .cached(body: bodies[index], contentType: type, etag: etag, lastModified: lastModified))
    }
    for (index, name) in names.enumerated() {
        bodies.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(name))))
        publish(index, generation: 0)
    }
    FileHandle.standardOutput.write(Data("port \(server.port)\n".utf8))
    // Serve until whoever started us closes our standard input.
    var generation = 0
    while let line = readLine(), line != "quit" {
        let words = line.split(separator: " ")
        guard words.count == 2, words[0] == "change" || words[0] == "touch", let count = Int(words[1]), count > 0 else { continue }
        generation += 1
        let step = max(names.count / count, 1)
        for index in stride(from: 0, to: names.count, by: step).prefix(count) {
            if words[0] == "change" {
                bodies[index] = withNewItem(bodies[index], name: names[index], feed: index, generation: generation)
            } else {
                bodies[index] += names[index].hasSuffix(".json") ? Array(" ".utf8) : Array("<!-- \(generation) -->".utf8)
            }
            publish(index, generation: generation)
        }
        FileHandle.standardOutput.write(Data("\(words[0] == "change" ? "changed" : "touched") \(count)\n".utf8))
    }
    server.stop()
}

func fetch(_ urlFile: String, jobs: Int, perHost: Int) async throws {
    let urls = try String(contentsOfFile: urlFile, encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
    var settings = HTTPSettings()
    settings.maxConnections = jobs
    settings.maxPerHost = perHost
    settings.retries = 0
    let fetcher = CurlFetcher(settings: settings)
    let started = ContinuousClock.now
    let (bytes, failures) = await withTaskGroup(of: Int?.self) { group -> (Int, Int) in
        for url in urls {
            group.addTask {
                // The body is dropped at once: what is measured is the fetcher, as with curl -o /dev/null.
                try? await fetcher.fetch(FetchRequest(url: url)).body.count
            }
        }
        var bytes = 0
        var failures = 0
        for await result in group {
            if let result { bytes += result } else { failures += 1 }
        }
        return (bytes, failures)
    }
    let elapsed = ContinuousClock.now - started
    let seconds = elapsed.inSeconds
    print(
        #"{"seconds": \#(seconds), "requests": \#(urls.count), "failures": \#(failures), "bytes": \#(bytes), "peak_rss_kb": \#(peakMemoryKB())}"#
    )
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    return number
}

switch arguments.first {
case "serve":
    guard arguments.count >= 2 else { fail("usage: tributary-bench serve DIR") }
    do { try serve(arguments[1]) } catch { fail("\(error)") }
case "fetch":
    guard arguments.count >= 2 else { fail("usage: tributary-bench fetch URLFILE [--jobs N] [--per-host N]") }
    do {
        try await fetch(arguments[1], jobs: option("--jobs", default: 32), perHost: option("--per-host", default: 32))
    } catch { fail("\(error)") }
case "pipeline":
    do {
        try PipelineBenchmark.run(
            items: option("--items", default: 100_000), runs: option("--runs", default: 1), seed: UInt64(option("--seed", default: 2026)))
    } catch { fail("\(error)") }
default:
    fail("usage: tributary-bench serve DIR | fetch URLFILE [--jobs N] [--per-host N] | pipeline --items N [--runs R] [--seed S]")
}
