// swift-tools-version:6.2
import PackageDescription

// The app layer: the SwiftUI screens over RepairMinderKit's view models, in a package of their
// own so that the server never compiles a stand-in of an Apple framework. On Linux the screens
// compile against declaration-only stand-ins of the frameworks they use (StandIns/README.md),
// so a build here type-checks every screen; never shipped: no product names them, and Apple
// platforms build against the real frameworks.
#if os(Linux)
let appleStandIns: [Target] = [
    .target(name: "Combine", path: "StandIns/Combine"),
    .target(name: "UIKit", path: "StandIns/UIKit"),
    .target(name: "UserNotifications", path: "StandIns/UserNotifications"),
    .target(name: "AuthenticationServices", dependencies: ["UIKit"], path: "StandIns/AuthenticationServices"),
    .target(name: "LocalAuthentication", path: "StandIns/LocalAuthentication"),
    .target(name: "SwiftUI", dependencies: ["Combine", "UIKit"], path: "StandIns/SwiftUI"),
]
let screenFrameworks: [Target.Dependency] = [
    "SwiftUI", "Combine", "UIKit", "UserNotifications", "AuthenticationServices", "LocalAuthentication",
]
let screenSettings: [SwiftSetting] = [.define("SWIFTUI_STAND_IN")]
#else
let appleStandIns: [Target] = []
let screenFrameworks: [Target.Dependency] = []
let screenSettings: [SwiftSetting] = []
#endif

let package = Package(
    name: "RepairMinderApps",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "RepairMinderUI", targets: ["RepairMinderUI"])
    ],
    dependencies: [
        .package(name: "RepairMinder", path: "..")
    ],
    targets: [
        .target(
            name: "RepairMinderUI",
            dependencies: [
                .product(name: "RepairMinderKit", package: "RepairMinder"),
                .product(name: "RepairMinderModels", package: "RepairMinder"),
            ] + screenFrameworks,
            swiftSettings: screenSettings
        ),
        .testTarget(
            name: "RepairMinderUITests",
            dependencies: ["RepairMinderUI"]
        ),
    ] + appleStandIns,
    swiftLanguageModes: [.v6]
)
