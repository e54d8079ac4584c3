import SkeletonBackend
import SkeletonBoot
import SkeletonLog
import SkeletonSettings
import SkeletonSystem

extension Daemon {
    /// `skeletond run` once its flags are parsed: reads the settings, starts and serves until
    /// SIGTERM, SIGINT or `quit`. Returns the exit status (1 when it could not start).
    /// `start`: the start's frames, as `StartFrames.atBoot` found them (the provider shares it).
    public static func main(flags: RunFlags, provider: any DisplayProvider, start: StartFrames = StartFrames()) -> Int32 {
        let source = flags.settingsSource
        let logger = Logger()
        logger.holdRoutineLines()
        let settings: Settings
        switch source.load() {
        case .success(let s): settings = s
        case .failure(let e):
            for line in e.lines { logger.error(line) }
            return 1
        }
        logger.level = settings.logLevel
        if InitramfsStart.requested {
            InitramfsStart.markArgumentZero()
        } else if SystemCalls.fileExists(InitramfsStart.markerPath(socketPath: settings.socketPath)),
                  InitramfsDaemonCheck.answers(socketPath: settings.socketPath) {
            logger.error("the daemon started in the initramfs shows the skeleton on \(settings.socketPath); not starting a second one (`skeletonctl quit` ends that one)")
            return 1
        } else if SystemCalls.fileExists(InitramfsStart.markerPath(socketPath: settings.socketPath)) {
            // Killed without its cleanup (SIGKILL): its marker and its link (which resolves no more) are left.
            logger.warning("the daemon started in the initramfs is gone (\(InitramfsStart.markerPath(socketPath: settings.socketPath)) is stale); this service runs its own")
            InitramfsStart.removeMarker(socketPath: settings.socketPath)
        }
        // Read only for the debug line: /proc/self/stat through stdio is first-run code before the first frame.
        if logger.level >= .debug, let age = processAgeSeconds() {
            logger.debug("start-up: arguments parsed \(Int((age * 1000).rounded())) ms after process start (10 ms resolution)")
        }
        let daemon = Daemon(settingsSource: source, settings: settings, logger: logger, provider: provider, start: start)
        do {
            try daemon.start()
        } catch {
            logger.error("cannot start: \(error)")
            daemon.shutdown()
            return 1
        }
        daemon.run()
        return 0
    }
}
