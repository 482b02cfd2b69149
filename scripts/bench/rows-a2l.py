"""(a2l) 4K60 in real time with one CPU hog running: dropped frames, ours and mpv's."""
import os
import runpy


def rows(b):
    a2 = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rows-a2.py"))
    a2["drop_rows"](b, "a2l", "(a2l) the same with one CPU hog (stress-ng --cpu 1) for the whole case")
