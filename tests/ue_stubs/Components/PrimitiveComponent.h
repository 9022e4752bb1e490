// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Components/PrimitiveComponent.h (Engine module), as a base class only.
#pragma once

#include "Components/SceneComponent.h"

class UPrimitiveComponent : public USceneComponent
{
};
