// swift-tools-version:6.2
import PackageDescription

// The server, the wire types, the SDK and the CLI. The SwiftUI screens are a package of their
// own, Apps/, so nothing here can see a stand-in of an Apple framework.

// The SDK's privacy manifest ships in its bundle on Apple platforms (App Store submissions read
// it there); elsewhere there is no App Store, and no bundle for the SDK to carry.
#if os(Linux) || os(Windows)
let privacyManifest = (resources: [Resource](), exclude: ["PrivacyInfo.xcprivacy"])
#else
let privacyManifest = (resources: [Resource.copy("PrivacyInfo.xcprivacy")], exclude: [String]())
#endif

let package = Package(
    name: "RepairMinder",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "RepairMinderModels", targets: ["RepairMinderModels"]),
        .library(name: "RepairMinderServer", targets: ["RepairMinderServer"]),
        .library(name: "RepairMinderKit", targets: ["RepairMinderKit"]),
        .executable(name: "repairminder", targets: ["repairminder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        // The clients' CSV import and export (docs/API.md §14): RFC 4180 reading and writing.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // The web console's pages (docs/API.md §15.5): logic-less templates shipped as resources.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "RepairMinderModels",
            dependencies: [.product(name: "ExtrasBase64", package: "swift-extras-base64")],
            resources: [.copy("Resources/config.json")]
        ),
        .target(
            name: "RepairMinderServer",
            dependencies: [
                "RepairMinderModels",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // PostgresNIO's own pool, for its errors: a pool that cannot reach the server
                // says so with `ConnectionPoolError` (`DatabaseUnavailable`). Built already as
                // part of PostgresNIO.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            exclude: ["Resources/README.md"],
            resources: [.copy("Resources/common-passwords.txt"), .copy("Resources/Console"), .copy("Resources/Pages")]
        ),
        .target(
            name: "RepairMinderKit",
            dependencies: ["RepairMinderModels"],
            exclude: privacyManifest.exclude,
            resources: privacyManifest.resources
        ),
        .executableTarget(
            name: "repairminder",
            dependencies: [
                "RepairMinderServer",
                "RepairMinderKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "SDKOverheadBenchmark",
            dependencies: ["RepairMinderKit", "RepairMinderServer"],
            path: "Benchmarks/SDKOverhead"
        ),
        .target(
            name: "TestSupport",
            dependencies: [
                "RepairMinderServer", "RepairMinderKit", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "RepairMinderModelsTests",
            dependencies: ["RepairMinderModels"]
        ),
        .testTarget(
            name: "RepairMinderKitTests",
            dependencies: [
                "RepairMinderKit",
                "RepairMinderServer",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ]
        ),
        .testTarget(
            name: "repairminderTests",
            dependencies: [
                "repairminder", "RepairMinderServer", "TestSupport", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            exclude: ["interactive_login.py"]
        ),
        .testTarget(
            name: "RepairMinderServerTests",
            dependencies: [
                "RepairMinderServer",
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
