# A chord with no double/triple binding (n, thumb+index) is emitted at once: no wait.
--- script
xx...
--- output
@0ms
KEY_N 1
KEY_N 0
