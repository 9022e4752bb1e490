// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Materials/MaterialInterface.h (Engine module), as a type only.
#pragma once

#include "UObject/Object.h"

class UMaterialInterface : public UObject
{
};
