#include "RoadGenGenerateTool.h"

#include "Editor.h"
#include "Logging/MessageLog.h"
#include "RoadGenEditorModule.h"
#include "RoadGenEditorSubsystem.h"

#define LOCTEXT_NAMESPACE "RoadGenGenerateTool"

namespace
{
	/** Every click in the viewport is a hit, in front of everything else. */
	constexpr double ClickAnywhereHitDepth = 0.0;
}

URoadGenGenerateTool::URoadGenGenerateTool()
{
	ToolName = LOCTEXT("ToolName", "Generate Roads");
	ToolLongName = LOCTEXT("ToolLongName", "Generate the road network");
	ToolCategory = LOCTEXT("ToolCategory", "RoadGen");
	ToolTooltip = LOCTEXT("ToolTooltip", "Click in the viewport to generate junctions, roads and blocks from the level's road splines (Shift+click: clear).");
}

FInputRayHit URoadGenGenerateTool::TestIfHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers)
{
	return FInputRayHit(ClickAnywhereHitDepth);
}

void URoadGenGenerateTool::OnHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers)
{
	URoadGenEditorSubsystem* Subsystem = GEditor != nullptr ? GEditor->GetEditorSubsystem<URoadGenEditorSubsystem>() : nullptr;
	if (Subsystem == nullptr)
	{
		return;
	}
	FString Message;
	const bool bOk = Modifiers.bShiftDown ? Subsystem->Clear(Message) : Subsystem->Generate(Message);
	if (!bOk)
	{
		FMessageLog(FRoadGenEditorModule::MessageLogName).Warning(FText::FromString(Message));
		FMessageLog(FRoadGenEditorModule::MessageLogName).Notify(FText::FromString(Message), EMessageSeverity::Warning, /*bForce=*/true);
	}
}

#undef LOCTEXT_NAMESPACE
