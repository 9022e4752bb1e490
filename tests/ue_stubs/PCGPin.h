// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: PCG plugin PCGPin.h and PCGCommon.h (UE_API_NOTES B.9): FPCGPinProperties'
// constructor and EPCGDataType (the values the plugin uses).
#pragma once

#include "CoreMinimal.h"

enum class EPCGDataType : uint32
{
	None = 0,
	Point = 1 << 1,
	Spline = 1 << 2,
	Any = (1 << 30) - 1
};

struct FPCGPinProperties
{
	FPCGPinProperties();
	explicit FPCGPinProperties(const FName& InLabel, EPCGDataType InAllowedTypes = EPCGDataType::Any,
		bool bInAllowMultipleConnections = true, bool bAllowMultipleData = true, const FText& InTooltip = FText::GetEmpty());
};
