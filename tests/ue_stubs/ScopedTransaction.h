// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Editor/UnrealEd/Public/ScopedTransaction.h (UE_API_NOTES B.7).
#pragma once

#include "CoreMinimal.h"

class FScopedTransaction
{
public:
	FScopedTransaction(const FText& SessionName, const bool bShouldActuallyTransact = true);
	~FScopedTransaction();
	void Cancel();
};
