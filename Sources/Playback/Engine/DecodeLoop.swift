import CFFmpeg
import Glibc

/// What a decode stage does with the packets its loop feeds it (`DecodeLoop`).
protocol DecodeWork: AnyObject {
    /// The decoder packets go to now (the sound stage may switch tracks).
    var decoder: Decoder { get }
    /// Generation `serial` starts; its output starts at `exact` (nil: the first frame).
    func begin(serial: Int, exact: ExactStart?)
    /// Called with every current packet before it is sent.
    func beforeSend(_ packet: Packet)
    /// Decodes `packet` itself and returns true, or false for the decoder to take it.
    func own(_ packet: Packet, serial: Int) -> Bool
    /// The decoder refused a packet of generation `serial` with `code`.
    func sendFailed(_ code: Int32, serial: Int)
    /// Takes everything the decoder has ready; false to stop the stage (closed).
    func drain(serial: Int) -> Bool
    /// The source ended in generation `serial` and the decoder is drained.
    func atEnd(serial: Int)
}

extension DecodeWork {
    func beforeSend(_ packet: Packet) {}
    func own(_ packet: Packet, serial: Int) -> Bool { false }
    func sendFailed(_ code: Int32, serial: Int) {}
}

/// The loop both decode stages run on their threads: packets of the current seek
/// generation go to the decoder (flushed when the generation changes), the work drains
/// what comes out, and the end marker drains the decoder and ends the generation. Items of
/// an older generation are dropped where they are met.
struct DecodeLoop {
    let serial: SeekSerial

    /// Runs until `queue` is aborted or the work says to stop.
    func run(_ work: some DecodeWork, from queue: BoundedQueue<PacketItem>) {
        var decoderSerial: Int?
        while let item = queue.pop() {
            switch item {
            case .start(let s, let exact):
                if s == serial.current { work.begin(serial: s, exact: exact) }
            case .packet(let p, let s):
                if s != serial.current { continue }
                work.beforeSend(p)
                let decoder = work.decoder
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                if !work.own(p, serial: s) {
                    let r = decoder.send(p)
                    // EAGAIN only asks for the output to be taken first, which drain does.
                    if r < 0 && r != cff_averror(EAGAIN) { work.sendFailed(r, serial: s) }
                }
                if !work.drain(serial: s) { return }
            case .end(let s):
                if s != serial.current { continue }
                let decoder = work.decoder
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                _ = decoder.send(nil)
                if !work.drain(serial: s) { return }
                // Flushed after draining, so the same decoder takes packets again (a loop).
                decoder.flush()
                decoderSerial = nil
                work.atEnd(serial: s)
            }
        }
    }
}
