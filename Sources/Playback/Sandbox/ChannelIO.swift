import CFFmpeg
import Glibc
import Web

/// The reads, in a worker, of a source the viewer reads for it: each asks the viewer for
/// the bytes at the position (`ChannelReads`) and waits for them.
///
/// A worker may open no path and has no socket but its channel, yet web media is parsed
/// there too: the viewer's transport fetches the ranges (from its caches or the server) and
/// the worker sees only bytes. Reads are answered while the worker serves a request, so
/// nothing else arrives meanwhile but the viewer's word that the request is no longer
/// wanted, which is kept for the caller to see (`wasCancelled`).
package final class ChannelIO {
    private let channel: Int32
    /// The viewer said the request under way is no longer wanted while a read waited.
    package private(set) var wasCancelled = false
    /// The channel closed or spoke out of turn: no more reads are asked.
    private var broken = false
    /// What FFmpeg reads through; it calls back here, so it holds this object.
    package private(set) var io: ReaderIO?
    /// The viewer's number for the source: 0 for the request's own, else one a playlist's
    /// part was opened as (`ChannelOpener`).
    let source: Int64

    /// Reads through `channel` a source of `size` bytes (negative: not known), the viewer's
    /// number `source`; nil when out of memory.
    package init?(channel: Int32, size: Int64, source: Int64 = 0) {
        self.channel = channel
        self.source = source
        // The context's reads come back here; `self` is not escaped until every field is set.
        io = nil
        io = ReaderIO(size: size) { [unowned self] offset, buffer, want in read(at: offset, into: buffer, want: want) }
        if io == nil { return nil }
    }

    /// Clears `wasCancelled` before the next request is served.
    package func startRequest() { wasCancelled = false }

    /// Asks the viewer for up to `want` bytes at `offset` and waits for them.
    private func read(at offset: Int64, into buffer: UnsafeMutablePointer<UInt8>, want: Int) -> Int32 {
        if broken { return cff_averror(EIO) }
        let count = min(want, ChannelReads.largest)
        guard ChannelReads.request(offset: offset, count: count, source: source).send(on: channel) else {
            broken = true
            return cff_averror(EIO)
        }
        while let m = WorkerMessage.receive(on: channel) {
            defer { if m.fd >= 0 { Glibc.close(m.fd) } }
            switch m.kind {
            case .previewCancel:
                wasCancelled = true
            case .bytes:
                return ChannelReads.bytes(in: m, into: buffer, want: count)
            default:
                broken = true
                return cff_averror(EIO)
            }
        }
        broken = true
        return cff_averror(EIO)
    }
}
