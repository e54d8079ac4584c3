#include <xcb/xcb.h>
/* xcb_poll_for_reply: the round trip that paces frames. */
#include <xcb/xcbext.h>
/* Windows put under the skeleton's keep drawing (Composite's automatic redirection). */
#include <xcb/composite.h>
