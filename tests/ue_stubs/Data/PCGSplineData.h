// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: PCG plugin Data/PCGSplineData.h and PCGSplineStruct.h (UE_API_NOTES B.9):
// UPCGSplineData::SplineStruct and Initialize(const TArray<FSplinePoint>&, bool, const
// FTransform&); FPCGSplineStruct::GetSplinePointsPosition / IsClosedLoop / GetTransform.
#pragma once

#include "CoreMinimal.h"
#include "Components/SplineComponent.h"
#include "PCGContext.h"

struct FPCGSplineStruct
{
	const FInterpCurveVector& GetSplinePointsPosition() const;
	bool IsClosedLoop() const;
	FTransform GetTransform() const;
};

class UPCGPolyLineData : public UPCGData
{
};

class UPCGSplineData : public UPCGPolyLineData
{
public:
	FPCGSplineStruct SplineStruct;
	void Initialize(const TArray<FSplinePoint>& InSplinePoints, bool bInClosedLoop, const FTransform& InTransform);
};
