import CDBus

/// A private connection to a D-Bus bus (the session bus, for MPRIS), joined to the app's
/// main loop: libdbus tells us the socket through its watch functions, the loop says when
/// it can be read, and the calls that came in are answered there, on the main actor. It
/// owns libdbus's connection and closes it in deinit.
@MainActor
public final class BusConnection {
    /// Why a connection or a name could not be had, in a line a person reads.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, as libdbus says it.
        public let description: String
        /// A failure that says `description`.
        public init(description: String) { self.description = description }
    }

    /// Answers the calls made on one object path: a reply, an error reply, or nil to let
    /// libdbus answer "unknown method".
    public typealias Handler = @MainActor (BusMessage) -> BusMessage?
    /// Adds a descriptor to the main loop with what to run when it can be read.
    public typealias Watch = @MainActor (Int32, @escaping @MainActor () -> Void) -> Void

    let raw: OpaquePointer
    private let watch: Watch
    private let unwatch: @MainActor (Int32) -> Void
    /// Descriptors in the main loop, for libdbus's watches that are enabled.
    private var watched: [Int32: OpaquePointer] = [:]
    private var handlers: [String: Handler] = [:]

    /// Connects to the bus at `address` (as `DBUS_SESSION_BUS_ADDRESS` spells it) and says
    /// hello. `watch` and `unwatch` add the connection's socket to the app's loop and take it
    /// out again.
    public init(address: String, watch: @escaping Watch, unwatch: @escaping @MainActor (Int32) -> Void) throws(Failure) {
        var err = DBusError()
        dbus_error_init(&err)
        defer { dbus_error_free(&err) }
        guard let c = dbus_connection_open_private(address, &err) else { throw Self.failure(&err, "cannot connect") }
        guard dbus_bus_register(c, &err) != 0 else {
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw Self.failure(&err, "the bus did not answer")
        }
        raw = c
        self.watch = watch
        self.unwatch = unwatch
        // A player whose bus goes away keeps playing; libdbus would otherwise call exit().
        dbus_connection_set_exit_on_disconnect(c, 0)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_connection_set_watch_functions(c, { w, data in
            MainActor.assumeIsolated { BusConnection.from(data).changed(w, added: true) }
            return 1
        }, { w, data in
            MainActor.assumeIsolated { BusConnection.from(data).changed(w, added: false) }
        }, { w, data in
            MainActor.assumeIsolated { BusConnection.from(data).changed(w, added: true) }
        }, me, nil)
    }

    isolated deinit {
        for fd in watched.keys { unwatch(fd) }
        _ = dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// The connection's own name on the bus (`:1.42`).
    public var uniqueName: String { dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? "" }

    /// Whether the connection is still up.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Asks for a well-known name; false when another connection already has it (we do not
    /// wait in line for it).
    public func requestName(_ name: String) throws(Failure) -> Bool {
        var err = DBusError()
        dbus_error_init(&err)
        defer { dbus_error_free(&err) }
        let r = dbus_bus_request_name(raw, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &err)
        if dbus_error_is_set(&err) != 0 { throw Self.failure(&err, "cannot own \(name)") }
        dispatchPending()
        return r == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
    }

    /// Serves calls on `path` with `handler`.
    public func export(path: String, handler: @escaping Handler) {
        handlers[path] = handler
        var table = DBusObjectPathVTable()
        table.message_function = { c, m, data in
            guard let m else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            return MainActor.assumeIsolated { BusConnection.from(data).handle(m) }
        }
        _ = dbus_connection_register_object_path(raw, path, &table, Unmanaged.passUnretained(self).toOpaque())
        dispatchPending()
    }

    /// Sends a message (a signal) now.
    public func send(_ message: BusMessage) {
        _ = dbus_connection_send(raw, message.raw, nil)
        dbus_connection_flush(raw)
    }

    private func handle(_ m: OpaquePointer) -> DBusHandlerResult {
        let message = BusMessage(retaining: m)
        guard dbus_message_get_type(m) == DBUS_MESSAGE_TYPE_METHOD_CALL,
              let path = message.path, let handler = handlers[path],
              let answer = handler(message) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        if message.wantsReply { _ = dbus_connection_send(raw, answer.raw, nil) }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// libdbus added, removed or toggled a watch. Only reading joins the loop: replies and
    /// signals are small and are flushed as they are sent.
    private func changed(_ w: OpaquePointer?, added: Bool) {
        guard let w else { return }
        let fd = dbus_watch_get_unix_fd(w)
        guard fd >= 0, dbus_watch_get_flags(w) & DBUS_WATCH_READABLE.rawValue != 0 else { return }
        if added && dbus_watch_get_enabled(w) != 0 {
            watched[fd] = w
            watch(fd) { [weak self] in self?.readable(fd) }
        } else if watched[fd] == w {
            watched[fd] = nil
            unwatch(fd)
        }
    }

    /// The socket can be read: libdbus reads what came, then each call is answered.
    private func readable(_ fd: Int32) {
        guard let w = watched[fd] else { return }
        _ = dbus_watch_handle(w, DBUS_WATCH_READABLE.rawValue)
        dispatchPending()
    }

    private func dispatchPending() {
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
        dbus_connection_flush(raw)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> BusConnection {
        Unmanaged<BusConnection>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func failure(_ err: inout DBusError, _ what: String) -> Failure {
        let text = dbus_error_is_set(&err) != 0 && err.message != nil ? String(cString: err.message) : what
        return Failure(description: text)
    }
}
