import CFFmpeg
import MediaCore

/// What a decode stage asks of its decoder: packets in, frames out, a flush between seek
/// generations. FFmpeg in this process (`Decoder`) does it, and so does a sandboxed worker
/// decoding a video's pictures for this process (`WorkerDecoder`).
protocol PacketDecoding: AnyObject {
    /// Sends a packet (nil to drain); an FFmpeg error code below zero when refused.
    func send(_ packet: Packet?) -> Int32
    /// The next frame into `frame`, or why there is none.
    func receive(into frame: Frame) -> Decoder.ReceiveResult
    /// Forgets buffered state after a seek or after draining.
    func flush()
    /// Seconds for a timestamp in the stream's time base, nil when unknown.
    func seconds(_ ts: Int64) -> Double?
    /// The stream's frame rate as the decoder knows it (0 when unknown).
    var frameRate: Double { get }
    /// Whether to skip the deblocking filter: cheaper pictures for a thumbnail or a decoder
    /// behind the clock.
    func setLowPower(_ low: Bool)
    /// Why this decoder will never decode again (its worker stopped), nil while it can.
    var stopped: AVError? { get }
}

extension Decoder: PacketDecoding {
    /// A decoder in this process stops only with it.
    var stopped: AVError? { nil }

    var frameRate: Double {
        let rate = av_q2d(ctx.pointee.framerate)
        return rate.isFinite ? rate : 0
    }

    func setLowPower(_ low: Bool) {
        ctx.pointee.skip_loop_filter = low ? AVDISCARD_ALL : AVDISCARD_DEFAULT
    }
}

/// A sound decoder: what the audio stage sets its output up by.
protocol SoundDecoding: PacketDecoding {
    /// The stream's sample rate, which the output keeps.
    var sampleRate: Int { get }
    /// The channels played: the stream's, at most two.
    var channels: Int { get }
}

extension Decoder: SoundDecoding {
    var sampleRate: Int { Int(ctx.pointee.sample_rate) }
    var channels: Int { min(2, max(1, Int(ctx.pointee.ch_layout.nb_channels))) }
}
