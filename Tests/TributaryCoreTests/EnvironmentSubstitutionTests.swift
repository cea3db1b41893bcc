import Testing

@testable import TributaryCore

@Suite("Environment substitution")
struct EnvironmentSubstitutionTests {
    static let substitution = EnvironmentSubstitution(environment: ["TOKEN": "s3cret", "EMPTY": "", "_X1": "x", "HOST": "example.org"])

    @Test(
        "expansions",
        arguments: [
            ("plain text", "plain text"),
            ("", ""),
            ("${TOKEN}", "s3cret"),
            ("Bearer ${TOKEN}!", "Bearer s3cret!"),
            ("${_X1}", "x"),
            ("${EMPTY}", ""),  // set but empty, no fallback: the empty value
            ("${TOKEN:-other}", "s3cret"),  // set: the value
            ("${MISSING:-fallback}", "fallback"),  // unset: the fallback
            ("${EMPTY:-fallback}", "fallback"),  // set but empty: the fallback, as in the shell
            ("${MISSING:-}", ""),
            ("${MISSING:-a b:-c}", "a b:-c"),  // the fallback is everything after the first ':-'
            ("$$", "$"),
            ("$${TOKEN}", "${TOKEN}"),  // an escaped dollar is not a reference
            ("cost: $5", "cost: $5"),  // a lone dollar is kept
            ("$", "$"),
            ("a$", "a$"),
            ("$TOKEN", "$TOKEN"),  // only the braced form is expanded
            ("https://${HOST}/feed?key=${TOKEN}&x=${MISSING:-1}", "https://example.org/feed?key=s3cret&x=1"),
            ("${TOKEN}${TOKEN}", "s3crets3cret"),
            ("中文 ${HOST} 🙂", "中文 example.org 🙂"),
        ])
    func expands(_ text: String, _ expected: String) {
        #expect(Self.substitution.expand(text) == .success(expected))
    }

    @Test(
        "failures",
        arguments: [
            ("${MISSING}", EnvironmentSubstitution.Failure.unset("MISSING")),
            ("ok ${TOKEN} then ${MISSING} and ${ALSO}", .unset("MISSING")),  // the first failure is reported
            ("${TOKEN", .unterminated),
            ("x ${", .unterminated),
            ("${}", .badName("")),
            ("${:-x}", .badName("")),
            ("${1ABC}", .badName("1ABC")),
            ("${A-B}", .badName("A-B")),
            ("${A B}", .badName("A B")),
            ("${TOKEN-x}", .badName("TOKEN-x")),
            ("${ÉTÉ}", .badName("ÉTÉ")),
        ])
    func fails(_ text: String, _ expected: EnvironmentSubstitution.Failure) {
        #expect(Self.substitution.expand(text) == .failure(expected))
    }
}
