import CFFmpeg
import Glibc
import Web

/// Reads of a source the viewer holds, asked by a worker that has no socket of its own:
/// what each `readAt` and `bytes` number means, for both sides.
///
/// Web media comes through the viewer's network transport and caches. A worker parsing it
/// asks for the bytes at an offset (`readAt`) while it serves a request, and the viewer
/// answers each from its own reader (`bytes`, in a sealed memfd) before the request's own
/// answer comes. The viewer bounds what it hands out: one read is at most `largest` bytes,
/// and one request at most `mostPerRequest` reads.
package enum ChannelReads {
    /// The most bytes one read may ask for: FFmpeg's reads are its I/O buffer, 64 KiB.
    package static let largest = 1 << 20
    /// The most reads the viewer serves for one request before it stops the worker: a
    /// preview reads at most a few hundred packets, and a worker asking on and on is not
    /// parsing a file any more.
    static let mostPerRequest = 20_000

    /// The worker's request for up to `count` bytes at `offset` of source `source`.
    package static func request(offset: Int64, count: Int, source: Int64 = 0) -> WorkerMessage {
        WorkerMessage(kind: .readAt, numbers: [offset, Int64(count), source])
    }

    /// The viewer's answer to the read `m` asks for, read from `io` with each blocking step
    /// bounded by `interrupt`: the bytes, the end of the source, or why not.
    static func answer(_ m: WorkerMessage, from io: CustomIO, interrupt: Interrupt) -> WorkerMessage {
        guard m.kind == .readAt, m.numbers.count >= 2, m.numbers[0] >= 0,
              (1...Int64(largest)).contains(m.numbers[1]) else {
            return failed(cff_averror(EINVAL), "the decoder asked for a read out of bounds")
        }
        let want = Int(m.numbers[1])
        guard io.seek(to: m.numbers[0], whence: SEEK_SET) == m.numbers[0] else {
            return failed(cff_averror(EINVAL), "cannot seek to byte \(m.numbers[0])")
        }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: want)
        defer { buffer.deallocate() }
        interrupt.arm()
        // One read, as FFmpeg's own buffer fill makes: reading on for more would block on a
        // stalled server for bytes the demuxer may never want, and fail the source with it.
        let n = io.read(into: buffer, size: want)
        interrupt.disarm()
        if n < 0 && n != cff_averror_eof { return failed(n, io.failure?.message ?? "the read failed") }
        let got = max(0, Int(n))
        guard got > 0 else { return WorkerMessage(kind: .bytes, numbers: [0]) }
        guard let fd = SealedBytes.make([UnsafeRawBufferPointer(start: buffer, count: got)], name: "mediaview-read") else {
            return failed(cff_averror(ENOMEM), "out of memory")
        }
        return WorkerMessage(kind: .bytes, numbers: [Int64(got)], fd: fd)
    }

    /// A read that failed with FFmpeg's error `code`, saying `why`.
    private static func failed(_ code: Int32, _ why: String) -> WorkerMessage {
        WorkerMessage(kind: .bytes, numbers: [Int64(code < 0 ? code : cff_averror(EIO))], text: why)
    }

    /// Copies the bytes of the answer `m` into `buffer` (room for `want`): the count, 0 at
    /// the end of the source, or a negative FFmpeg error when the read failed or the answer
    /// is malformed. Leaves `m.fd` open.
    package static func bytes(in m: WorkerMessage, into buffer: UnsafeMutablePointer<UInt8>, want: Int) -> Int32 {
        guard m.kind == .bytes, let count = m.numbers.first else { return cff_averror(EIO) }
        if count <= 0 { return count == 0 ? 0 : Int32(clamping: max(count, Int64(Int32.min))) }
        guard count <= Int64(want), m.fd >= 0, let size = SealedBytes.size(m.fd), size >= Int(count) else {
            return cff_averror(EIO)
        }
        var done = 0
        while done < Int(count) {
            let n = pread(m.fd, buffer + done, Int(count) - done, off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return cff_averror(EIO) }
            done += n
        }
        return Int32(done)
    }
}

extension ChannelReads {
    /// A source the viewer reads for a worker (web media): its reader and what bounds each
    /// blocking read.
    struct Source {
        let io: CustomIO
        let interrupt: Interrupt

        /// The answer to the worker's read `m`.
        func answer(_ m: WorkerMessage) -> WorkerMessage { ChannelReads.answer(m, from: io, interrupt: interrupt) }
    }
}
