// swift-tools-version: 6.0
import PackageDescription

/// The same strict settings for every Swift target: Swift 6 language mode (complete concurrency
/// checking) and upcoming features that keep imports honest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Tributary",
    products: [
        .executable(name: "tributary", targets: ["tributary"]),
        .library(name: "TributarySyndication", targets: ["TributarySyndication"]),
        .library(name: "TributaryCore", targets: ["TributaryCore"]),
    ],
    targets: [
        // C libraries from Debian, each imported by exactly one Swift module.
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libcurl's headers only: CTributaryCurl opens the library on first use (see its header).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CTributaryCurl", dependencies: ["CCurl"]),
        .target(name: "CTributaryProcess"),
        .systemLibrary(name: "CLinux"),

        // Pure Swift building blocks.
        .target(name: "TributaryModel"),
        .target(name: "TributaryJSON"),
        .target(name: "TributaryYAML", dependencies: ["CYAML"]),
        .target(name: "TributarySyndication", dependencies: ["TributaryModel", "TributaryJSON", "CLibXML2"]),

        // What runs remember: the SQLite state store and the run lock.
        .target(name: "TributaryState", dependencies: ["TributaryModel", "TributaryJSON", "CSQLite"]),

        // The engine and its I/O.
        .target(
            name: "TributaryCore",
            dependencies: ["TributaryModel", "TributaryJSON", "TributaryYAML", "TributarySyndication", "TributaryState", "CLinux"]),
        .target(name: "TributaryHTTP", dependencies: ["TributaryCore", "CCurl", "CTributaryCurl"]),

        // Adapters: one module per folder under Plugins/.
        .target(
            name: "CommandAdapter",
            dependencies: ["TributaryCore", "TributaryModel", "TributarySyndication", "CTributaryProcess"],
            path: "Plugins/Command"
        ),
        .target(
            name: "DeclarativeAdapters",
            dependencies: ["TributaryCore", "TributaryModel", "TributaryJSON", "TributarySyndication"],
            path: "Plugins/Declarative"
        ),
        .target(
            name: "FeedAdapters",
            dependencies: ["TributaryCore", "TributarySyndication", "TributaryJSON"],
            path: "Plugins/Feed"
        ),
        .target(
            name: "KanzhihuAdapter",
            dependencies: ["TributaryCore", "TributaryModel", "TributaryJSON", "TributarySyndication"],
            path: "Plugins/Kanzhihu"
        ),
        .target(name: "QdailyAdapter", dependencies: ["TributaryCore", "TributaryModel", "TributaryJSON"], path: "Plugins/Qdaily"),
        .target(
            name: "TemplateAdapter", dependencies: ["TributaryCore", "TributaryModel", "TributaryJSON"], path: "Plugins/Template"),
        .target(
            name: "ToutiaoAdapter",
            dependencies: ["TributaryCore", "TributaryJSON", "TributaryModel", "TributarySyndication"],
            path: "Plugins/Toutiao"
        ),

        // The command line: argument parsing, commands, the adapter registry.
        .target(
            name: "TributaryCLI",
            dependencies: [
                "TributaryCore", "TributaryHTTP", "TributarySyndication", "TributaryState", "TributaryModel", "TributaryJSON",
                "CommandAdapter", "DeclarativeAdapters", "FeedAdapters", "KanzhihuAdapter", "QdailyAdapter", "ToutiaoAdapter",
                "CLinux",
            ]
        ),
        .executableTarget(name: "tributary", dependencies: ["TributaryCLI"]),

        // The Swift side of `make bench` (a server and a fetch driver); not shipped.
        .executableTarget(
            name: "tributary-bench",
            dependencies: ["TributaryCore", "TributaryHTTP", "TestSupport"],
            path: "Benchmarks/TributaryBench"
        ),

        // Tests: one target per module, shared helpers in TestSupport.
        .target(
            name: "TestSupport",
            dependencies: ["TributaryCore", "TributaryModel"],
            path: "Tests/TestSupport",
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport"]),
        .testTarget(name: "TributaryModelTests", dependencies: ["TributaryModel"]),
        .testTarget(name: "TributaryJSONTests", dependencies: ["TributaryJSON"]),
        .testTarget(name: "TributaryYAMLTests", dependencies: ["TributaryYAML"]),
        .testTarget(
            name: "TributarySyndicationTests",
            dependencies: ["TributarySyndication", "TributaryModel", "TributaryJSON", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TributaryCoreTests",
            dependencies: ["TributaryCore", "TributaryModel", "TributaryYAML", "TributarySyndication", "TributaryState", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "TributaryStateTests", dependencies: ["TributaryState", "TributaryModel", "TributaryJSON", "TestSupport"]),
        .testTarget(name: "TributaryHTTPTests", dependencies: ["TributaryHTTP", "TributaryCore", "TestSupport"]),
        .testTarget(
            name: "CommandAdapterTests",
            dependencies: ["CommandAdapter", "TributaryCore", "TributaryModel", "TestSupport", "tributary"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DeclarativeAdaptersTests",
            dependencies: [
                "DeclarativeAdapters", "QdailyAdapter", "TributaryCore", "TributaryHTTP", "TributaryModel", "TestSupport", "tributary",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "FeedAdaptersTests",
            dependencies: ["FeedAdapters", "TributaryCore", "TributaryHTTP", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "KanzhihuAdapterTests",
            dependencies: ["KanzhihuAdapter", "TributaryCore", "TributaryHTTP", "TributaryModel", "TributaryJSON", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "QdailyAdapterTests",
            dependencies: [
                "QdailyAdapter", "TributaryCore", "TributaryHTTP", "TributaryModel", "TributaryJSON", "TestSupport", "tributary",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TemplateAdapterTests",
            dependencies: ["TemplateAdapter", "TributaryCore", "TributaryHTTP", "TributaryModel", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ToutiaoAdapterTests",
            dependencies: [
                "ToutiaoAdapter", "TributaryCore", "TributaryHTTP", "TestSupport", "TributaryModel", "TributaryJSON", "tributary",
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "TributaryCLITests",
            dependencies: ["TributaryCLI", "tributary", "TestSupport", "TributarySyndication", "TributaryModel"],
            resources: [.copy("Fixtures")]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
