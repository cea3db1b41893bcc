import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Files under `Fixtures/`, copied into the test bundle as one folder.
enum Fixture {
    /// The URL of `Fixtures/<name>.<ext>`; fails the test when the file is not in the bundle.
    static func url(_ name: String, _ ext: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(
            Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Fixtures"),
            "Fixtures/\(name).\(ext) is missing from the test bundle", sourceLocation: sourceLocation)
    }
}

/// An instant given as UTC calendar fields, computed with Foundation's Gregorian calendar (not
/// with the code under test) and `milliseconds` added as `Double(milliseconds) / 1000`.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, ms milliseconds: Int = 0)
    -> Date
{
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .gmt
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let whole = calendar.date(from: components) else {
        Issue.record("not a calendar date: \(components)")
        return Date(timeIntervalSince1970: 0)
    }
    return Date(timeIntervalSince1970: whole.timeIntervalSince1970 + Double(milliseconds) / 1000)
}

/// Validates XML documents against a RELAX NG compact schema with the `jing` program.
enum Jing {
    /// Where Debian's `jing` package puts the program.
    static let path = "/usr/bin/jing"

    /// Runs `jing -c atom.rnc` (RFC 4287's schema, from TestSupport) on `xml`; a missing `jing` fails the test.
    static func validate(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
        -> ChildProcess.Result
    {
        try #require(
            FileManager.default.isExecutableFile(atPath: path),
            "jing is not installed (\(path)); run `make test`, which installs the test dependencies",
            sourceLocation: sourceLocation)
        let schemaPath = try AtomSchema.schemaPath
        let directory = try TemporaryDirectory(prefix: "tributary-jing")
        let file = try directory.write(xml, to: "document.xml")
        return try await ChildProcess([path, "-c", schemaPath, file], directory: directory.url.path).run(timeLimit: .seconds(120))
    }

    /// Expects `xml` to be valid against RFC 4287's schema; a missing `jing` fails the test.
    static func expectValid(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await validate(xml, sourceLocation: sourceLocation)
        // jing's launcher prints "[warning] … Unable to locate …" lines for optional jars; only
        // other stderr lines and stdout (where the validation errors go) are worth showing.
        let stderr = result.standardError.split(separator: "\n").filter { !$0.hasPrefix("[warning]") }.joined(separator: "\n")
        #expect(!result.timedOut, "jing ran out of time", sourceLocation: sourceLocation)
        #expect(
            result.status == 0,
            "jing rejected the document (status \(result.status)):\n\(result.standardOutput)\(stderr)\n--- document ---\n\(xml)",
            sourceLocation: sourceLocation)
    }
}

/// An XML element as Foundation's `XMLParser` reads it: a small tree to query in expectations.
struct XMLTree: Equatable, CustomStringConvertible {
    var name: String
    var attributes: [String: String]
    /// The character data directly inside the element (CDATA sections included), concatenated.
    var text: String
    var children: [XMLTree]

    /// The children named `name`.
    func all(_ name: String) -> [XMLTree] { children.filter { $0.name == name } }

    /// The first child named `name`.
    func first(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    var description: String { "<\(name) \(attributes)>\(text)\(children)" }

    /// Parses a whole document; fails the test with the parser's message when it is not well-formed.
    static func parse(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> XMLTree {
        let parser = XMLParser(data: Data(xml.utf8))
        let builder = TreeBuilder()
        parser.delegate = builder
        let ok = parser.parse()
        #expect(ok, "not well-formed XML: \(String(describing: parser.parserError))\n\(xml)", sourceLocation: sourceLocation)
        return try #require(builder.root, "no root element", sourceLocation: sourceLocation)
    }

    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [XMLTree] = []
        var root: XMLTree?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            stack.append(XMLTree(name: elementName, attributes: attributeDict, text: "", children: []))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard var element = stack.popLast() else { return }
            if !element.children.isEmpty, element.text.allSatisfy(\.isWhitespace) { element.text = "" }
            if stack.isEmpty {
                root = element
            } else {
                stack[stack.count - 1].children.append(element)
            }
        }
    }
}
