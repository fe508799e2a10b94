// swift-tools-version:6.2
import PackageDescription

// The app layer: the SwiftUI screens over RepairMinderKit's view models, in a package of their
// own so that the server never compiles a stand-in of an Apple framework. On Linux the screens
// compile against declaration-only stand-ins of the frameworks they use (StandIns/README.md),
// so a build here type-checks every screen; never shipped: no product names them, and Apple
// platforms build against the real frameworks.
#if os(Linux)
// Declarations newer than the deployment target also carry a custom availability domain
// (StandIns/StandInAvailability), which Linux enforces where it ignores `@available(iOS 18, *)`.
let standInSettings: [SwiftSetting] = [.enableExperimentalFeature("CustomAvailability")]
let appleStandIns: [Target] = [
    .target(name: "StandInAvailability", path: "StandIns/StandInAvailability"),
    .target(name: "Combine", dependencies: ["StandInAvailability"], path: "StandIns/Combine", swiftSettings: standInSettings),
    .target(name: "UIKit", dependencies: ["StandInAvailability"], path: "StandIns/UIKit", swiftSettings: standInSettings),
    .target(
        name: "UserNotifications", dependencies: ["StandInAvailability"], path: "StandIns/UserNotifications",
        swiftSettings: standInSettings),
    .target(
        name: "AuthenticationServices", dependencies: ["UIKit", "StandInAvailability"], path: "StandIns/AuthenticationServices",
        swiftSettings: standInSettings),
    .target(
        name: "LocalAuthentication", dependencies: ["StandInAvailability"], path: "StandIns/LocalAuthentication",
        swiftSettings: standInSettings),
    .target(name: "Network", dependencies: ["StandInAvailability"], path: "StandIns/Network", swiftSettings: standInSettings),
    .target(
        name: "SwiftUI", dependencies: ["Combine", "UIKit", "StandInAvailability"], path: "StandIns/SwiftUI",
        swiftSettings: standInSettings),
]
let screenFrameworks: [Target.Dependency] = [
    "SwiftUI", "Combine", "UIKit", "UserNotifications", "AuthenticationServices", "LocalAuthentication", "Network",
]
let screenSettings: [SwiftSetting] = [.define("SWIFTUI_STAND_IN")]
// No App Store here: the privacy manifest ships only in an Apple platform's bundle.
let privacyManifest = (resources: [Resource](), exclude: ["PrivacyInfo.xcprivacy"])
#else
let appleStandIns: [Target] = []
let screenFrameworks: [Target.Dependency] = []
let screenSettings: [SwiftSetting] = []
let privacyManifest = (resources: [Resource.copy("PrivacyInfo.xcprivacy")], exclude: [String]())
#endif

let package = Package(
    name: "RepairMinderApps",
    // The deployment targets the screens are checked for: on Linux, the stand-ins' APIs newer
    // than iOS 17 carry an availability domain (StandIns/StandInAvailability) and
    // `StandInAvailabilityTests` holds that list to these platforms.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "RepairMinderUI", targets: ["RepairMinderUI"])
    ],
    dependencies: [
        .package(name: "RepairMinder", path: ".."),
        // The screens' Objective-C rules (ObjectiveCRulesTests) are checked on their syntax tree.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        .target(
            name: "RepairMinderUI",
            dependencies: [
                .product(name: "RepairMinderKit", package: "RepairMinder"),
                .product(name: "RepairMinderModels", package: "RepairMinder"),
            ] + screenFrameworks,
            exclude: privacyManifest.exclude,
            resources: privacyManifest.resources,
            swiftSettings: screenSettings
        ),
        .testTarget(
            name: "RepairMinderUITests",
            dependencies: [
                "RepairMinderUI", .product(name: "RepairMinderKit", package: "RepairMinder"),
                .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]
        ),
    ] + appleStandIns,
    swiftLanguageModes: [.v6]
)
