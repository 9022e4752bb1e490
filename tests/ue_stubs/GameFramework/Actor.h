// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Engine/Classes/GameFramework/Actor.h; the members the plugin
// uses. SetRootComponent, SetActorLabel (editor only) as in Actor.h; FindComponentByClass<T>.
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

class UActorComponent;
class USceneComponent;

class AActor : public UObject
{
public:
	template <class T>
	T* FindComponentByClass() const;
	bool SetRootComponent(USceneComponent* NewRootComponent);
#if WITH_EDITOR
	void SetActorLabel(const FString& NewActorLabel, bool bMarkDirty = true);
#endif
};
