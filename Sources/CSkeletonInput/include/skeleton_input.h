#ifndef SKELETON_INPUT_H
#define SKELETON_INPUT_H

#include <libinput.h>

/* A libinput context of the path backend whose devices are opened read-only, nonblocking,
   close-on-exec and grabbed (EVIOCGRAB), with its error lines kept for `sk_input_take_log_line`. */
struct libinput *sk_input_path_context(void);

/* The last line libinput logged ("" when none), taken: the caller logs it its own way. */
const char *sk_input_take_log_line(void);

#endif
