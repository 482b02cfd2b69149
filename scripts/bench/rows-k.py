"""Rows of the bench table for case (k), a progressive JPEG shown while it downloads
(scripts/bench/case-k.sh): the share of the file the program had at its first picture, the
share the server can have sent by then (elapsed time x rate / length), and the seconds from
the request.
"""


def rows(b):
    first, share, size = b.med("k", "ours", "first_s"), b.med("k", "ours", "first_share"), b.med("k", "ours", "bytes")
    had = b.med("k", "ours", "first_buffered")
    if first is None:
        return
    whole = None if size is None else size / 2e6
    b.row("(k) 24 MP progressive JPEG at 2 MB/s into 1280x720: first picture", "share of the file in (program's count)",
          b.fmt(had and had * 100, " %", 0), "waiting for the whole file: 100 %", "", "<= 25 %",
          b.verdict(None if had is None else had <= 0.25))
    b.row("", "share the server can have sent (time x rate)", b.fmt(share and share * 100, " %", 0), "", "", "", "")
    b.row("", "seconds from the request", b.fmt(first, " s", 2), f"whole file in after {b.fmt(whole, ' s', 1)}", "",
          "", "")
