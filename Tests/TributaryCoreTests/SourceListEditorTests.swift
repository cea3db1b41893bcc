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
        let edit = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edit.text == "sources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n" + added
                + "\n# Outputs.\noutputs: []\n")
    }

    /// A file written on Windows: libyaml counts its lines as any other, and the new lines end as the others do.
    @Test func crlfLineEndingsAreKept() throws {
        let text = "sources:\r\n  - name: a\r\n    adapter: rss\r\n    url: https://example.org/a.xml\r\noutputs:\r\n  - type: stdout\r\n"
        let edit = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edit.text == "sources:\r\n  - name: a\r\n    adapter: rss\r\n    url: https://example.org/a.xml\r\n"
                + added.replacingOccurrences(of: "\n", with: "\r\n") + "outputs:\r\n  - type: stdout\r\n")
    }

    /// After a document end marker (`...`) the entries would be a second document.
    @Test func entriesGoBeforeADocumentEndMarker() throws {
        let text = "---\nsources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n...\n# The end.\n"
        let edit = try SourceListEditor.appending([entry], to: text, file: "feeds.yaml")
        #expect(
            edit.text == "---\nsources:\n  - name: a\n    adapter: rss\n    url: https://example.org/a.xml\n" + added + "...\n# The end.\n")
    }

    /// Problems found in the new text can be told apart: in an added entry, or at a line of the text as it was.
    @Test func anEditTellsTheAddedLinesFromTheOldOnes() throws {
        let text = "sources:\n  - {name: a, adapter: rss, url: \"https://example.org/a.xml\"}\noutputs: []\n"
        let plain = SourceListEditor.Entry(name: "plain", url: "https://example.org/plain.xml")
        let edit = try SourceListEditor.appending([entry, plain], to: text, file: "feeds.yaml")
        #expect(edit.text.split(separator: "\n").count == 10)
        #expect(edit.firstLine == 3)
        #expect((1...10).map(edit.entry(atLine:)) == [nil, nil, 0, 0, 0, 0, 1, 1, 1, nil])
        #expect((1...10).map(edit.originalLine) == [1, 2, nil, nil, nil, nil, nil, nil, nil, 3])
    }
}
