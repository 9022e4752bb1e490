// A Scriptable Tool (Scriptable Tools editor mode palette, category "RoadGen"): click in the
// viewport to Generate the road network; Shift+click to Clear it.
#pragma once

#include "CoreMinimal.h"
#include "BaseTools/EditorScriptableSingleClickTool.h"

#include "RoadGenGenerateTool.generated.h"

UCLASS()
class ROADGENEDITOR_API URoadGenGenerateTool : public UEditorScriptableSingleClickTool
{
	GENERATED_BODY()
public:
	URoadGenGenerateTool();

	virtual FInputRayHit TestIfHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers) override;
	virtual void OnHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers) override;
};
