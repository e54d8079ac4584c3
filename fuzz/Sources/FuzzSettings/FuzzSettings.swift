import SkeletonSettings

/// The daemon's settings file through its parser, and what the daemon derives from it first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettings(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch Settings.parse(Array(UnsafeBufferPointer(start: data, count: size)), file: "skeletond.json") {
    case .failure(let error): _ = error.description
    case .success(let settings): _ = settings.hiddenMark.path
    }
    return 0
}
