import CFFmpeg
import CRows
import Glibc
import MediaCore

/// A PNG or TIFF read from its top a few rows at a time, as RGBA: how a picture too large to
/// hold whole is reduced and cut into tiles without ever being in memory at once.
final class RowReader {
    /// The formats read this way: those whose libraries can hand out rows in order.
    enum Format: Sendable {
        case png, tiff

        /// The format whose first bytes are `head`, or nil.
        init?(head: [UInt8]) {
            if head.starts(with: StillFile.png) {
                self = .png
            } else if LargePictureHeader.tiffByteOrder(head) != nil {
                self = .tiff
            } else {
                return nil
            }
        }

        /// The format of the file behind `fd`, by its first bytes; throws when it is neither.
        init(fd: Int32, name: String) throws(AVError) {
            var head = [UInt8](repeating: 0, count: 8)
            let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 8, 0) }
            guard got == 8, let format = Format(head: head) else {
                throw AVError(code: cff_averror_invaliddata, message: "\(name): not a PNG or TIFF file that can be read")
            }
            self = format
        }

        /// FFmpeg's codec name, which the info panel shows and the zoom looks for.
        var codec: String { self == .png ? "png" : "tiff" }
    }

    /// The widest picture read: 1,048,576 pixels.
    static let widest = 1 << 20

    private let reader: OpaquePointer
    let width: Int
    let height: Int
    private let name: String

    /// Opens the file behind `fd` (read with pread; it stays the caller's) as `format`.
    /// Throws the one line for the user: damaged, or a layout that cannot be read in order.
    init(fd: Int32, format: Format, name: String) throws(AVError) {
        guard let r = crows_open(fd, format == .png ? CROWS_PNG : CROWS_TIFF) else {
            throw AVError(message: "\(name): out of memory")
        }
        reader = r
        self.name = name
        width = Int(crows_width(r))
        height = Int(crows_height(r))
        switch crows_open_status(r) {
        case CROWS_OK:
            // Its rows are held a few at a time, each level's: a megapixel wide is the most
            // a picture may claim (libpng's own default limit).
            guard width <= Self.widest else {
                throw AVError(message: "\(name): picture is \(width)x\(height), wider than \(Self.widest) pixels")
            }
        case CROWS_UNSUPPORTED: throw AVError(message: "\(name): \(String(cString: crows_message(r)))")
        default: throw AVError(code: cff_averror_invaliddata, message: "\(name): \(String(cString: crows_message(r)))")
        }
    }

    deinit { crows_free(reader) }

    /// Reads the next `rows` rows into `into`: `width * 4` bytes a row, no gaps.
    func read(into: UnsafeMutablePointer<UInt8>, rows: Int) throws(AVError) {
        guard crows_read(reader, into, Int32(rows)) == CROWS_OK else {
            throw AVError(code: cff_averror_invaliddata, message: "\(name): \(String(cString: crows_message(reader)))")
        }
    }
}
