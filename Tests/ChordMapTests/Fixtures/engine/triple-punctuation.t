# Default triple taps: p x3 = ")", c x3 = ";", t x3 = "#".
--- script
xx..x +100ms
xx..x +100ms
xx..x
x.xxx +100ms
x.xxx +100ms
x.xxx
.xx.. +100ms
.xx.. +100ms
.xx..
--- text
);#
