// swift-tools-version: 6.1
// Benchmarks for ConcurrencyToolkit, side by side with what users would use
// instead. A separate package so the library itself keeps zero dependencies.
//
//   cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
//
// See Documentation/Performance.md for the results and how to read them.

import PackageDescription
import struct Foundation.URL

// The root package is a path dependency; SwiftPM names it after its folder,
// which is whatever the checkout was cloned into.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = rootFolder.lastPathComponent

let package = Package(
    name: "ConcurrencyToolkitBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        .executableTarget(
            name: "ToolkitBenchmarks",
            dependencies: [
                .product(name: "ConcurrencyToolkit", package: rootIdentity),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "HarnessSupport",
            ],
            path: "Benchmarks/ToolkitBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A plain release program beside package-benchmark: the primitives
        // timed as a user would, with this machine's hand-off limit.
        // Run by Scripts/primitives.sh.
        .executableTarget(
            name: "HandOffHarness",
            dependencies: [
                "CHandOff",
                "HarnessSupport",
                .product(name: "ConcurrencyToolkit", package: rootIdentity),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/HandOffHarness"
        ),
        .target(name: "CHandOff", path: "Benchmarks/CHandOff"),
        // What the harnesses share: how the plain ones print figures
        // (milliseconds, rounding), the actors the hop cases time, and the
        // per-item workloads and their peers.
        .target(
            name: "HarnessSupport",
            dependencies: [.product(name: "ConcurrencyToolkit", package: rootIdentity)],
            path: "Benchmarks/HarnessSupport"
        ),
        // StallDetector's report latency, as a program sees it.
        // Run by Scripts/stall-detector.sh.
        .executableTarget(
            name: "StallLatencyHarness",
            dependencies: [.product(name: "ConcurrencyToolkit", package: rootIdentity), "HarnessSupport"],
            path: "Benchmarks/StallLatencyHarness"
        ),
        // What the stall capture does to the calls it watches (each keeps its
        // length), and what one capture costs. Run by Scripts/stall-capture.sh.
        .executableTarget(
            name: "StallCaptureHarness",
            dependencies: [.product(name: "ConcurrencyToolkit", package: rootIdentity), "HarnessSupport"],
            path: "Benchmarks/StallCaptureHarness"
        ),
        // Memory over time (issue 39): RSS and malloc's bytes in use of a
        // process that uses every part, request after request, detectors on
        // or off. Run by Scripts/memory-soak.sh.
        .executableTarget(
            name: "MemorySoakHarness",
            dependencies: [.product(name: "ConcurrencyToolkit", package: rootIdentity), "HarnessSupport"],
            path: "Benchmarks/MemorySoakHarness"
        ),
    ],
    swiftLanguageModes: [.v6]
)
