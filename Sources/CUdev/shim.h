#include <libudev.h>
