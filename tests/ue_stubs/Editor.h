// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Editor/UnrealEd/Public/Editor.h (GEditor), Editor/EditorEngine.h
// (UEditorEngine::GetEditorWorldContext(bool bEnsureIsGWorld = false),
// GetEditorSubsystem<T>() from UE_API_NOTES B.6) and Engine/Engine.h (FWorldContext::World()).
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

class UWorld;

struct FWorldContext
{
	UWorld* World() const;
};

class UEditorEngine : public UObject
{
public:
	FWorldContext& GetEditorWorldContext(bool bEnsureIsGWorld = false);
	template <typename TEditorSubsystemClass>
	TEditorSubsystemClass* GetEditorSubsystem() const;
};

extern UEditorEngine* GEditor;
