// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: PCG plugin PCGElement.h (UE_API_NOTES B.9): IPCGElement (5.4) and FPCGElementPtr.
#pragma once

#include "CoreMinimal.h"

struct FPCGContext;
class UPCGSettings;

class IPCGElement
{
public:
	virtual ~IPCGElement();

protected:
	virtual bool ExecuteInternal(FPCGContext* Context) const = 0;
	virtual bool CanExecuteOnlyOnMainThread(FPCGContext* Context) const;
	virtual bool IsCacheable(const UPCGSettings* InSettings) const;
};

using FPCGElementPtr = TSharedPtr<IPCGElement, ESPMode::ThreadSafe>;
