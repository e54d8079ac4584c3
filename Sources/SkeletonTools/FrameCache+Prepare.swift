import SkeletonSettings
import SkeletonContent
import SkeletonBoot
import SkeletonLayout
import SkeletonSystem

extension FrameCache {
    /// `skeletond cache`: writes the start layout's first frame at each output size, as the
    /// daemon running this same executable would look it up. Returns the files written, or
    /// what went wrong.
    public static func prepare(settings: Settings, sizes: [Size]) -> Result<[String], ToolError> {
        guard let start = settings.startLayout else { return .failure(ToolError("no start layout (layouts.start is null)")) }
        guard let cache = FrameCache(directory: settings.frameCacheDirectory) else {
            return .failure(ToolError(settings.frameCacheDirectory == nil ? "the frame cache is off (frameCache is null)"
                                                                            : "this executable has no build id to key the frame cache on"))
        }
        let store = LayoutStore(directory: settings.layoutsDirectory)
        let layout: Layout
        switch store.load(start) {
        case .success(let loaded): layout = loaded.layout
        case .failure(let error): return .failure(ToolError("start layout \"\(start)\": \(error.message)"))
        }
        guard let source = store.source(of: start) else { return .failure(ToolError("start layout \"\(start)\": cannot read it")) }
        do {
            try SystemCalls.makeDirectories(cache.directory, mode: 0o755)
        } catch {
            return .failure(ToolError("cannot create \(cache.directory): \(error)"))
        }
        var written: [String] = []
        let sprites = ContentSprites()
        for size in sizes {
            let path = cache.path(layoutName: source.name, layoutText: source.text, size: size)
            do { try cache.storeFirstFrame(of: layout, size: size, sprites: sprites, at: path) } catch {
                return .failure(ToolError("cannot write \(path): \(error.text)"))
            }
            written.append(path)
        }
        return .success(written)
    }
}
