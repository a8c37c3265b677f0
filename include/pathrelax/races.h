/* PathRelax races: precise data-race detection over every SC execution,
 * classification of each race as benign or destructive by a jmm search,
 * and advice on fixing a destructive one, each piece checked by running
 * the checker again with the change applied.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#ifndef PATHRELAX_RACES_H
#define PATHRELAX_RACES_H

#include "pathrelax/explore.h"

/* Analyses prog's races with the bounds and changes of base, and records
   them, classified and with checked advice, in into (into->races,
   into->races_checked). into is the result of the file's main search,
   whose world names the locations. */
void races_analyse(const Program *prog, const ExploreConfig *base, Result *into);

#endif
