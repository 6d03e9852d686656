# release-all while a multi-tap is pending: an empty frame, the pending "a" is never typed.
--- script
x.... +100ms
release-all
xx...
--- output
@1100ms
KEY_N 1
KEY_N 0
