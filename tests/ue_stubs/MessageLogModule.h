// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Developer/MessageLog/Public/MessageLogModule.h (RegisterLogListing,
// UnregisterLogListing). Not in UE_API_NOTES: see UnrealPlugin/README.md for the source.
#pragma once

#include "CoreMinimal.h"
#include "Modules/ModuleInterface.h"

struct FMessageLogInitializationOptions
{
	FMessageLogInitializationOptions();
};

class FMessageLogModule : public IModuleInterface
{
public:
	virtual void RegisterLogListing(const FName& LogName, const FText& LogLabel,
		const FMessageLogInitializationOptions& InitializationOptions = FMessageLogInitializationOptions());
	virtual bool UnregisterLogListing(const FName& LogName);
};
