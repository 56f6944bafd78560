// swift-tools-version: 6.2
// A package that depends on this checkout by path, the way a user's app does.
// CI builds and runs it in several language modes (.ci/consumer); each file in
// Sources/Consumer exercises one part of the toolkit as a user writes it:
// continuations and their migration, blocking work, the actor-split helpers
// and trace recording.

import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so the product's
// `package:` is the checkout's folder name, whatever the clone is called.
let toolkit = URL(fileURLWithPath: Context.packageDirectory)
    .deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

// CONSUMER_MODE picks the language settings: swift6 (default), approachable
// (Swift 6.2's main-actor-by-default settings) or swift5 (complete checking).
let mode = Context.environment["CONSUMER_MODE"] ?? "swift6"
let swiftSettings: [SwiftSetting]
let languageMode: SwiftLanguageMode
switch mode {
case "approachable":
    languageMode = .v6
    swiftSettings = [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
    ]
case "swift5":
    languageMode = .v5
    swiftSettings = [.enableExperimentalFeature("StrictConcurrency=complete")]
default:
    languageMode = .v6
    swiftSettings = []
}

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: toolkit.path)],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [
                .product(name: "ConcurrencyToolkit", package: toolkit.lastPathComponent),
                .product(name: "ConcurrencyToolkitTesting", package: toolkit.lastPathComponent),
            ],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [languageMode]
)
