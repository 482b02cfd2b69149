/// What the demux stage sends a decode stage through its packet queue.
///
/// Values only, so the decode stage needs nothing else of the demuxer's: a decoder in
/// another process would be fed the same sequence.
enum PacketItem: Sendable {
    /// Generation `serial` begins here: the packets that follow belong to it, its output
    /// starts at `exact` (nil: at the first frame decoded), and they are of `stream` (the
    /// sound track chosen, which the user may have switched; nil for the picture).
    case start(serial: Int, exact: ExactStart?, stream: StreamParameters?)
    /// A packet of generation `serial`.
    case packet(Packet, serial: Int)
    /// The source ended in generation `serial`: drain the decoder.
    case end(serial: Int)
}
