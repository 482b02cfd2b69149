// swift-tools-version:6.0
import PackageDescription

/// An app written the way an iOS developer porting MediaView code writes it, built against
/// the library as any dependency user builds it. `make test` builds and runs it.
let package = Package(
    name: "SeedClient",
    dependencies: [.package(name: "mediaview", path: "../..")],
    targets: [
        .executableTarget(name: "SeedClient", dependencies: [.product(name: "ViewerUIKitCompat", package: "mediaview")]),
    ],
    swiftLanguageModes: [.v6]
)
