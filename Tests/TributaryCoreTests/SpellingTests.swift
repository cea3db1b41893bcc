import Testing
import TributaryCore

@Suite("Spelling")
struct SpellingTests {
    @Test(
        "distance",
        arguments: [
            ("", "", 0),
            ("a", "", 1),
            ("", "abc", 3),
            ("same", "same", 0),
            ("kitten", "sitting", 3),
            ("flaw", "lawn", 2),
            ("confg", "config", 1),
            ("cnofig", "config", 1),  // a swap of neighbours counts once
            ("cnoifg", "config", 2),
            ("Config", "config", 1),
            ("café", "cafe", 1),
            ("cafe\u{301}", "café", 2),  // scalars, not characters
            ("🙂x", "x", 1),
        ])
    func distance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Spelling.distance(a, b) == expected)
        #expect(Spelling.distance(b, a) == expected)
    }

    @Test(
        "case-insensitive distance",
        arguments: [
            ("Config", "config", 0),
            ("QUIET", "quite", 1),
            ("ÉTÉ", "été", 0),
        ])
    func distanceIgnoringCase(_ a: String, _ b: String, _ expected: Int) {
        #expect(Spelling.distance(a, b, ignoringCase: true) == expected)
    }

    static let options = ["config", "quiet", "verbose", "version", "feed", "fee", "title"]

    @Test(
        "suggestion",
        arguments: [
            ("confg", "config"),  // one deletion
            ("cnoifg", "config"),  // distance 2 allowed for 6 letters
            ("CONFIG", "config"),  // case-insensitive match
            ("Titel", "title"),  // one swap
            ("Ttiel", nil),  // distance 2 exceeds the limit of 1 for 5 letters
            ("qiet", "quiet"),
            ("fed", "feed"),  // tie between "feed" and "fee": first candidate wins
            ("verbo", "verbose"),  // only prefix match
            ("vers", "version"),  // only prefix match
            ("ver", nil),  // prefix of two candidates
            ("ve", nil),  // too short for prefix rule
            ("xyz", nil),
            ("", nil),
            ("configuration", nil),  // distance 7 > 3
        ] as [(String, String?)])
    func suggestion(_ word: String, _ expected: String?) {
        #expect(Spelling.suggestion(for: word, among: Self.options) == expected)
    }

    @Test func distanceLimitIsCappedAtThree() {
        let long = "abcdefghijklmnop"  // 16 scalars: max(1, 16/3) = 5, capped at 3; second word is 4 edits away
        #expect(Spelling.suggestion(for: "abcdefghijklmXYZ", among: [long]) == long)
        #expect(Spelling.suggestion(for: "abcdefghijklWXYZ", among: [long]) == nil)
    }

    @Test func acceptsAnySequence() {
        #expect(Spelling.suggestion(for: "quiet", among: ["QUIET"].lazy.map { $0 }) == "QUIET")
        #expect(Spelling.suggestion(for: "a", among: Set(["b"])) == "b")  // 1 letter still allows distance 1
    }
}
