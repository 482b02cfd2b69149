import CFFmpeg
import Glibc
import Web

/// The parts a web playlist names (HLS's media playlists and segments, DASH's), opened in a
/// worker through the viewer: the worker's side of `ChannelSources`.
///
/// FFmpeg's playlist demuxers open each part themselves (`io_open`). In a worker, which has
/// no socket, that call sends the address to the viewer, which opens it with its own
/// transport and caches (web addresses only), and the part is then read through the channel
/// as the playlist itself is. Used by the worker's one thread, inside a request.
final class ChannelOpener {
    private let channel: Int32
    /// The parts open now, by the context FFmpeg reads each through.
    private var open: [UnsafeMutablePointer<AVIOContext>: Reader] = [:]

    init(channel: Int32) { self.channel = channel }

    /// Makes `ctx` open and close its parts here; `ctx` must not outlive this opener.
    func install(on ctx: UnsafeMutablePointer<AVFormatContext>) {
        ctx.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
        ctx.pointee.io_open = { s, pb, url, flags, options in
            guard let s, let pb, let url, let opaque = s.pointee.opaque else { return cff_averror(EINVAL) }
            let opener = Unmanaged<ChannelOpener>.fromOpaque(opaque).takeUnretainedValue()
            // A demuxer writes nothing.
            guard flags & AVIO_FLAG_WRITE == 0 else { return cff_averror(EACCES) }
            let address = String(cString: url)
            // An encrypted HLS segment: FFmpeg's crypto protocol would fetch it itself.
            for prefix in ["crypto+", "crypto:"] where address.hasPrefix(prefix) {
                func option(_ name: String) -> [UInt8]? {
                    av_dict_get(options?.pointee, name, nil, 0).flatMap { SegmentDecryption.bytes(hex: String(cString: $0.pointee.value)) }
                }
                guard let key = option("key"), let iv = option("iv") else { return cff_averror(EINVAL) }
                return opener.open(String(address.dropFirst(prefix.count)), into: pb, key: key, iv: iv)
            }
            return opener.open(address, into: pb)
        }
        ctx.pointee.io_close2 = { s, pb in
            guard let s, let pb, let opaque = s.pointee.opaque else { return 0 }
            Unmanaged<ChannelOpener>.fromOpaque(opaque).takeUnretainedValue().close(pb)
            return 0
        }
    }

    /// Asks the viewer to open `url`; on success `pb` is the part's reader, decrypted with
    /// `key` and `iv` when given.
    private func open(_ url: String, into pb: UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>,
                      key: [UInt8]? = nil, iv: [UInt8]? = nil) -> Int32 {
        let bytes = Array(url.utf8)
        guard let fd = bytes.withUnsafeBytes({ SealedBytes.make([$0], name: "mediaview-url") }) else { return cff_averror(ENOMEM) }
        defer { Glibc.close(fd) }
        guard let answer = ask(WorkerMessage(kind: .openURL, numbers: [Int64(bytes.count)], fd: fd)),
              let id = answer.numbers.first else { return cff_averror(EIO) }
        guard id > 0 else { return id < 0 ? Int32(clamping: max(id, Int64(Int32.min))) : cff_averror(EIO) }
        let size = answer.numbers.count > 1 ? max(-1, answer.numbers[1]) : -1
        guard let part = ChannelIO(channel: channel, size: size, source: id) else { return cff_averror(ENOMEM) }
        var reader = Reader(part: part, decryption: nil)
        if let key, let iv {
            guard let d = SegmentDecryption(part: part, key: key, iv: iv) else { return cff_averror(ENOMEM) }
            reader.decryption = d
        }
        guard let context = reader.context else { return cff_averror(ENOMEM) }
        open[context] = reader
        pb.pointee = context
        return 0
    }

    /// A part open now: its reader through the channel, and its decryption when encrypted.
    private struct Reader {
        let part: ChannelIO
        var decryption: SegmentDecryption?
        /// What FFmpeg reads through.
        var context: UnsafeMutablePointer<AVIOContext>? { decryption?.io?.context ?? part.io?.context }

        func close() {
            decryption?.io?.close()
            part.io?.close()
        }
    }

    /// Tells the viewer a part is no longer read, and frees its reader.
    private func close(_ pb: UnsafeMutablePointer<AVIOContext>) {
        guard let reader = open.removeValue(forKey: pb) else { return }
        _ = ask(WorkerMessage(kind: .closeURL, numbers: [reader.part.source]))
        reader.close()
    }

    /// Sends `m` and waits for the viewer's `urlOpened`; nil when the channel broke.
    private func ask(_ m: WorkerMessage) -> WorkerMessage? {
        guard m.send(on: channel), let answer = WorkerMessage.receive(on: channel) else { return nil }
        if answer.fd >= 0 { Glibc.close(answer.fd) }
        return answer.kind == .urlOpened ? answer : nil
    }

    deinit { for reader in open.values { reader.close() } }
}
