import Foundation

/// The resolver of the last base asked for, kept for the next item: a feed's items nearly
/// always share one base, and making a resolver reads the base's text (`URL.absoluteString`).
///
/// Not thread-safe: one belongs to one parse (a `FeedBuilder`).
final class HTMLURLResolverCache {
    private var last: HTMLURLResolver?

    /// A resolver for `base`, the last one made when its base is the same.
    func resolver(for base: URL?) -> HTMLURLResolver {
        if let last, last.baseURL == base { return last }
        let made = HTMLURLResolver(baseURL: base)
        last = made
        return made
    }
}
