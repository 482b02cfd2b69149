#ifndef MEDIAVIEW_CRUBBERBAND_SHIM_H
#define MEDIAVIEW_CRUBBERBAND_SHIM_H

// Rubber Band: changes the sound's tempo without changing its pitch, when media plays
// faster or slower. Its C interface needs no wrappers: every call imports as it is.
#include <rubberband/rubberband-c.h>

#endif
