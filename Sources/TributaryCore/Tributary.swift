/// Facts about this build of Tributary.
public enum Tributary {
    /// The version, as `tributary version` prints it.
    public static let version = "0.1.0"
    /// The User-Agent sent when the configuration sets none.
    public static let userAgent = "Tributary/\(version) (feed aggregator)"
}
