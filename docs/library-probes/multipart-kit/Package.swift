// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "probe",
    dependencies: [.package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1")],
    targets: [.executableTarget(name: "probe", dependencies: [.product(name: "MultipartKit", package: "multipart-kit")])]
)
