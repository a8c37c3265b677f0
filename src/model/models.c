/* The table of memory models, and helpers they share.
 *
 * Copyright (C) 2026 the PathRelax authors. GPL-3.0-or-later.
 */
#include "pathrelax/model.h"

#include <string.h>

static const ModelOps *const models[] = {&model_jmm, &model_sc, &model_tso, &model_pso};

const ModelOps *model_find(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(models); i++)
        if (strcmp(models[i]->name, name) == 0)
            return models[i];
    return NULL;
}

const char *model_names(void)
{
    static char names[128];
    if (!names[0]) {
        for (size_t i = 0; i < G_N_ELEMENTS(models); i++) {
            if (i)
                g_strlcat(names, ", ", sizeof names);
            g_strlcat(names, models[i]->name, sizeof names);
        }
    }
    return names;
}

void key_grow(KeyBuf *key)
{
    key->cap = key->cap ? key->cap * 2 : 256;
    key->data = g_realloc(key->data, key->cap);
}
