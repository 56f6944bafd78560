// swift-tools-version: 6.2
// ConcurrencyToolkit: zero package dependencies (Benchmarks/ is its own package).

import PackageDescription

let package = Package(
    name: "ConcurrencyToolkit",
    platforms: [
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "ConcurrencyToolkit", targets: ["ConcurrencyToolkit"]),
        .library(name: "ConcurrencyToolkitTesting", targets: ["ConcurrencyToolkitTesting"]),
    ],
    targets: [
        .target(name: "ConcurrencyToolkit"),
        .target(
            name: "ConcurrencyToolkitTesting",
            dependencies: ["ConcurrencyToolkit"]
        ),
        .testTarget(
            name: "ConcurrencyToolkitTests",
            dependencies: ["ConcurrencyToolkit", "ConcurrencyToolkitTesting"]
        ),
        .testTarget(
            name: "ConcurrencyToolkitTestingTests",
            dependencies: ["ConcurrencyToolkit", "ConcurrencyToolkitTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
