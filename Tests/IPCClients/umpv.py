#!/usr/bin/env python3
"""umpv's behaviour, written from its documented protocol, for the tests: one player for
many files. The first call starts the player as umpv starts mpv,

    $MPV --no-terminal --force-window --input-ipc-server=SOCKET -- FILE...

and waits for it; a later call hands each file to the running player with the line umpv
writes to the socket, `raw loadfile "FILE" append`, the file's backslashes, quotes and
newlines escaped. The socket is $UMPV_SOCKET (umpv's own is in the home directory).
"""
import os
import socket
import subprocess
import sys


def absolute(f):
    return f if "://" in f else os.path.abspath(f)


files = [absolute(f) for f in sys.argv[1:]]
path = os.environ["UMPV_SOCKET"]
sock = socket.socket(socket.AF_UNIX)
try:
    sock.connect(path)
except (FileNotFoundError, ConnectionRefusedError):
    sock = None

if sock is not None:
    for f in files:
        quoted = f.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        sock.send(('raw loadfile "' + quoted + '" append\n').encode("utf-8"))
    sock.close()
else:
    argv = os.environ.get("MPV", "mpv").split()
    argv += ["--no-terminal", "--force-window", "--input-ipc-server=" + path, "--"]
    argv += files
    sys.exit(subprocess.call(argv))
