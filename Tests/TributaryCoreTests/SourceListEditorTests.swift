import Foundation
import Testing

@testable import TributaryCore

@Suite("Adding sources to a configuration's text")
struct SourceListEditorTests {
    let entry = SourceListEditor.Entry(name: "new", url: "https://example.org/new.xml", tags: ["Tag"])

    /// The lines `entry` adds, indented as the list's items are.
    var added: String {
        "  - name: \"new\"\n    adapter: rss\n    url: \"https://example.org/new.xml\"\n    tags: [\"Tag\"]\n"
    }

    @Test("The entries go at the end of the list, before the next key and the comments above it")
    func entriesGoAtTheEndOfTheList() throws {
        let text = "sources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n\n# Outputs.\noutputs: []\n"
        let edited = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edited == "sources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n" + added
                + "\n# Outputs.\noutputs: []\n")
    }

    /// A file written on Windows: libyaml counts its lines as any other, and the new lines end as the others do.
    @Test func crlfLineEndingsAreKept() throws {
        let text = "sources:\r\n  - name: a\r\n    adapter: rss\r\n    url: https://example.org/a.xml\r\noutputs:\r\n  - type: stdout\r\n"
        let edited = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edited == "sources:\r\n  - name: a\r\n    adapter: rss\r\n    url: https://example.org/a.xml\r\n"
                + added.replacingOccurrences(of: "\n", with: "\r\n") + "outputs:\r\n  - type: stdout\r\n")
    }

    /// After a document end marker (`...`) the entries would be a second document.
    @Test func entriesGoBeforeADocumentEndMarker() throws {
        let text = "---\nsources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n...\n# The end.\n"
        let edited = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edited == "---\nsources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n" + added + "...\n# The end.\n")
    }
}
