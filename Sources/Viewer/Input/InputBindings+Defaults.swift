/// The built-in key and mouse bindings, in input.conf form: a library user has them with no
/// file on disk, and `InputBindings.defaults` is this text parsed.
extension InputBindings {
    /// The default bindings as input.conf text, comments included.
    public static let defaultText = """
    # mediaview default key and mouse bindings (mediaview --list-bindings prints them).
    #
    # Format (mpv's input.conf): KEY COMMAND [ARGS]   # comment
    # Key names: a character (a, A, ?), SPACE, ENTER, ESC, TAB, BS, DEL, INS, HOME, END,
    # PGUP, PGDWN, LEFT, RIGHT, UP, DOWN, F1-F12, KP0-KP9, SHARP (the # key), PLAY, PAUSE,
    # STOP, NEXT, PREV, MUTE, VOLUME_UP, VOLUME_DOWN (media keys), MBTN_LEFT,
    # MBTN_RIGHT, MBTN_MID, MBTN_LEFT_DBL, WHEEL_UP, WHEEL_DOWN, MBTN_BACK, MBTN_FORWARD,
    # with Ctrl+, Alt+, Shift+, Meta+ in front. Upper-case letters already mean Shift.
    #
    # Your own bindings go in $XDG_CONFIG_HOME/mediaview/input.conf (usually
    # ~/.config/mediaview/input.conf). They are laid over this table: list only what
    # you change, and write `KEY ignore` to unbind a key. `mediaview --list-bindings`
    # prints the table in effect; a bad line is reported with its line number and the
    # rest still loads.
    #
    # A single left click (toggle pause) and left drags (minimize, dismiss) are
    # gestures of the view, not bindings, because a press is only a click once the
    # button comes up without the pointer having moved.

    # Playback
    SPACE           cycle pause
    LEFT            seek -5
    RIGHT           seek 5
    Shift+LEFT      seek -1
    Shift+RIGHT     seek 1
    DOWN            seek -60
    UP              seek 60
    PGUP            add chapter 1
    PGDWN           add chapter -1
    l               cycle loop

    # Speed (0.25x to 4x, the sound keeps its pitch) and frames, as in mpv: [ ] by 10 %,
    # { } halve and double, Backspace back to 1x; . and , step one frame (pausing first)
    [               multiply speed 1/1.1
    ]               multiply speed 1.1
    {               multiply speed 0.5
    }               multiply speed 2
    BS              set speed 1
    .               frame-step
    ,               frame-back-step

    # Volume: keys as in mpv; the wheel is volume because the view has nothing to scroll
    9               add volume -2
    /               add volume -2
    0               add volume 2
    *               add volume 2
    WHEEL_DOWN      add volume -2
    WHEEL_UP        add volume 2
    m               cycle mute

    # Queue
    n               playlist-next
    p               playlist-prev
    >               playlist-next
    <               playlist-prev
    MBTN_FORWARD    playlist-next
    MBTN_BACK       playlist-prev
    HOME            playlist-first
    END             playlist-last
    d               dismiss
    # Esc closes the presented item, as Esc closes a browser's image lightbox and as
    # the close button does; mpv users who want "leave fullscreen" can rebind it to
    # `cycle fullscreen`.
    ESC             dismiss
    q               quit

    # Files: Delete moves the file to the trash (never deletes it), u brings it back
    DEL             trash
    u               undo-trash
    # The keyboard's media keys, while the window has the focus (as mpv binds them;
    # Stop ends the player, as in mpv)
    PLAY            cycle pause
    PAUSE           cycle pause
    NEXT            playlist-next
    PREV            playlist-prev
    STOP            quit
    MUTE            cycle mute
    VOLUME_DOWN     add volume -2
    VOLUME_UP       add volume 2

    # Window
    f               cycle fullscreen
    MBTN_LEFT_DBL   cycle fullscreen
    Ctrl+DOWN       minimize
    Ctrl+UP         restore
    # P (Shift+p) pins the item: it plays on in a thumbnail of its own while the queue moves on
    P               pin

    # Save the picture on screen as a PNG file (the program puts it in your Pictures folder)
    s               screenshot

    # Clipboard: play the paths or links on it; copy the picture (PNG) and its source
    Ctrl+v          paste
    Ctrl+c          copy

    # The gallery: g shows the queue as a grid of thumbnails. Lines that start with
    # {gallery} apply while it shows (keys it does not bind keep their usual command):
    # Enter or a click opens the highlighted item, g or Esc returns to the item that was
    # showing.
    g               gallery
    {gallery} g              gallery
    {gallery} ESC            gallery
    {gallery} ENTER          gallery-open
    {gallery} LEFT           gallery-move -1 0
    {gallery} RIGHT          gallery-move 1 0
    {gallery} UP             gallery-move 0 -1
    {gallery} DOWN           gallery-move 0 1
    {gallery} PGUP           gallery-page -1
    {gallery} PGDWN          gallery-page 1
    {gallery} HOME           gallery-first
    {gallery} END            gallery-last
    {gallery} WHEEL_UP       gallery-scroll -1
    {gallery} WHEEL_DOWN     gallery-scroll 1

    # Subtitles and sound tracks, as in mpv: v shows or hides the subtitles, j steps
    # through the subtitle tracks and "off", # through the sound tracks
    v               cycle sub-visibility
    j               cycle sub
    SHARP           cycle audio

    # On a still picture there is nothing to seek: the keys a photo viewer uses (eog,
    # Loupe, Gwenview) step through the queue. On video and sound they seek as above.
    {still} LEFT           playlist-prev
    {still} RIGHT          playlist-next
    {still} UP             playlist-prev
    {still} DOWN           playlist-next
    {still} PGUP           playlist-prev
    {still} PGDWN          playlist-next
    {still} SPACE          playlist-next
    {still} BS             playlist-prev
    {still} WHEEL_UP       playlist-prev
    {still} WHEEL_DOWN     playlist-next

    # Overlays (i shows the title; with no title or song tags, what the file is, as I)
    t               cycle track
    i               cycle details
    I               cycle info

    # Image: rotate, zoom and pan. Ctrl+0 resets the zoom, since plain 0 is volume.
    r               rotate 90
    R               rotate -90
    +               zoom 0.1
    =               zoom 0.1
    -               zoom -0.1
    Ctrl+WHEEL_UP   zoom 0.1
    Ctrl+WHEEL_DOWN zoom -0.1
    Ctrl+0          zoom-reset
    # F (Shift+f) shows small pictures at 100 % or enlarged to the window, as eog's Best Fit
    # key; --fit sets how they start
    F               cycle fit
    # Alt+arrows look that way (the picture moves the other way), as in mpv and eog
    Alt+LEFT        pan 40 0
    Alt+RIGHT       pan -40 0
    Alt+UP          pan 0 40
    Alt+DOWN        pan 0 -40
    """
}
