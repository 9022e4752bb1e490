// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: PCG plugin PCGContext.h and PCGData.h (UE_API_NOTES B.9): FPCGContext's InputData /
// OutputData, GetInputSettings<T>(), NewObject_AnyThread<T> (5.5+), FPCGDataCollection's
// GetInputsByPin and TaggedData, FPCGTaggedData (Data, Tags, Pin).
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"

class UPCGData : public UObject
{
};

struct FPCGTaggedData
{
	TObjectPtr<const UPCGData> Data;
	TSet<FString> Tags;
	FName Pin;
};

struct FPCGDataCollection
{
	TArray<FPCGTaggedData> TaggedData;
	TArray<FPCGTaggedData> GetInputsByPin(const FName& InPinLabel) const;
};

struct FPCGContext
{
	FPCGDataCollection InputData;
	FPCGDataCollection OutputData;

	template <typename SettingsType>
	const SettingsType* GetInputSettings() const;

	template <class T, typename... Args>
	static T* NewObject_AnyThread(FPCGContext* Context, Args&&... InArgs);
};
