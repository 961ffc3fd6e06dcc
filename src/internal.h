/*
 * Everything internal, for the top layer: src/api.c (routing, contexts,
 * one-shot wrappers) and the white-box tests. Below it, each layer includes
 * only its own header: backend.h (kernel layer and back ends), dispatch.h,
 * mode.h (see backend.h for the picture).
 */
#ifndef HWCRYPT_INTERNAL_H
#define HWCRYPT_INTERNAL_H

#include "dispatch.h"
#include "mode.h"

#endif /* HWCRYPT_INTERNAL_H */
