// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Core Misc/ScopedSlowTask.h and Misc/SlowTask.h (UE 5.x: MakeDialogDelayed,
// TickProgress, ShouldCancel, EnterProgressFrame). Not in UE_API_NOTES: see UnrealPlugin/README.md.
#pragma once

#include "CoreMinimal.h"

struct FSlowTask
{
	FSlowTask(float InAmountOfWork, const FText& InDefaultMessage = FText(), bool bInEnabled = true);
	void MakeDialogDelayed(float Threshold, bool bShowCancelButton = false, bool bAllowInPIE = false);
	void MakeDialog(bool bShowCancelButton = false, bool bAllowInPIE = false);
	void EnterProgressFrame(float ExpectedWorkThisFrame = 1.f, const FText& Text = FText());
	void TickProgress();
	bool ShouldCancel() const;
};

struct FScopedSlowTask : FSlowTask
{
	FScopedSlowTask(float InAmountOfWork, const FText& InDefaultMessage = FText(), bool bInEnabled = true);
	~FScopedSlowTask();
};
