#include <xkbcommon/xkbcommon.h>
// Dead-key sequences: which characters a dead key and a base character compose to.
#include <xkbcommon/xkbcommon-compose.h>
