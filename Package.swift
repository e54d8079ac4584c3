// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "skeletond",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "skeletond", targets: ["skeletond"]),
        .executable(name: "skeletonctl", targets: ["skeletonctl"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "SkeletonLayout"),
        .target(name: "SkeletonRender", dependencies: ["SkeletonLayout"]),
        .systemLibrary(name: "CLibDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "CSkeletonDRM", dependencies: ["CLibDRM"]),
        .target(name: "SkeletonDisplay", dependencies: ["SkeletonRender", "CZlib", "CLibDRM", "CSkeletonDRM"]),
        .target(name: "SkeletonTools", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonDisplay"]),
        .target(name: "SkeletonProtocol", dependencies: ["SkeletonLayout"]),
        .target(name: "CSkeletonSystem"),
        .target(name: "SkeletonDaemon",
                dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonDisplay", "SkeletonProtocol", "CSkeletonSystem"]),
        .executableTarget(
            name: "skeletond",
            dependencies: [
                "SkeletonTools",
                "SkeletonDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "skeletonctl",
            dependencies: [
                "SkeletonProtocol",
                "CSkeletonSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SkeletonDaemonTests", dependencies: ["SkeletonDaemon", "SkeletonProtocol", "SkeletonDisplay", "CSkeletonSystem"]),
        .testTarget(name: "SkeletonLayoutTests", dependencies: ["SkeletonLayout"]),
        .testTarget(name: "SkeletonRenderTests", dependencies: ["SkeletonRender", "SkeletonDisplay"]),
        .testTarget(name: "SkeletonToolTests", dependencies: ["SkeletonTools"]),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer targets of fuzz/ (scripts/fuzz.sh): only when SKELETOND_FUZZ is set, so that a
// plain build neither compiles nor links them. They reach internals through `package` access.
if Context.environment["SKELETOND_FUZZ"] != nil {
    func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: dependencies, path: "fuzz/Sources/\(name)")
    }
    package.targets += [
        fuzzer("FuzzLayout", ["SkeletonLayout", "SkeletonRender"]),
        fuzzer("FuzzProtocol", ["SkeletonLayout", "SkeletonProtocol"]),
        fuzzer("FuzzSettings", ["SkeletonDaemon"]),
        fuzzer("FuzzBoot", ["SkeletonDaemon", "SkeletonDisplay", "SkeletonLayout", "SkeletonRender", "CLibDRM"]),
        fuzzer("FuzzPNG", ["SkeletonDisplay", "SkeletonRender"]),
    ]
}
