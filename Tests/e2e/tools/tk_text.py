"""The focused application for desktop scenarios: one full-screen Tk Text widget with the
keyboard focus. Whatever text it receives is written to TEXT_FILE (replaced atomically, only when
it changed); every pointer motion event's root position is appended to TEXT_FILE.motion.

    tk_text.py TEXT_FILE        (DISPLAY from the environment)

SIGUSR1 clears the widget and the file (the next round of typing starts from nothing); SIGTERM
quits. "ready" goes to stdout once the window is mapped and focused.
"""
import os
import signal
import sys
import tkinter as tk

path = sys.argv[1]
root = tk.Tk(className="TapE2EText")
root.title("tap-e2e-text")
w, h = root.winfo_screenwidth(), root.winfo_screenheight()
root.geometry(f"{w}x{h}+0+0")
text = tk.Text(root, undo=False)
text.pack(fill="both", expand=True)
last = None
clear = False


def write(content):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(content)
    os.replace(tmp, path)


def poll():
    global last, clear
    if clear:
        clear = False
        text.delete("1.0", "end")
    content = text.get("1.0", "end-1c")
    if content != last:
        write(content)
        last = content
    root.after(50, poll)


motion = open(path + ".motion", "a", buffering=1)
root.bind_all("<Motion>", lambda e: motion.write(f"{e.x_root} {e.y_root}\n"))


def on_usr1(*_):
    global clear
    clear = True


signal.signal(signal.SIGUSR1, on_usr1)
signal.signal(signal.SIGTERM, lambda *_: root.after(0, root.destroy))


def ready():
    root.focus_force()
    text.focus_set()
    print("ready", flush=True)


write("")
root.after(50, poll)
root.after(200, ready)
root.mainloop()
