/// Where one field of an item comes from: one or more sources tried in order (the first that
/// gives a value wins; list fields take every value), and how the value is converted.
struct FieldRule<Expression: Sendable & Hashable>: Sendable, Hashable {
    /// One way to get a value.
    enum Source: Sendable, Hashable {
        /// An expression evaluated against the item (every value it yields).
        case expression(Expression)
        /// A template whose holes are expressions.
        case template(FieldTemplate<Expression>)
        /// A fixed text.
        case constant(String)
    }

    /// The field's place in the configuration, for messages: `fields.title`.
    var name: String
    /// Where the field's rule is written: `feeds.yaml:14:7`.
    var location: String
    /// The sources, in order.
    var sources: [Source]
    /// The conversion applied to each value.
    var conversion: ValueConversion
    /// The time zone of a date pattern, when the field names one (IANA name).
    var timeZone: String?

    /// Every value of every source, in order, with empty texts dropped.
    func allValues(_ evaluate: (Expression) -> [String]) -> [String] {
        sources.flatMap { values(of: $0, evaluate) }
    }

    /// The values of the first source that gives any.
    func firstValues(_ evaluate: (Expression) -> [String]) -> [String] {
        for source in sources {
            let values = values(of: source, evaluate)
            if !values.isEmpty { return values }
        }
        return []
    }

    /// The expressions the rule reads, for "matched nothing" messages.
    var expressions: [Expression] {
        sources.flatMap { source -> [Expression] in
            switch source {
            case .expression(let expression): [expression]
            case .template(let template): template.expressions
            case .constant: []
            }
        }
    }

    private func values(of source: Source, _ evaluate: (Expression) -> [String]) -> [String] {
        switch source {
        case .expression(let expression):
            return evaluate(expression).filter { !$0.isEmpty }
        case .template(let template):
            let text = template.render { evaluate($0).first { !$0.isEmpty } }
            return text.map { [$0] } ?? []
        case .constant(let text):
            return text.isEmpty ? [] : [text]
        }
    }
}
