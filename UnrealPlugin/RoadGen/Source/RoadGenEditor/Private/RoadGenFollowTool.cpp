#include "RoadGenFollowTool.h"

#include "Editor.h"
#include "Logging/MessageLog.h"
#include "RoadGenEditorModule.h"
#include "RoadGenEditorSubsystem.h"

#define LOCTEXT_NAMESPACE "RoadGenFollowTool"

namespace
{
	/** Every click in the viewport is a hit, in front of everything else. */
	constexpr double ClickAnywhereHitDepth = 0.0;

	URoadGenEditorSubsystem* Subsystem()
	{
		return GEditor != nullptr ? GEditor->GetEditorSubsystem<URoadGenEditorSubsystem>() : nullptr;
	}
}

URoadGenFollowTool::URoadGenFollowTool()
{
	ToolName = LOCTEXT("ToolName", "Follow Roads");
	ToolLongName = LOCTEXT("ToolLongName", "Follow the road splines while they are edited");
	ToolCategory = LOCTEXT("ToolCategory", "RoadGen");
	ToolTooltip = LOCTEXT("ToolTooltip", "While active, the road network follows the level's splines as they are dragged, building again only what an edit reaches. Click in the viewport to generate everything as one undoable step.");
}

void URoadGenFollowTool::OnTick(float DeltaTime)
{
	Super::OnTick(DeltaTime);
	URoadGenEditorSubsystem* RoadGen = Subsystem();
	if (RoadGen == nullptr)
	{
		return;
	}
	FString Message;
	if (RoadGen->FollowRoads(Message))
	{
		LastError = FString();
	}
	else if (Message != LastError)
	{
		LastError = Message;
		FMessageLog(FRoadGenEditorModule::MessageLogName).Warning(FText::FromString(Message));
	}
}

FInputRayHit URoadGenFollowTool::TestIfHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers)
{
	return FInputRayHit(ClickAnywhereHitDepth);
}

void URoadGenFollowTool::OnHitByClick_Implementation(FInputDeviceRay ClickPos, const FScriptableToolModifierStates& Modifiers)
{
	URoadGenEditorSubsystem* RoadGen = Subsystem();
	FString Message;
	if (RoadGen != nullptr && !RoadGen->Generate(Message))
	{
		FMessageLog(FRoadGenEditorModule::MessageLogName).Notify(FText::FromString(Message), EMessageSeverity::Warning, /*bForce=*/true);
	}
}

#undef LOCTEXT_NAMESPACE
