import CFFmpeg
import Glibc

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
            case .start(let s, let exact, let stream):
                if s == serial.current { work.begin(serial: s, exact: exact, stream: stream) }
            case .packet(let p, let s):
                if s != serial.current { continue }
                work.beforeSend(p)
                let decoder = work.decoding
                if s != decoderSerial { decoder.flush(); decoderSerial = s }
                if !work.own(p, serial: s) {
                    let r = decoder.send(p)
                    // EAGAIN only asks for the output to be taken first, which drain does.
                    if r < 0 && r != cff_averror(EAGAIN) { work.sendFailed(r, serial: s) }
                }
                if !work.drain(serial: s) { return }
            case .end(let s):
                if s != serial.current { continue }
                let decoder = work.decoding
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
