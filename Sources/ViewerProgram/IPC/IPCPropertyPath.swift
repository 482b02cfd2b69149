import MediaCore
import Playback

/// mpv's sub-properties and string forms of property values.
///
/// `playlist/count`, `playlist/0/filename`, `track-list/1/lang`, `metadata/by-key/artist`,
/// `video-params/w`: a name with slashes reads into the value of the property before the
/// first slash, as mpv's manual describes for every list and map property.
enum IPCPropertyPath {
    /// The part of `value` that `path` (the words after the property name) names; nil
    /// when it names nothing.
    static func resolve(_ value: JSONValue, _ path: ArraySlice<Substring>) -> JSONValue? {
        guard let step = path.first else { return value }
        let rest = path.dropFirst()
        switch value {
        case .array(let items):
            if step == "count" && rest.isEmpty { return .int(items.count) }
            guard let i = Int(step), items.indices.contains(i) else { return nil }
            return resolve(items[i], rest)
        case .object(let fields):
            if step == "by-key" || step == "list" && fields["list"] == nil {
                return step == "by-key" ? resolve(value, rest) : resolve(listing(fields), rest)
            }
            guard let v = fields[String(step)] else { return nil }
            return resolve(v, rest)
        default:
            return nil
        }
    }

    /// A map as mpv's `list` sub-property shows it: `[{key, value}]` in key order.
    private static func listing(_ fields: [String: JSONValue]) -> JSONValue {
        .array(fields.keys.sorted().map { .object(["key": .string($0), "value": fields[$0]!]) })
    }

    /// The value as `get_property_string` gives it: flags as yes/no, numbers with six
    /// decimals, text as it is, lists and maps as JSON.
    static func string(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "yes" : "no"
        case .int(let n): return String(n)
        case .double(let d): return TextFormat.fixed(d, digits: 6)
        case .null: return ""
        case .array, .object: return value.json
        }
    }
}
