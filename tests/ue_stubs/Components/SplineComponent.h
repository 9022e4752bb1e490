// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Engine/Classes/Components/SplineComponent.h
// (UE_API_NOTES B.1): ESplinePointType, ESplineCoordinateSpace, FSplinePoint and the
// USplineComponent getters the plugin calls, with the signatures of the notes.
#pragma once

#include "Components/PrimitiveComponent.h"

namespace ESplinePointType { enum Type : int { Linear, Curve, Constant, CurveClamped, CurveCustomTangent }; }
namespace ESplineCoordinateSpace { enum Type : int { Local, World }; }

// FSplinePoint: fields from UE_API_NOTES B.1; constructors as in SplineComponent.h.
struct FSplinePoint
{
	float InputKey;
	FVector Position;
	FVector ArriveTangent;
	FVector LeaveTangent;
	FRotator Rotation;
	FVector Scale;
	TEnumAsByte<ESplinePointType::Type> Type;

	FSplinePoint();
	FSplinePoint(float InInputKey, const FVector& InPosition);
	FSplinePoint(float InInputKey, const FVector& InPosition, ESplinePointType::Type InType,
		const FRotator& InRotation = FRotator(0.0f), const FVector& InScale = FVector(1.0f));
};

class USplineComponent : public UPrimitiveComponent
{
public:
	int32 GetNumberOfSplinePoints() const;
	bool IsClosedLoop() const;
	float GetInputKeyValueAtSplinePoint(int32 PointIndex) const;
	FVector GetLocationAtSplinePoint(int32 PointIndex, ESplineCoordinateSpace::Type CoordinateSpace) const;
	FVector GetArriveTangentAtSplinePoint(int32 PointIndex, ESplineCoordinateSpace::Type CoordinateSpace) const;
	FVector GetLeaveTangentAtSplinePoint(int32 PointIndex, ESplineCoordinateSpace::Type CoordinateSpace) const;
	ESplinePointType::Type GetSplinePointType(int32 PointIndex) const;
};
