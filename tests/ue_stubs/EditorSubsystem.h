// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Editor/EditorSubsystem/Public/EditorSubsystem.h (UE_API_NOTES B.6) and,
// for its base, Subsystems/Subsystem.h (Initialize / Deinitialize).
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

class FSubsystemCollectionBase;

class USubsystem : public UObject
{
public:
	virtual void Initialize(FSubsystemCollectionBase& Collection);
	virtual void Deinitialize();
};

class UDynamicSubsystem : public USubsystem
{
};

class UEditorSubsystem : public UDynamicSubsystem
{
};
