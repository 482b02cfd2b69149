"""(gl) A/V offset seen from outside with two CPU hogs running, ours and mpv's."""
import os
import runpy


def rows(b):
    g = runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "rows-g.py"))
    g["offset_rows"](b, "gl", "(gl) the same with two CPU hogs (stress-ng --cpu 2) for the whole case")
