// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Components/SceneComponent.h (Engine module); SetupAttachment: UE_API_NOTES B.7.
#pragma once

#include "Components/ActorComponent.h"

class USceneComponent : public UActorComponent
{
public:
	void SetupAttachment(USceneComponent* InParent, FName InSocketName = FName());
};
