import Glibc

/// Track previews asked of a decode worker, and the answers, as the `WorkerMessage`s that
/// carry them: one place says what each number means, for both sides.
///
/// A session opens the video once (`previewOpen`, the file's descriptor handed over, the
/// keyframe index answered), then asks for pictures at times (`previewAt`), each answered
/// with a small YUV 4:2:0 picture in a sealed memfd, or a `failure` without text when there
/// is none within the worker's bounds or a newer request came first.
package enum PreviewRequest {
    /// The widest preview a session may ask for: the view's setting at 2x interface scale.
    static let largestWidth = 640
    /// The most keyframe times an index may hold (the previewer reads no more).
    static let largestIndex = 100_000

    /// Where a session's video is read from.
    package enum Source: Equatable {
        /// The file behind the open request's fd, read with `pread`.
        case file
        /// A source the viewer reads for the worker (web media), `size` bytes long
        /// (negative: not known), through `ChannelIO`.
        case channel(size: Int64)
    }

    /// The request opening the video behind `fd` (which stays the caller's) for previews
    /// `width` pixels wide, decoding pictures of at most `maxPixels`.
    static func open(fd: Int32, name: String, width: Int, maxPixels: Int) -> WorkerMessage {
        WorkerMessage(kind: .previewOpen, numbers: [Int64(width), Int64(maxPixels), 0], text: name, fd: fd)
    }

    /// The request opening a video the viewer reads for the worker, `size` bytes long
    /// (negative: not known); its reads are answered during each exchange.
    static func open(readingThroughChannel size: Int64, name: String, width: Int, maxPixels: Int) -> WorkerMessage {
        WorkerMessage(kind: .previewOpen, numbers: [Int64(width), Int64(maxPixels), 1, size], text: name)
    }

    /// The width, pixel budget and source an open request asks for; nil when it is malformed.
    package static func opening(_ m: WorkerMessage) -> (width: Int, maxPixels: Int, source: Source)? {
        guard m.kind == .previewOpen, m.numbers.count >= 4,
              (16...Int64(largestWidth)).contains(m.numbers[0]), m.numbers[1] > 0 else { return nil }
        switch m.numbers[2] {
        case 0 where m.fd >= 0: return (Int(m.numbers[0]), Int(m.numbers[1]), .file)
        case 1 where m.fd < 0: return (Int(m.numbers[0]), Int(m.numbers[1]), .channel(size: max(-1, m.numbers[3])))
        default: return nil
        }
    }

    /// The answer to an open: the keyframe times as `PreviewFile` stores them (the checks
    /// that keep a damaged file from being trusted keep a subverted worker's answer out too),
    /// in a sealed memfd; nil without memory.
    package static func index(_ keyframes: [Double]) -> WorkerMessage? {
        sealed(PreviewFile.encodeIndex(keyframes), kind: .previewIndex)
    }

    /// The keyframe times in the answer `m`, in order; nil when it is malformed. Leaves
    /// `m.fd` open.
    static func keyframes(in m: WorkerMessage) -> [Double]? {
        guard m.kind == .previewIndex, let bytes = unsealed(m, largest: 8 + largestIndex * 8) else { return nil }
        return PreviewFile.decodeIndex(bytes)
    }

    /// The request for the picture at `seconds`.
    static func at(_ seconds: Double) -> WorkerMessage {
        WorkerMessage(kind: .previewAt, numbers: [Int64(bitPattern: seconds.bitPattern)])
    }

    /// The time a picture request asks for; nil when it is malformed.
    package static func seconds(in m: WorkerMessage) -> Double? {
        guard m.kind == .previewAt, let bits = m.numbers.first else { return nil }
        let t = Double(bitPattern: UInt64(bitPattern: bits))
        // A key may be a little below zero: a file whose reordered frames start its clock
        // before its first picture lists its first keyframe there.
        return t.isFinite ? t : nil
    }

    /// The answer carrying `picture` (a small YUV 4:2:0 frame) as `PreviewFile` stores it,
    /// in a sealed memfd; nil when it is not such a frame or without memory.
    package static func answer(_ picture: VideoFrame) -> WorkerMessage? {
        PreviewFile.encode(picture).flatMap { sealed($0, kind: .picture) }
    }

    /// The preview in the answer `m` to a request for `width`-wide pictures, as a frame of
    /// this process's own; nil when the answer is malformed or wider than asked. Leaves
    /// `m.fd` open.
    static func picture(in m: WorkerMessage, width: Int) -> VideoFrame? {
        guard m.kind == .picture, let bytes = unsealed(m, largest: PreviewFile.largest),
              let frame = PreviewFile.decode(bytes), frame.width <= width else { return nil }
        return frame
    }

    /// `bytes` in a sealed memfd, their count the message's first number.
    private static func sealed(_ bytes: [UInt8], kind: WorkerMessage.Kind) -> WorkerMessage? {
        guard let fd = bytes.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-preview") }) else { return nil }
        return WorkerMessage(kind: kind, numbers: [Int64(bytes.count)], fd: fd)
    }

    /// The bytes of a `sealed` answer, at most `largest` of them; nil when the count is out
    /// of bounds or the memfd is short.
    private static func unsealed(_ m: WorkerMessage, largest: Int) -> [UInt8]? {
        guard m.fd >= 0, let count = m.numbers.first, (1...Int64(largest)).contains(count),
              let p = SealedBytes.map(m.fd, count: Int(count)) else { return nil }
        defer { munmap(p, Int(count)) }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(count)))
    }
}
