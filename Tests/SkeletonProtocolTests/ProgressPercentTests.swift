import SkeletonLayout
import SkeletonProtocol
import Testing

/// The percent form of progress (psplash's `PROGRESS N`, Plymouth's `system-update N`) is read
/// by `ProgressValue.percent(parsing:)` for both.
struct ProgressPercentTests {
    @Test func aWholeNumberFromZeroToAHundredAndNothingElse() {
        #expect(["0", "42", "100", "+7", "007"].map { ProgressValue.percent(parsing: $0) } == [0, 42, 100, 7, 7])
        for text in ["101", "-1", "4.5", "", " 5", "5 ", "5%", "x", "99999999999999999999"] {
            #expect(ProgressValue.percent(parsing: text) == nil, "\(text)")
        }
        #expect(ProgressValue.percent(42) == .fraction(0.42))
        #expect(ProgressValue.percent(100) == .fraction(1))
    }

    /// psplash trims the blanks its lines may carry, then reads the number as Plymouth does.
    @Test(arguments: ["0", "42", "100", "101", "-1", "4.5", "", "x", "+7"])
    func psplashTakesWhatThePercentFormTakes(text: String) {
        let command = PsplashCommand.parse("PROGRESS \t\(text) \t")
        if let percent = ProgressValue.percent(parsing: text) {
            #expect(command == .success(.progress(percent)))
        } else {
            let argument = text.isEmpty ? "" : text + " \t"
            #expect(command == .failure(PsplashError("PROGRESS takes a whole number from 0 to 100, found \"\(argument)\"")))
        }
    }
}
