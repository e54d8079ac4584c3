#include <fribidi.h>

/* The paragraph directions are macros built from other macros, which Swift does not import. */
static const FriBidiParType skeleton_fribidi_par_ltr = FRIBIDI_PAR_LTR;
static const FriBidiParType skeleton_fribidi_par_rtl = FRIBIDI_PAR_RTL;
