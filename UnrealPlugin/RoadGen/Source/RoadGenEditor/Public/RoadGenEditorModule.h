#pragma once

#include "CoreMinimal.h"
#include "Modules/ModuleInterface.h"

/** Checks the library's version at startup and registers the "RoadGen" message log. */
class ROADGENEDITOR_API FRoadGenEditorModule : public IModuleInterface
{
public:
	/** Name of the message log that receives diagnostics (Window > Message Log > RoadGen). */
	static const FName MessageLogName;

	virtual void StartupModule() override;
	virtual void ShutdownModule() override;
};
