#!/usr/bin/env python3
"""Peak proportional set size (PSS) of a process and all its descendants, in KiB.

Usage: pss-peak.py PID OUT. Samples /proc/*/smaps_rollup ten times a second until PID is
gone, then writes the largest total seen to OUT. PSS shares each page among the processes
mapping it, so a viewer and its decode workers are not charged twice for the libraries they
share, and a player is charged for what it alone holds: the memory measure a sandboxed
player with helper processes is compared by.
"""
import os
import sys
import time


def children():
    """Parent pid of every process, read once per sample."""
    parents = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
            # The command name is in parentheses and may hold spaces: fields follow the last ')'.
            parents[int(name)] = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError):
            continue
    return parents


def tree(root, parents):
    found, todo = {root}, [root]
    while todo:
        p = todo.pop()
        for pid, parent in parents.items():
            if parent == p and pid not in found:
                found.add(pid)
                todo.append(pid)
    return found


def pss(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def main():
    root, out = int(sys.argv[1]), sys.argv[2]
    peak = 0
    while os.path.exists(f"/proc/{root}"):
        peak = max(peak, sum(pss(p) for p in tree(root, children())))
        time.sleep(0.1)
    with open(out, "w") as f:
        f.write(f"{peak}\n")


if __name__ == "__main__":
    main()
