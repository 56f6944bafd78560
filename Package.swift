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
        .executable(name: "file-squeezer", targets: ["file-squeezer"]),
    ],
    targets: [
        .target(name: "ConcurrencyToolkit"),
        .target(
            name: "ConcurrencyToolkitTesting",
            dependencies: ["ConcurrencyToolkit"]
        ),
        // What every test target shares (collectors, waits, scratch folders,
        // running the app's binary), in one module, as swift-argument-parser
        // keeps its test helpers. It knows nothing of the app.
        .target(
            name: "TestSupport",
            dependencies: ["ConcurrencyToolkit"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ConcurrencyToolkitTests",
            dependencies: ["ConcurrencyToolkit", "ConcurrencyToolkitTesting", "TestSupport"]
        ),
        .testTarget(
            name: "ConcurrencyToolkitTestingTests",
            dependencies: ["ConcurrencyToolkit", "ConcurrencyToolkitTesting", "TestSupport"]
        ),

        // File Squeezer, the reference app (Examples/FileSqueezer). zlib is a
        // system library, so the package still has no package dependencies.
        .systemLibrary(
            name: "CZlib",
            path: "Examples/FileSqueezer/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "FileSqueezerCore",
            dependencies: ["ConcurrencyToolkit", "CZlib"],
            path: "Examples/FileSqueezer/Sources/FileSqueezerCore"
        ),
        .executableTarget(
            name: "file-squeezer",
            dependencies: ["FileSqueezerCore"],
            path: "Examples/FileSqueezer/Sources/file-squeezer"
        ),
        .testTarget(
            name: "FileSqueezerTests",
            dependencies: ["FileSqueezerCore", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
