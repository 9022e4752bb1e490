// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Engine/Public/EngineUtils.h: TActorIterator (constructor as in
// 5.4: explicit TActorIterator(const UWorld*, TSubclassOf<ActorType> = ActorType::StaticClass(),
// EActorIteratorFlags = OnlyActiveLevels | SkipPendingKill)).
#pragma once

#include "Engine/World.h"
#include "GameFramework/Actor.h"

enum class EActorIteratorFlags { AllActors = 0x0, OnlyActiveLevels = 0x1, OnlySelectedActors = 0x2, SkipPendingKill = 0x4 };

template <typename ActorType>
class TActorIterator
{
public:
	explicit TActorIterator(const UWorld* InWorld, TSubclassOf<ActorType> InClass = ActorType::StaticClass(),
		EActorIteratorFlags InFlags = EActorIteratorFlags::SkipPendingKill);
	explicit operator bool() const;
	TActorIterator& operator++();
	ActorType* operator*() const;
	ActorType* operator->() const;
};
