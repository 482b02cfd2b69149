import CFFmpeg
import CFrameShare
import Glibc
import MediaCore

/// A video's pictures, or its sound, decoded in a worker for the viewer (the worker's side
/// of `WorkerDecoder`): packets in from the viewer's demuxer, frames out in slot memfds the
/// viewer maps, decoded there directly (`cfs_get_buffer2`), so no frame is copied on its
/// way across. The worker keeps each frame it hands over until the viewer says it is done
/// with it, so its slot is not decoded into while the viewer may still read it.
public final class StreamWork {
    private var decoder: Decoder?
    private let pool: OpaquePointer
    /// Pictures the viewer holds, by number.
    private var held: [Int64: Frame] = [:]
    private var nextNumber: Int64 = 1
    /// The viewer's packet memfd, mapped read-only; replaced when a larger one comes.
    private var area: (base: UnsafeMutableRawPointer, size: Int)?
    private var lowPower = false
    /// The stream is sound: frames go out as `soundFrame`.
    private let sound: Bool
    /// Slots at most: a 4K stream's references, frame threads and the viewer's queue fit.
    public static let maxSlots: Int32 = 48
    /// A second decoder, for the first picture alone (`StreamWork+FirstPicture.swift`);
    /// nil once used, and for sound and heavy streams.
    var firstPicture: Decoder?
    /// The time of the picture sent ahead, whose second decoding is not sent again.
    var sentAhead: Int64?
    /// Packets decoded since the open.
    private var packets = 0

    /// Opens the decoder an open request describes; throws the one line when it cannot.
    public init(_ m: WorkerMessage) throws(AVError) {
        let name = m.text.isEmpty ? "media" : m.text
        sound = m.kind == .soundOpen
        guard let pool = cfs_pool_new(StreamWork.maxSlots) else { throw AVError(message: "\(name): out of memory") }
        self.pool = pool
        guard let opened = StreamOpening.parameters(m) else {
            cfs_pool_free(pool)
            throw AVError(message: "\(name): the request was malformed")
        }
        var par: UnsafeMutablePointer<AVCodecParameters>? = opened.raw
        defer { avcodec_parameters_free(&par) }
        let rate = opened.frameRate
        do {
            decoder = try Decoder(codec: opened.raw, timeBase: opened.timeBase, threads: opened.threads,
                                  maxPixels: opened.maxPixels) { ctx in
                ctx.pointee.opaque = UnsafeMutableRawPointer(pool)
                ctx.pointee.get_buffer2 = cfs_get_buffer2
                if rate.num > 0 && rate.den > 0 { ctx.pointee.framerate = rate }
            }
        } catch {
            cfs_pool_free(pool)
            throw AVError(code: error.code, message: "\(name): \(error.message)")
        }
        if !sound && (1...2).contains(opened.threads) { firstPicture = StreamWork.firstPictureDecoder(opened, pool: pool) }
    }

    deinit {
        // The decoders and the pictures go first; the pool lives on until their last buffer does.
        decoder = nil
        firstPicture = nil
        held = [:]
        if let area { munmap(area.base, area.size) }
        cfs_pool_free(pool)
    }

    /// Decodes the packet a `streamPacket` request describes, sending each picture with
    /// `send`; the `streamDone` answer.
    public func packet(_ m: WorkerMessage, send: (WorkerMessage) -> Bool) -> WorkerMessage {
        guard let decoder else { return WorkerMessage(kind: .failure, text: "stream: none is open") }
        let n = m.numbers
        if m.fd >= 0 {
            if let area { munmap(area.base, area.size) }
            area = nil
            if let size = SealedBytes.size(m.fd), size > 0, let p = mmap(nil, size, PROT_READ, MAP_SHARED, m.fd, 0),
               p != MAP_FAILED {
                area = (p, size)
            }
        }
        let low = n[5] == 1
        if low != lowPower {
            decoder.setLowPower(low)
            lowPower = low
        }
        let size = Int(n[0])
        packets += 1
        let sent: Int32
        if size < 0 {
            sent = decoder.send(nil)
        } else {
            guard let area, size <= area.size else {
                return WorkerMessage(kind: .failure, text: "stream: the packet was malformed")
            }
            let packet = Packet()
            guard cff_new_packet(packet.raw, Int32(size)) >= 0 else { return done(cff_averror(ENOMEM), .failed(AVError(code: cff_averror(ENOMEM), "out of memory"))) }
            if size > 0 { memcpy(packet.raw.pointee.data, area.base, size) }
            packet.raw.pointee.pts = n[1]
            packet.raw.pointee.dts = n[2]
            packet.raw.pointee.duration = n[3]
            packet.raw.pointee.flags = Int32(truncatingIfNeeded: n[4])
            if firstPicture != nil { guard sendAhead(packet, send: send) else { return done(0, .endOfStream) } }
            sent = decoder.send(packet)
        }
        while true {
            let frame = Frame()
            let r = decoder.receive(into: frame)
            guard case .frame = r else { return done(sent, r) }
            if let ahead = sentAhead, frame.raw.pointee.pts == ahead {
                sentAhead = nil
                continue
            }
            guard let message = hand(frame) else {
                return done(sent, .failed(AVError(code: cff_averror(ENOMEM), "out of memory")))
            }
            let ok = send(message)
            if message.fd >= 0 { close(message.fd) }
            if !ok { return done(sent, .endOfStream) }
        }
    }

    private func done(_ sent: Int32, _ r: Decoder.ReceiveResult) -> WorkerMessage {
        let status: (Int64, Int64)
        switch r {
        case .frame, .needsInput: status = (0, 0)
        case .endOfStream: status = (1, 0)
        case .failed(let e): status = (2, Int64(e.code))
        }
        return WorkerMessage(kind: .streamDone, numbers: [Int64(sent), status.0, status.1])
    }

    /// The message for a decoded picture, kept until the viewer releases it; nil without memory.
    func hand(_ decoded: Frame) -> WorkerMessage? {
        var frame = decoded
        var place = cfs_place()
        if cfs_locate(pool, frame.raw, &place) != 0 {
            // A decoder that does not render into our slots: its picture is copied into one.
            let copy = Frame()
            guard cfs_copy_into_slot(pool, frame.raw, copy.raw) >= 0, cfs_locate(pool, copy.raw, &place) == 0 else { return nil }
            frame = copy
        }
        let number = nextNumber
        nextNumber += 1
        held[number] = frame
        if sound { return SoundFrameMessage.make(frame.raw, number: number, place: place) }
        return VideoFrameMessage.make(frame.raw, number: number, place: place)
    }

    /// The viewer let go of these pictures.
    public func release(_ m: WorkerMessage) {
        for n in m.numbers where n > 0 { held[n] = nil }
    }

    /// A seek: the decoder forgets what it buffered, and the picture sent ahead is no
    /// longer the next it makes. The player flushes once as it starts, before any packet:
    /// that keeps the first picture's decoder.
    public func flush() {
        decoder?.flush()
        if packets > 0 { firstPicture = nil }
        sentAhead = nil
    }
}
