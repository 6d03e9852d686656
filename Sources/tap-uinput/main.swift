print("tap-uinput: not yet")
