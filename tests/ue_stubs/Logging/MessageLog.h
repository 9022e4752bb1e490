// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Core/Public/Logging/MessageLog.h (5.4 mirror) and
// Logging/TokenizedMessage.h (EMessageSeverity). Not in UE_API_NOTES: read from the public
// 5.4 mirror (izzy2lost/UnrealEngineUWP), see UnrealPlugin/README.md.
#pragma once

#include "CoreMinimal.h"

namespace EMessageSeverity { enum Type : int { Error = 1, PerformanceWarning = 2, Warning = 3, Info = 4 }; }

class FTokenizedMessage;

class FMessageLog
{
public:
	FMessageLog(const FName& InLogName);
	~FMessageLog();
	TSharedRef<FTokenizedMessage> Error(const FText& InMessage = FText());
	TSharedRef<FTokenizedMessage> Warning(const FText& InMessage = FText());
	TSharedRef<FTokenizedMessage> Info(const FText& InMessage = FText());
	void Open(EMessageSeverity::Type InSeverityFilter = EMessageSeverity::Info, bool bOpenEvenIfEmpty = false);
	void Notify(const FText& InMessage = FText(), EMessageSeverity::Type InSeverityFilter = EMessageSeverity::Info, bool bForce = false);
	void NewPage(const FText& InLabel);
};
