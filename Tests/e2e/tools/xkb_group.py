"""Locks the X server's keyboard group, as a desktop's layout switcher does (XkbLockGroup on
the core keyboard), and prints the effective group XkbGetState reports afterwards.

    xkb_group.py N        N: 0-based group (1 = the second layout of `setxkbmap -layout us,de`)
"""
import ctypes
import sys

XKB_USE_CORE_KBD = 0x100


class XkbStateRec(ctypes.Structure):
    _fields_ = [("group", ctypes.c_ubyte), ("locked_group", ctypes.c_ubyte),
                ("base_group", ctypes.c_ushort), ("latched_group", ctypes.c_ushort),
                ("mods", ctypes.c_ubyte), ("base_mods", ctypes.c_ubyte),
                ("latched_mods", ctypes.c_ubyte), ("locked_mods", ctypes.c_ubyte),
                ("compat_state", ctypes.c_ubyte), ("grab_mods", ctypes.c_ubyte),
                ("compat_grab_mods", ctypes.c_ubyte), ("lookup_mods", ctypes.c_ubyte),
                ("compat_lookup_mods", ctypes.c_ubyte), ("ptr_buttons", ctypes.c_ushort)]


x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XkbLockGroup.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]
x11.XkbGetState.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.POINTER(XkbStateRec)]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
dpy = x11.XOpenDisplay(None)
if not dpy:
    sys.exit("xkb_group: cannot open the display")
if not x11.XkbLockGroup(dpy, XKB_USE_CORE_KBD, int(sys.argv[1])):
    sys.exit("xkb_group: XkbLockGroup failed")
state = XkbStateRec()
x11.XkbGetState(dpy, XKB_USE_CORE_KBD, ctypes.byref(state))
print(state.group)
x11.XCloseDisplay(dpy)
