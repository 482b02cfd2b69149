import MediaCore
import Testing

/// The numbers and text the viewer prints (benchmark line, times, input.conf lines).
@Suite("Text formats")
struct TextFormatTests {
    @Test("fixed decimals round half away from zero and never print -0",
          arguments: [
              (3.0456, 3, "3.046"), (93.0, 2, "93.00"), (0.0049, 2, "0.00"), (-0.0001, 2, "0.00"),
              (-2.5, 0, "-3"), (2.5, 0, "3"), (1234.5678, 1, "1234.6"), (0.999, 2, "1.00"),
              (Double.nan, 2, "nan"), (Double.infinity, 1, "inf"),
          ])
    func fixed(value: Double, digits: Int, expected: String) {
        #expect(TextFormat.fixed(value, digits: digits) == expected)
    }

    @Test("zero padding keeps the sign in front")
    func padded() {
        #expect(TextFormat.padded(7, width: 2) == "07")
        #expect(TextFormat.padded(123, width: 2) == "123")
        #expect(TextFormat.padded(-5, width: 3) == "-005")
    }

    @Test("trimming removes Unicode white space at both ends only")
    func trimming() {
        #expect("  \t seek 5 \r\n".trimmingWhitespace() == "seek 5")
        #expect("\u{00A0}\u{3000}cycle pause\u{2003}".trimmingWhitespace() == "cycle pause")
        #expect(" \n\t ".trimmingWhitespace() == "")
        #expect("a  b"[...].trimmingWhitespace() == "a  b")
    }
}
