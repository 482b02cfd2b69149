#!/usr/bin/env python3
"""A session of python-mpv-jsonipc against a running player, written as the library's
documentation shows its use: attach with MPV(start_mpv=False, ipc_socket=...), read and
set properties as attributes, call commands as methods, observe properties and events with
its decorators, bind keys with on_key_press / bind_key_press.

Usage: jsonipc_session.py SOCKET RED_IMAGE BLUE_IMAGE
Prints one JSON object a line for the test to check; waits on events, never on sleeps.
A line {"press": KEY} asks the test to press KEY in the player's window.
"""
import json
import sys
import threading

from python_mpv_jsonipc import MPV, MPVError

sock, red, blue = sys.argv[1:4]
WAIT = 10


def emit(key, value):
    print(json.dumps({key: value}), flush=True)


def error_of(call):
    try:
        call()
        return None
    except MPVError as e:
        return str(e)


mpv = MPV(start_mpv=False, ipc_socket=sock)
emit("connected", True)
emit("idle_active", mpv.idle_active)

events = []
loaded = threading.Semaphore(0)


@mpv.on_event("start-file")
def on_start(data):
    events.append(["start-file", data.get("playlist_entry_id")])


@mpv.on_event("file-loaded")
def on_loaded(data):
    events.append(["file-loaded", data.get("playlist_entry_id")])
    loaded.release()


filenames = []
filename_seen = threading.Event()


@mpv.property_observer("filename")
def on_filename(name, value):
    filenames.append(value)
    if value is not None and value.startswith("solid-blue"):
        filename_seen.set()


# Commands as methods, from the player's command-list.
mpv.loadfile(red)
emit("first_loaded", loaded.acquire(timeout=WAIT))
emit("filename", mpv.filename)
emit("no_ext", mpv.command("get_property", "filename/no-ext"))
emit("count", mpv.command("get_property", "playlist/count"))
emit("size", [mpv.width, mpv.height])
emit("video_tracks", [t["type"] for t in mpv.track_list])
mpv.volume = 50.5
emit("volume", mpv.volume)
emit("volume_string", mpv.command("get_property_string", "volume"))

mpv.loadfile(blue, "append-play")
mpv.playlist_next()
emit("second_loaded", loaded.acquire(timeout=WAIT))
emit("observed_filename", filename_seen.wait(WAIT))
emit("playlist_pos", mpv.playlist_pos)
emit("events", events)
emit("next_at_end", error_of(lambda: mpv.playlist_next()))
emit("unknown_property", error_of(lambda: mpv.command("get_property", "no-such-thing")))
emit("duration_of_still", mpv.duration)
emit("drops_of_still", [mpv.frame_drop_count, mpv.decoder_frame_drop_count])

# Key bindings: one pressed in the window for real, one with the keypress command.
pressed = {"x": threading.Event(), "y": threading.Event(), "ctrl+x": threading.Event()}


@mpv.on_key_press("x")
def on_x():
    pressed["x"].set()


# Written as mpv accepts it (modifiers in any case); the window names the key Ctrl+x.
@mpv.on_key_press("ctrl+x")
def on_ctrl_x():
    pressed["ctrl+x"].set()


mpv.bind_key_press("y", lambda: pressed["y"].set())
emit("press", "x")
emit("key_x", pressed["x"].wait(WAIT))
mpv.keypress("y")
emit("key_y", pressed["y"].wait(WAIT))
emit("press_ctrl", "ctrl+x")
emit("key_ctrl_x", pressed["ctrl+x"].wait(WAIT))
emit("keypress_no_key", error_of(lambda: mpv.keypress("ctrl+nosuchkey")))

mpv.command("show-text", "from python")
emit("client_name", mpv.command("client_name"))
emit("mpv_version", mpv.mpv_version)
mpv.terminate()
emit("done", True)
