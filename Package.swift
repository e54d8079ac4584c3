// swift-tools-version: 6.3;(experimentalCGen)
// experimentalCGen: the WaylandScanner plugin generates C (wayland-scanner's protocol code) for
// CSkeletonWayland at build time.
import PackageDescription

/// scripts/build-static.sh sets SKELETOND_STATIC: see SkeletonText below.
let staticBuild = Context.environment["SKELETOND_STATIC"] != nil

/// The modules of the initramfs's executable use no Swift concurrency. Without the implicit
/// `_Concurrency` import their static link leaves out the concurrency runtime and libdispatch,
/// whose initialisers would run before `main` at every boot.
/// Release builds also leave out the run-time exclusivity checks: the frame loop's class
/// properties cost a `swift_beginAccess` each, about a sixth of a frame's instructions. Debug
/// builds, which the tests run, keep them (docs/design.md, "The boot path").
let bootPathSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-implicit-concurrency-module-import"]),
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

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
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libpng16.a needs libz and libm after it, and a static link orders libraries as given;
        // skeleton_png.c calls zlib's crc32 itself too (zlib.h from zlib1g-dev, beside png.h).
        .target(name: "CSkeletonPNG", dependencies: ["CLibPNG"], linkerSettings: [.linkedLibrary("z"), .linkedLibrary("m")]),
        .target(name: "CSkeletonSystem", cSettings: staticBuild ? [.define("SKELETOND_STATIC")] : []),
        .target(name: "SkeletonSystem", dependencies: ["CSkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonLayout", dependencies: ["SkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonRender", dependencies: ["SkeletonLayout"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonPicture", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonSystem", "CSkeletonPNG"], swiftSettings: bootPathSettings),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        // Linked statically, libfreetype.a needs what FreeType's pkg-config lists as private, after it.
        .target(name: "SkeletonText",
                dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonSystem", "CFreeType", "CHarfBuzz", "CFriBidi"],
                swiftSettings: bootPathSettings,
                linkerSettings: staticBuild ? ["png16", "z", "brotlidec", "brotlicommon", "m"].map { .linkedLibrary($0) } : []),
        .systemLibrary(name: "CLibDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .target(name: "CSkeletonDRM", dependencies: ["CLibDRM"]),
        .target(name: "SkeletonDisplay", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonSystem", "SkeletonPicture", "SkeletonProtocol", "CLibDRM", "CSkeletonDRM"], swiftSettings: bootPathSettings),
        // The Wayland output (`--backend wayland`): libwayland-client, and the protocols' code that
        // wayland-scanner generates at build time. The static build links Debian's libwayland-client
        // source compiled by scripts/build-wayland.sh, with libffi.a after it. skeleton_wayland.c.in
        // is compiled as the plugin's copy of it, made once the protocols' headers it includes
        // are: a source of the target's own would be compiled as early as the headers are made.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        .plugin(name: "WaylandScanner", capability: .buildTool()),
        .target(name: "CSkeletonWayland", dependencies: ["CWaylandClient"], exclude: ["skeleton_wayland.c.in"],
                linkerSettings: staticBuild ? [.linkedLibrary("ffi")] : [], plugins: ["WaylandScanner"]),
        .target(name: "SkeletonWayland", dependencies: [
            "CSkeletonWayland", "CWaylandClient", "SkeletonDisplay", "SkeletonBackend", "SkeletonLog", "SkeletonSettings", "SkeletonLayout",
            "SkeletonRender", "SkeletonSystem", "SkeletonProtocol",
        ]),
        // The X11 output (`--backend x11`): libxcb, the X protocol's C binding, with its Composite
        // extension. The static build links Debian's libxcb.a and libxcb-composite.a, and
        // libXau.a and libXdmcp.a after them.
        .systemLibrary(name: "CXCB", pkgConfig: "xcb", providers: [.apt(["libxcb1-dev", "libxcb-composite0-dev"])]),
        .target(name: "SkeletonX11", dependencies: [
            "CXCB", "SkeletonDisplay", "SkeletonBackend", "SkeletonLog", "SkeletonSettings", "SkeletonLayout", "SkeletonRender",
            "SkeletonSystem", "SkeletonProtocol",
        ], linkerSettings: staticBuild ? ["Xau", "Xdmcp"].map { .linkedLibrary($0) } : []),
        // Prompts at boot: systemd's password agent protocol and Plymouth's questions answered
        // from the keyboard, read through libinput with xkbcommon's keymaps. The static build
        // links them compiled from Debian's source by scripts/build-input.sh.
        .target(name: "SkeletonPrompt", dependencies: ["SkeletonSystem"], swiftSettings: bootPathSettings),
        .systemLibrary(name: "CLibInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        .target(name: "CSkeletonInput", dependencies: ["CLibInput"]),
        .target(name: "SkeletonInput", dependencies: ["CLibInput", "CXKBCommon", "CSkeletonInput", "SkeletonPrompt", "SkeletonSystem"],
                swiftSettings: bootPathSettings,
                linkerSettings: staticBuild ? ["mtdev", "evdev", "udev", "m"].map { .linkedLibrary($0) } : []),
        .target(name: "SkeletonBoot", dependencies: ["SkeletonSystem", "SkeletonLayout", "SkeletonRender", "SkeletonDisplay"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonTools", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonDisplay", "SkeletonSystem", "SkeletonContent",
                                                     "SkeletonBoot", "SkeletonSettings", "SkeletonPicture", "SkeletonProtocol"]),
        .target(name: "SkeletonProtocol", dependencies: ["SkeletonLayout"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonCLI", dependencies: [
            "SkeletonLayout", "SkeletonProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .target(name: "SkeletonDevTools", dependencies: ["SkeletonLayout", "SkeletonSystem"]),
        .target(name: "SkeletonCapture", dependencies: ["SkeletonDevTools", "SkeletonLayout", "SkeletonSystem"]),
        .target(name: "SkeletonBrowser", dependencies: ["SkeletonDevTools", "SkeletonLayout", "SkeletonSystem"]),
        .target(name: "SkeletonContent", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonPicture", "SkeletonText", "SkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonSettings", dependencies: ["SkeletonLayout", "SkeletonRender", "SkeletonProtocol", "SkeletonSystem", "SkeletonBoot"], swiftSettings: bootPathSettings),
        // What the daemon needs of an output backend, below both: the logger, and the provider
        // that opens a display (DRM, fbdev, memory here; Wayland in its own module).
        .target(name: "SkeletonLog", dependencies: ["SkeletonSettings", "SkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonBackend", dependencies: ["SkeletonLog", "SkeletonSettings", "SkeletonDisplay", "SkeletonBoot", "SkeletonRender",
                                                       "SkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonDaemon",
                dependencies: ["SkeletonLog", "SkeletonBackend", "SkeletonLayout", "SkeletonRender", "SkeletonDisplay", "SkeletonProtocol", "SkeletonSystem", "SkeletonBoot",
                               "SkeletonContent", "SkeletonSettings", "SkeletonPrompt", "SkeletonInput", "SkeletonClient"], swiftSettings: bootPathSettings),
        .executableTarget(
            name: "skeletond",
            dependencies: [
                "SkeletonTools",
                "SkeletonLayout",
                "SkeletonDisplay",
                "SkeletonBackend",
                "SkeletonLog",
                "SkeletonDaemon",
                "SkeletonSettings",
                "SkeletonBoot",
                "SkeletonSystem",
                "SkeletonCLI",
                "SkeletonClient",
                "SkeletonControl",
                "SkeletonCapture",
                "SkeletonBrowser",
                "SkeletonWayland",
                "SkeletonX11",
                "SkeletonInput",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `make bench`'s text figures: a separate executable, since the static skeletond cannot
        // link HarfBuzz (Debian ships no libharfbuzz.a).
        .executableTarget(name: "skeletond-textbench", dependencies: ["SkeletonText"]),
        .target(name: "SkeletonClient", dependencies: ["SkeletonProtocol", "SkeletonLayout", "SkeletonSystem"], swiftSettings: bootPathSettings),
        .target(name: "SkeletonControl", dependencies: [
            "SkeletonClient", "SkeletonLayout", "SkeletonProtocol", "SkeletonCLI", "SkeletonSystem", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The initramfs's executable: the daemon's boot path, `skeletonctl` for the initramfs
        // scripts' few requests and `plymouth`, without the command line of the tools
        // (ArgumentParser, and with it Foundation's essentials), the capture or Wayland: 5.7 MB less
        // to unpack at every boot. The hook and the dracut module copy it as /usr/bin/skeletond.
        .executableTarget(name: "skeletond-initramfs", dependencies: [
            "SkeletonDaemon", "SkeletonBackend", "SkeletonSettings", "SkeletonBoot", "SkeletonClient", "SkeletonProtocol", "SkeletonSystem",
        ], swiftSettings: bootPathSettings),
        .executableTarget(name: "skeletonctl", dependencies: ["SkeletonControl"]),
        // A DRM card in memory behind `DRMCalls` (debug builds only), for the display's and the daemon's tests.
        .target(name: "SkeletonDisplayDoubles", dependencies: ["SkeletonDisplay", "SkeletonLayout", "SkeletonRender", "SkeletonSystem", "CLibDRM"]),
        .testTarget(name: "SkeletonLogTests", dependencies: ["SkeletonLog"]),
        .testTarget(name: "SkeletonDaemonTests",
                    dependencies: ["SkeletonDaemon", "SkeletonLog", "SkeletonBackend", "SkeletonDisplayDoubles", "CLibDRM", "SkeletonSettings", "SkeletonBoot", "SkeletonProtocol", "SkeletonDisplay", "SkeletonPicture",
                                   "SkeletonSystem", "SkeletonTools", "SkeletonPrompt", "SkeletonContent", "SkeletonRender"]),
        .testTarget(name: "SkeletonPromptTests", dependencies: ["SkeletonPrompt", "SkeletonInput", "SkeletonRender", "SkeletonLayout",
                                                              "SkeletonContent", "SkeletonPicture", "SkeletonSystem"]),
        .testTarget(name: "SkeletonBootTests", dependencies: ["SkeletonBoot", "SkeletonDisplay", "SkeletonLayout", "SkeletonRender"]),
        .testTarget(name: "SkeletonLayoutTests", dependencies: ["SkeletonLayout"]),
        .testTarget(name: "SkeletonRenderTests", dependencies: ["SkeletonRender", "SkeletonDisplay", "SkeletonContent", "SkeletonPicture"]),
        .testTarget(name: "SkeletonToolTests", dependencies: ["SkeletonTools", "SkeletonPicture"]),
        .testTarget(name: "SkeletonBrowserTests", dependencies: ["SkeletonBrowser", "SkeletonDevTools", "SkeletonLayout"]),
        .testTarget(name: "SkeletonCaptureTests", dependencies: ["SkeletonCapture", "SkeletonLayout", "SkeletonPicture", "SkeletonRender"]),
        .testTarget(name: "SkeletonProtocolTests", dependencies: ["SkeletonProtocol", "SkeletonCLI"]),
        .testTarget(name: "SkeletonPictureTests", dependencies: ["SkeletonPicture", "SkeletonLayout", "SkeletonRender", "SkeletonDisplay"]),
        .testTarget(name: "SkeletonTextTests", dependencies: ["SkeletonText", "SkeletonRender", "SkeletonLayout", "SkeletonPicture"]),
        .testTarget(name: "SkeletonWaylandTests", dependencies: [
            "SkeletonWayland", "SkeletonDisplay", "SkeletonRender", "SkeletonLayout", "SkeletonPicture", "SkeletonSystem",
        ]),
        .testTarget(name: "SkeletonX11Tests", dependencies: [
            "SkeletonX11", "CXCB", "SkeletonDisplay", "SkeletonRender", "SkeletonLayout", "SkeletonSettings", "SkeletonSystem",
        ]),
        .testTarget(name: "SkeletonDisplayTests", dependencies: ["SkeletonDisplay", "SkeletonDisplayDoubles", "CLibDRM", "SkeletonSystem", "SkeletonLayout", "SkeletonRender", "SkeletonPicture",
                                                               "SkeletonProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)

// `skeletond preview`: an HTTP and WebSocket server (Hummingbird, on SwiftNIO), in the
// package's daemon and the development build, not in the static one of the initramfs.
if !staticBuild {
    package.dependencies += [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Under Hummingbird already; named for the preview's one channel handler (`RefusedUpgradeStatus`).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
    ]
    package.targets += [
        .target(name: "SkeletonPreview", dependencies: [
            "SkeletonLayout", "SkeletonRender", "SkeletonPicture", "SkeletonContent", "SkeletonSystem",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        ]),
        .testTarget(name: "SkeletonPreviewTests", dependencies: ["SkeletonPreview", "SkeletonDevTools", "SkeletonLayout"]),
    ]
    package.targets.first { $0.name == "skeletond" }?.dependencies.append("SkeletonPreview")
}

// The libFuzzer targets of fuzz/ (scripts/fuzz.sh): only when SKELETOND_FUZZ is set, so that a
// plain build neither compiles nor links them. They reach internals through `package` access.
if Context.environment["SKELETOND_FUZZ"] != nil {
    func fuzzer(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
        .executableTarget(name: name, dependencies: dependencies, path: "fuzz/Sources/\(name)")
    }
    package.targets += [
        fuzzer("FuzzLayout", ["SkeletonLayout", "SkeletonRender"]),
        fuzzer("FuzzProtocol", ["SkeletonLayout", "SkeletonProtocol"]),
        fuzzer("FuzzSettings", ["SkeletonSettings"]),
        fuzzer("FuzzBoot", ["SkeletonBoot", "SkeletonDisplay", "SkeletonLayout", "SkeletonRender", "CLibDRM"]),
        fuzzer("FuzzPNG", ["SkeletonPicture", "SkeletonRender"]),
    ]
}
