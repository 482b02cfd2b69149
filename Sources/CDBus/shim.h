#ifndef MEDIAVIEW_CDBUS_SHIM_H
#define MEDIAVIEW_CDBUS_SHIM_H

// libdbus, the reference D-Bus library: the session bus for MPRIS (media keys and the
// desktop's media widgets). Its API imports into Swift as it is; no wrappers needed.
#include <dbus/dbus.h>

#endif
