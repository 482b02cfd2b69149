import Glibc
import MediaCore

/// A gallery thumbnail asked of a decode worker, and the picture it answers with, as the
/// `WorkerMessage`s that carry them: one place says what each number means, for both sides.
///
/// The request's fd is the file itself, opened by the viewer (the worker may open no path),
/// or a sealed memfd holding a cached thumbnail's PNG. The answer's fd is a sealed memfd of
/// the thumbnail's RGBA rows.
public struct ThumbnailRequest: Sendable {
    /// What the request's fd holds.
    public enum Source: Int64, Sendable {
        /// The file the thumbnail is made from, read through its descriptor.
        case file = 0
        /// A PNG from the desktop's thumbnail cache, to be decoded and fitted.
        case cachedPNG = 1
    }

    /// The largest cell side a request may ask for: a gallery's cells are 128 or 256 pixels.
    static let largestSize = 1024

    /// What the fd holds.
    public let source: Source
    /// The side of the square the thumbnail fits in.
    public let size: Int
    /// The pixel budget of the picture decoded.
    public let maxPixels: Int
    /// The file's name, for the one line a failure is said in.
    public let name: String

    /// A request for a thumbnail of `source`, fitting `size`, decoding at most `maxPixels`.
    public init(source: Source, size: Int, maxPixels: Int, name: String) {
        self.source = source
        self.size = size
        self.maxPixels = maxPixels
        self.name = name
    }

    /// The request in `m`; nil when it is not a well-formed thumbnail request.
    public init?(_ m: WorkerMessage) {
        guard m.kind == .thumbnail, m.numbers.count >= 3, let source = Source(rawValue: m.numbers[0]),
              m.numbers[1] > 0, m.numbers[1] <= Int64(Self.largestSize), m.numbers[2] > 0 else { return nil }
        self.init(source: source, size: Int(m.numbers[1]), maxPixels: Int(m.numbers[2]), name: m.text)
    }

    /// The message asking for it, carrying `fd` (which stays the caller's).
    func message(fd: Int32) -> WorkerMessage {
        WorkerMessage(kind: .thumbnail, numbers: [source.rawValue, Int64(size), Int64(maxPixels)], text: name, fd: fd)
    }

    /// The answer carrying `picture`: width, height, whether a video's length follows (1)
    /// or not (0) and the length's bits (exactly the seconds the worker read), its rows in a
    /// sealed memfd; nil without memory.
    public static func answer(_ picture: StillDecoder.RGBA, length: Double?) -> WorkerMessage? {
        let fd = picture.pixels.withUnsafeBytes { SealedBytes.make([$0], name: "mediaview-thumbnail") }
        guard let fd else { return nil }
        return WorkerMessage(kind: .picture, numbers: [Int64(picture.width), Int64(picture.height), length == nil ? 0 : 1,
                                                                Int64(bitPattern: length?.bitPattern ?? 0)], fd: fd)
    }

    /// The thumbnail in the answer `m` to this request, its pixels copied out; nil when the
    /// answer is malformed (larger than asked for, or its memfd short). Leaves `m.fd` open.
    func picture(in m: WorkerMessage) -> (picture: StillDecoder.RGBA, length: Double?)? {
        guard m.kind == .picture, m.numbers.count >= 4, m.fd >= 0 else { return nil }
        let w = Int(m.numbers[0]), h = Int(m.numbers[1])
        guard w > 0, h > 0, w <= size, h <= size, let have = SealedBytes.size(m.fd), have >= w * h * 4 else { return nil }
        let pixels = WholeFile.read(m.fd, size: w * h * 4)
        guard pixels.count == w * h * 4 else { return nil }
        let seconds = Double(bitPattern: UInt64(bitPattern: m.numbers[3]))
        let length = m.numbers[2] == 1 && seconds.isFinite && seconds >= 0 ? seconds : nil
        return (StillDecoder.RGBA(width: w, height: h, pixels: pixels), length)
    }
}
