// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Components/ActorComponent.h (Engine module); the members the plugin uses.
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

class AActor;

class UActorComponent : public UObject
{
public:
	AActor* GetOwner() const;
};
