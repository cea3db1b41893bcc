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
    /// The conversions that alternatives of a list give themselves (`[time, {path: ts, convert: unix}]`), by index in
    /// `sources`: each applies to its own alternative's values only; the others use `conversion` and `timeZone`.
    var own: [Int: Conversion] = [:]

    /// How the values of an alternative are converted.
    struct Conversion: Sendable, Hashable {
        /// The conversion; `.none` for the field's.
        var conversion: ValueConversion
        /// The time zone of a date pattern, when the alternative names one.
        var timeZone: String?
    }

    /// A value with the conversion that applies to it.
    struct Value {
        /// The text as found.
        var text: String
        /// Its conversion (the alternative's own, else the field's).
        var conversion: ValueConversion
        /// The time zone of a date pattern, when the alternative or field names one.
        var timeZone: String?
    }

    /// Every conversion the rule uses: the field's and each alternative's own.
    var conversions: [Conversion] {
        [Conversion(conversion: conversion, timeZone: timeZone)] + own.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The values of the first source that gives any.
    func firstValues(_ evaluate: (Expression) -> [String]) -> [String] {
        firstConverted(evaluate).map(\.text)
    }

    /// Every value of every source, in order, with empty texts dropped, each with its conversion.
    func allConverted(_ evaluate: (Expression) -> [String]) -> [Value] {
        sources.indices.flatMap { index in values(of: sources[index], evaluate).map { converted($0, index) } }
    }

    /// The values of the first source that gives any, each with its conversion.
    func firstConverted(_ evaluate: (Expression) -> [String]) -> [Value] {
        for index in sources.indices {
            let values = values(of: sources[index], evaluate)
            if !values.isEmpty { return values.map { converted($0, index) } }
        }
        return []
    }

    /// A value of the source at `index` with the conversion that applies to it.
    private func converted(_ text: String, _ index: Int) -> Value {
        guard let own = own[index] else { return Value(text: text, conversion: conversion, timeZone: timeZone) }
        return Value(text: text, conversion: own.conversion == .none ? conversion : own.conversion, timeZone: own.timeZone ?? timeZone)
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
