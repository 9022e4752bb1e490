#include "RoadGenEditorModule.h"

#include "MessageLogModule.h"
#include "Modules/ModuleManager.h"
#include "RoadGenRunner.h"

#define LOCTEXT_NAMESPACE "RoadGenEditor"

DEFINE_LOG_CATEGORY_STATIC(LogRoadGen, Log, All);

const FName FRoadGenEditorModule::MessageLogName(TEXT("RoadGen"));

void FRoadGenEditorModule::StartupModule()
{
	if (!RoadGen::IsLibraryCompatible())
	{
		UE_LOG(LogRoadGen, Error, TEXT("The linked RoadGen library does not match roadgen.h: run scripts/build_plugin_lib.sh and rebuild the plugin."));
	}
	else
	{
		// On the game thread, before any other call: FollowRoads's updates then run on it.
		const FString Refused = RoadGen::JoinWorkerPool();
		if (!Refused.IsEmpty())
		{
			UE_LOG(LogRoadGen, Warning, TEXT("RoadGen: updates will hand over to the worker pool: %s"), *Refused);
		}
	}
	FMessageLogModule& MessageLog = FModuleManager::LoadModuleChecked<FMessageLogModule>("MessageLog");
	MessageLog.RegisterLogListing(MessageLogName, LOCTEXT("MessageLogLabel", "RoadGen"));
}

void FRoadGenEditorModule::ShutdownModule()
{
	if (FModuleManager::Get().IsModuleLoaded("MessageLog"))
	{
		FMessageLogModule& MessageLog = FModuleManager::GetModuleChecked<FMessageLogModule>("MessageLog");
		MessageLog.UnregisterLogListing(MessageLogName);
	}
}

#undef LOCTEXT_NAMESPACE

IMPLEMENT_MODULE(FRoadGenEditorModule, RoadGenEditor)
