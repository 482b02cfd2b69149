// The value types an app names when it uses a view: colours, pictures, rectangles, keys,
// and what the decoder found. They are defined by the modules that draw and decode; an
// app that writes `import Viewer` gets them without importing those.
@_exported import struct Windowing.Color
@_exported import struct Windowing.RGBAImage
@_exported import struct Windowing.Rect
@_exported import struct Windowing.KeyEvent
@_exported import struct Windowing.InterfaceScale
@_exported import struct Playback.MediaInfo
@_exported import struct Playback.PlayerOptions
@_exported import struct Web.SourceOptions
@_exported import struct ThumbnailCache.ThumbnailStore
