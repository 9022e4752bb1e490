// A Scriptable Tool (Scriptable Tools editor mode palette, category "RoadGen"): while it is
// active the road network follows the level's splines, every frame, as they are dragged or
// edited; only what an edit reaches is built again. Click in the viewport to Generate
// everything as one undoable step.
#pragma once

#include "CoreMinimal.h"
#include "BaseTools/EditorScriptableSingleClickTool.h"

#include "RoadGenFollowTool.generated.h"

UCLASS()
class ROADGENEDITOR_API URoadGenFollowTool : public UEditorScriptableSingleClickTool
{
	GENERATED_BODY()
public:
	URoadGenFollowTool();

	virtual void OnTick(float DeltaTime) override;
	virtual FInputRayHit TestIfHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers) override;
	virtual void OnHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers) override;

private:
	/** The last failure reported, so that a road that stays bad is reported once, not every frame. */
	FString LastError;
};
