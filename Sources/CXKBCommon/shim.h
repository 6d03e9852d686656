#include <xkbcommon/xkbcommon.h>
// Dead-key sequences: which characters a dead key and a base character compose to.
#include <xkbcommon/xkbcommon-compose.h>
// Layout descriptions ("German", as sway and Hyprland report them) back to XKB names.
#include <xkbcommon/xkbregistry.h>
