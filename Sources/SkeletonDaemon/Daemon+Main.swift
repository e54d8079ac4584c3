extension Daemon {
    /// `skeletond run` once its flags are parsed: reads the settings, starts and serves until
    /// SIGTERM, SIGINT or `quit`. Returns the exit status (1 when it could not start).
    /// `bootRecord`: where this start's boot record is (written after the first frame when the
    /// provider's display did not come from it).
    public static func main(flags: RunFlags, provider: any DisplayProvider, bootRecord: BootRecord.Location? = nil) -> Int32 {
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
        if let age = processAgeSeconds() {
            logger.debug("start-up: arguments parsed \(Int((age * 1000).rounded())) ms after process start (10 ms resolution)")
        }
        let daemon = Daemon(settingsSource: source, settings: settings, logger: logger, provider: provider)
        daemon.bootRecordLocation = bootRecord
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
