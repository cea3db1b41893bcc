/// The adapters the engine can build, by kind and alias. The CLI fills it; the core names none.
public struct AdapterRegistry: Sendable {
    /// Every registered adapter type, in registration order.
    public let adapters: [any SourceAdapter.Type]
    private let byName: [String: any SourceAdapter.Type]

    /// Registers adapters; a later kind or alias replaces an earlier one of the same name.
    public init(_ adapters: [any SourceAdapter.Type]) {
        self.adapters = adapters
        var byName: [String: any SourceAdapter.Type] = [:]
        for adapter in adapters {
            byName[adapter.kind] = adapter
            for alias in adapter.aliases { byName[alias] = adapter }
        }
        self.byName = byName
    }

    /// The adapter for a kind or alias.
    public func adapter(named name: String) -> (any SourceAdapter.Type)? {
        byName[name]
    }

    /// Every kind and alias, for suggestions.
    public var names: [String] { adapters.flatMap { [$0.kind] + $0.aliases } }
}
