/// What a decode stage does with the packets its loop feeds it (`DecodeLoop`).
protocol DecodeWork: AnyObject {
    /// The decoder packets go to now (the sound stage may switch tracks).
    var decoding: any PacketDecoding { get }
    /// Generation `serial` starts; its output starts at `exact` (nil: the first frame), and
    /// its packets are of `stream` when the demuxer says.
    func begin(serial: Int, exact: ExactStart?, stream: StreamParameters?)
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
