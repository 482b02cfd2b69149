#ifndef MEDIAVIEW_CPULSE_SHIM_H
#define MEDIAVIEW_CPULSE_SHIM_H

#include <pulse/pulseaudio.h>

// PA_CONTEXT_IS_GOOD / PA_STREAM_IS_GOOD are static inline in the header, but keep one
// spelling for both so the Swift side reads the same.
static inline int cpa_context_is_good(pa_context_state_t s) { return PA_CONTEXT_IS_GOOD(s); }
static inline int cpa_stream_is_good(pa_stream_state_t s) { return PA_STREAM_IS_GOOD(s); }
// PA_VOLUME_NORM is a cast macro.
static const pa_volume_t cpa_volume_norm = PA_VOLUME_NORM;

#endif
