/// The one error type of the Windowing library: what went wrong with the X server, in one
/// line a user understands.
public struct XError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
