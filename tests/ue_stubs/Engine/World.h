// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Engine/Classes/Engine/World.h: UWorld::SpawnActor<T>(const
// FActorSpawnParameters&) (templated overload as in World.h) and FActorSpawnParameters.
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

struct FActorSpawnParameters
{
	FActorSpawnParameters();
};

class UWorld : public UObject
{
public:
	template <class T>
	T* SpawnActor(const FActorSpawnParameters& SpawnParameters = FActorSpawnParameters());
};
