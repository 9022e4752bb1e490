// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors (UE_API_NOTES B.8): ScriptableToolsFramework ScriptableInteractiveTool.h
// (UScriptableInteractiveTool: ToolName, ToolLongName, ToolCategory, ToolTooltip; the C++
// overrides Setup() and OnTick(float)),
// BaseTools/ScriptableSingleClickTool.h (TestIfHitByClick / OnHitByClick _Implementation,
// FScriptableToolModifierStates), EditorScriptableToolsFramework
// BaseTools/EditorScriptableSingleClickTool.h, and InteractiveToolsFramework InputState.h
// (FInputDeviceRay; FInputRayHit(double HitDepthIn) as in InputState.h, not in the notes).
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

struct FInputDeviceRay
{
};

struct FInputRayHit
{
	FInputRayHit();
	explicit FInputRayHit(double HitDepthIn);
};

struct FScriptableToolModifierStates
{
	bool bShiftDown = false;
	bool bCtrlDown = false;
	bool bAltDown = false;
};

class UInteractiveTool : public UObject
{
};

class UScriptableInteractiveTool : public UInteractiveTool
{
public:
	FText ToolName;
	FText ToolLongName;
	FText ToolCategory;
	FText ToolTooltip;
	FString CustomIconPath;
	bool bShowToolInEditor = true;
	virtual void Setup();
	virtual void OnTick(float DeltaTime);
};

class UScriptableSingleClickTool : public UScriptableInteractiveTool
{
public:
	virtual FInputRayHit TestIfHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers);
	virtual void OnHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers);
};

class UEditorScriptableSingleClickTool : public UScriptableSingleClickTool
{
};
