// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "skeletond",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "skeletond", targets: ["skeletond"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "SkeletonLayout"),
        .target(name: "SkeletonRender", dependencies: ["SkeletonLayout"]),
        .target(name: "SkeletonDisplay", dependencies: ["SkeletonRender", "CZlib"]),
        .target(name: "SkeletonTools", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonDisplay"]),
        .executableTarget(
            name: "skeletond",
            dependencies: [
                "SkeletonTools",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SkeletonLayoutTests", dependencies: ["SkeletonLayout"]),
        .testTarget(name: "SkeletonRenderTests", dependencies: ["SkeletonRender", "SkeletonDisplay"]),
        .testTarget(name: "SkeletonToolTests", dependencies: ["SkeletonTools"]),
    ],
    swiftLanguageModes: [.v6]
)
