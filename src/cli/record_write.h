/* The recording's host side lives in the core (core/recording_book.h); this name is kept for the record command. */
#include "core/recording_book.h"
